import { relative, resolve } from 'node:path';
import type { App } from '../../app/context.js';
import { tryLock } from '../../app/lock.js';
import { runTeamImport } from '../../app/team-import-run.js';
import { registerMergeDriver } from '../../app/team-merge-driver.js';
import { hasPending, pendingInFile, recordExport, renderTeamExport } from '../../core/team/team-export.js';
import { fileSha } from '../../core/team/team-file.js';
import { removals } from '../../core/team/team-import.js';
import { readTeamFile, stampTeamSync, teamFilePath, writeTeamFile } from '../../core/team/team-io.js';
import { mergeTeamFiles } from '../../core/team/team-merge.js';
import { parseTeamFile } from '../../core/team/team-parse.js';
import { teamStatus } from '../../core/team/team-status.js';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { AgentctxError } from '../../shared/errors.js';
import { bool, str } from '../args.js';
import type { Command, CommandContext, CommandResult } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';
import { count } from '../style.js';
import { renderImport, renderStatus } from '../team-render.js';

const USAGE = [
  'agentctx team export [--force] [--file PATH] [--json]   write .agentctx/context.md from the store',
  '       agentctx team merge-file BASE OURS THEIRS            the git merge driver for the file (set up by export and import)',
  '       agentctx team import [--yes] [--file PATH] [--json]     take in the file (after a pull or a hand edit)',
  '       agentctx team status [--file PATH] [--json]             what is local only, in the file, changed on either side',
].join('\n');

const TEAM_DIR_HINT = '.agentctx';

function target(a: App, flags: CommandContext['args']['flags']): { path: string; inRepo: boolean } {
  const own = teamFilePath(a.project.root);
  const given = str(flags, 'file');
  const path = given ? resolve(given) : own;
  return { path, inRepo: path === own };
}

function teamDeps(a: App) {
  return { db: a.db, projectId: a.project.id, redact: a.redact, now: a.clock };
}

function shown(a: App, path: string): string {
  const rel = relative(a.project.root, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function runExport({ args, app, io }: CommandContext): CommandResult {
  const a = app();
  const { path, inRepo } = target(a, args.flags);
  if (inRepo && !a.project.isGit)
    throw new AgentctxError(
      'no_repository',
      `no git repository at ${a.project.root}: team context travels through git (run git init there first), or write the file elsewhere with --file PATH`,
      { root: a.project.root },
    );
  const old = readTeamFile(path);
  if (old !== null && !bool(args.flags, 'force')) {
    const pending = pendingInFile(a.db, a.project.id, old);
    if (hasPending(pending)) {
      const n = pending.incoming.length + pending.removed.length + pending.errors.length;
      throw new AgentctxError(
        'team_file_ahead',
        `${shown(a, path)} has ${n} change(s) this store has not imported (a teammate's or a hand edit): run \`agentctx team import\` first, or pass --force to overwrite them`,
        { incoming: pending.incoming, removed: pending.removed, errors: pending.errors },
      );
    }
  }
  const notice = redactionNotice(io);
  const res = renderTeamExport(teamDeps(a));
  notice.onRedacted(res.redacted);
  const redacted = notice.flush();
  const { written, attributes } = writeTeamFile(path, res.text);
  recordExport(teamDeps(a), res);
  if (inRepo) registerMergeDriver(a.project.root);
  if (inRepo) stampTeamSync(a.paths.digests, a.project.id, fileSha(res.text), a.project.root);
  const name = shown(a, path);
  return {
    json: { path, blocks: res.blocks, written, gitattributes: attributes, ...(redacted ? { redacted } : {}) },
    text: `${written ? 'wrote' : 'unchanged:'} ${count(res.blocks, 'team record')} in ${name}${attributes ? ' (and .agentctx/.gitattributes: merged by block)' : ''}${written && inRepo ? `\ncommit it: git add ${TEAM_DIR_HINT} && git commit` : ''}`,
  };
}

async function runImport({ args, app, io }: CommandContext): Promise<CommandResult> {
  const a = app();
  const { path, inRepo } = target(a, args.flags);
  const text = readTeamFile(path);
  if (text === null)
    throw new AgentctxError('not_found', `no team file at ${shown(a, path)}: nothing to import`);
  const parsed = parseTeamFile(text);
  if (inRepo) registerMergeDriver(a.project.root);
  const notice = redactionNotice(io);
  const deps = { ...a.records(), onRedacted: notice.onRedacted };
  const gone = removals(deps, parsed).filter((r) => !r.changedHere);
  let closeRemoved = bool(args.flags, 'yes');
  if (!closeRemoved && gone.length > 0 && io.stdinIsTTY && parsed.errors.every((e) => e.key)) {
    io.stderr(`${gone.length} team record(s) were removed from ${shown(a, path)}:`);
    for (const r of gone) io.stderr(`  ${r.id}  ${r.title}`);
    closeRemoved = await io.confirm('Close them here too (they stay in history)?');
  }
  const { report, digest_refreshed: digest } = await runTeamImport(a, {
    parsed,
    text,
    inRepo,
    closeRemoved,
    onRedacted: notice.onRedacted,
  });
  const redacted = notice.flush();
  return {
    json: { path, ...report, digest_refreshed: digest, ...(redacted ? { redacted } : {}) },
    text: renderImport(shown(a, path), report),
    exitCode: report.errors.length > 0 ? 1 : 0,
  };
}

/**
 * `agentctx team merge-file BASE OURS THEIRS`: what git runs to merge the team file (the three
 * versions' paths, `%O %A %B`); the result replaces OURS. Needs no store.
 */
function runMergeFile({ args }: CommandContext): CommandResult {
  const [base, ours, theirs] = args.positionals.slice(1);
  if (!base || !ours || !theirs) throw new AgentctxError('usage', 'team merge-file needs BASE OURS THEIRS');
  const read = (p: string) => readTeamFile(p) ?? '';
  const merged = mergeTeamFiles(read(base), read(ours), read(theirs));
  if (merged === null)
    throw new AgentctxError(
      'invalid_input',
      'the team file has blocks that cannot be read on one side: merge it by hand, then run agentctx team import',
    );
  writeFileAtomic(ours, merged, 0o644);
  return { json: { merged: true }, text: '' };
}

function runStatus({ args, app }: CommandContext): CommandResult {
  const a = app();
  const { path } = target(a, args.flags);
  const status = teamStatus(teamDeps(a), readTeamFile(path));
  return { json: { path, ...status }, text: renderStatus(shown(a, path), status) };
}

export const command: Command = {
  name: 'team',
  summary: 'Team context through git: export, import and status of .agentctx/context.md.',
  usage: USAGE,
  group: 'everyday',
  line: 'team context in git: export, import or status of .agentctx/context.md',
  options: {
    yes: { kind: 'boolean', help: 'import: close records whose block was removed, without asking' },
    force: { kind: 'boolean', help: 'export: overwrite a file that holds changes not imported yet' },
    file: { kind: 'string', help: 'use FILE instead of <repo>/.agentctx/context.md' },
  },
  examples: ['agentctx team export', 'agentctx team import', 'agentctx team status'],
  async run(ctx) {
    const sub = ctx.args.positionals[0];
    if (sub === 'status') return runStatus(ctx);
    if (sub === 'merge-file') return runMergeFile(ctx);
    if (sub !== 'export' && sub !== 'import') {
      throw new AgentctxError(
        'usage',
        `team needs export, import or status${sub ? ` (got ${JSON.stringify(sub)})` : ''}`,
      );
    }
    // one export or import at a time per project: both read the links, then write them
    const a = ctx.app();
    const lock = tryLock(a.paths.locks, `team-${a.project.id}`);
    if (!lock)
      throw new AgentctxError('busy', 'another agentctx team export or import is running for this project');
    try {
      return sub === 'export' ? runExport(ctx) : await runImport(ctx);
    } finally {
      lock.release();
    }
  },
};
