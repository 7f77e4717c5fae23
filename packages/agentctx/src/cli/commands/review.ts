import type { App } from '../../app/context.js';
import { runTeamImport } from '../../app/team-import-run.js';
import { type ActOutcome, actOnItem, findItem } from '../../core/review/actions.js';
import { type ReviewAction, type ReviewItem, reviewQueue } from '../../core/review/queue.js';
import { readTeamFile, teamFilePath } from '../../core/team/team-io.js';
import { parseTeamFile } from '../../core/team/team-parse.js';
import { AgentctxError, errorMessage } from '../../shared/errors.js';
import { num, str } from '../args.js';
import type { Command, CommandContext, CommandIO, CommandResult } from '../command.js';

const ACTIONS: readonly ReviewAction[] = ['confirm', 'supersede', 'merge', 'dismiss', 'choose'];
const KINDS = ['conflict', 'team', 'stale', 'duplicate', 'inferred'];

function queueOf(a: App, limit: number | undefined): ReviewItem[] {
  return reviewQueue({
    db: a.db,
    projectId: a.project.id,
    projectRoot: a.project.root,
    redact: a.redact,
    now: a.clock,
    ...(limit ? { limit } : {}),
  });
}

function actDeps(a: App) {
  return {
    records: a.records(),
    projectRoot: a.project.root,
    teamImport: async () => {
      const text = readTeamFile(teamFilePath(a.project.root));
      if (text === null) throw new AgentctxError('not_found', 'no .agentctx/context.md to import');
      const { report, digest_refreshed } = await runTeamImport(a, {
        parsed: parseTeamFile(text),
        text,
        inRepo: true,
        closeRemoved: true,
      });
      return { ...report, digest_refreshed };
    },
  };
}

/** `--confirm KEY` (or a record id) and friends: one answer, for scripts and tests. */
function chosenAction(ctx: CommandContext): { action: ReviewAction; key: string } | null {
  const given = ACTIONS.flatMap((action) => {
    const key = str(ctx.args.flags, action);
    return key ? [{ action, key }] : [];
  });
  if (given.length > 1) throw new AgentctxError('usage', 'give one action at a time');
  return given[0] ?? null;
}

function resolveItem(queue: readonly ReviewItem[], key: string): ReviewItem {
  // a record id, or a unique start of one (as every command that takes an id accepts)
  const own = queue.filter((i) => i.kind === 'stale' || i.kind === 'inferred');
  const byId =
    own.find((i) => i.record_ids[0] === key) ??
    (key.length >= 4 ? only(own.filter((i) => i.record_ids[0]!.startsWith(key.toUpperCase()))) : undefined);
  return queue.find((i) => i.key === key) ?? byId ?? findItem(queue, key);
}

function only<T>(xs: T[]): T | undefined {
  return xs.length === 1 ? xs[0] : undefined;
}

/** A body as the developer reads it before answering: indented, long ones cut at 12 lines. */
function bodyText(body: string): string {
  const lines = body.split('\n');
  const shown = lines.slice(0, 12).map((l) => `    │ ${l}`);
  if (lines.length > 12) shown.push(`    │ … (${lines.length - 12} more lines: agentctx show ID)`);
  return shown.join('\n');
}

function describe(i: ReviewItem, n: number, total: number): string {
  const keys = i.actions.map((a) => `(${a[0]})${a.slice(1)}`).join(' ');
  // each record's text, so the answer is about what it says, not only its title (issue 31 #13)
  const bodies = (i.bodies ?? []).map((b, k) => `  ${i.record_ids[k]}:\n${bodyText(b)}`);
  return [
    `\n[${n}/${total}] ${i.kind}: ${i.title}`,
    `  ${i.detail.split('\n').join('\n  ')}`,
    ...bodies,
    `  ${keys}  (n)ext  (q)uit`,
  ].join('\n');
}

type Result = Record<string, unknown>;

/** What an answer did, in a line a person reads (the JSON stays in --json). */
function outcomeLine(o: ActOutcome): string {
  const r = (o.result ?? {}) as Result;
  const s = (k: string) => String(r[k] ?? '?');
  let line: string;
  if (o.key.startsWith('conflict:'))
    line = r.superseded
      ? `kept the chosen version as ${s('kept')} (it replaces ${s('superseded')})`
      : `kept the current version ${s('kept')}`;
  else if (o.key === 'team') {
    const n = (k: string) => (Array.isArray(r[k]) ? (r[k] as unknown[]).length : 0);
    line = `imported the team file: ${n('created')} new, ${n('updated')} updated, ${n('removed')} closed`;
  } else if (o.action === 'confirm')
    line = `confirmed ${s('id')}: now ${s('confidence')}${Number(r.reanchored) > 0 ? `, ${r.reanchored} file(s) anchored anew` : ''}`;
  else if (o.action === 'supersede')
    line = `replaced ${s('old_id')} with ${s('new_id')} (the old text stays in history)`;
  else if (o.action === 'merge')
    line = `merged ${s('superseded')} into ${s('keeper')} (the newer stays in history)`;
  else if (o.key.startsWith('pair:'))
    line = `kept ${s('record_a')} and ${s('record_b')} apart; the pair is not proposed again`;
  else line = `retired ${s('id')} (closed, kept in history)`;
  return `  ${line}`;
}

async function interactive(a: App, io: CommandIO, queue: ReviewItem[]): Promise<CommandResult> {
  if (!io.key) throw new AgentctxError('usage', 'review needs a terminal; use --json and the action flags');
  const done: ActOutcome[] = [];
  let skipped = 0;
  let i = 0;
  for (; i < queue.length; i++) {
    const item = queue[i]!;
    io.stderr(describe(item, i + 1, queue.length));
    for (;;) {
      const k = await io.key('> ');
      if (k === 'q') break;
      if (k === 'n' || k === '' || k === ' ') {
        skipped++;
        break;
      }
      // each item's answers start with different letters (choose is asked only of conflicts)
      const action = item.actions.find((x) => x[0] === k);
      if (!action) {
        io.stderr(`  "${k}" is not an answer here: ${item.actions.join(', ')}, next or quit`);
        continue;
      }
      const input: { body?: string; rationale?: string; version?: string } = {};
      if (action === 'choose')
        input.version = (await io.ask?.('  keep which version (its number): ')) ?? undefined;
      if (action === 'supersede') {
        input.body = (await io.ask?.('  new text: ')) ?? undefined;
        input.rationale = (await io.ask?.('  why it changed: ')) ?? undefined;
      }
      try {
        const o = await actOnItem(actDeps(a), item, action, input);
        done.push(o);
        io.stderr(outcomeLine(o));
        break;
      } catch (err) {
        io.stderr(`  ${errorMessage(err)}`);
      }
    }
    if (done.length + skipped < i + 1) break; // quit
  }
  const left = queue.length - done.length;
  return {
    json: { done, skipped, left },
    text: `review: ${done.length} answered, ${skipped} skipped, ${left} left`,
  };
}

function render(queue: readonly ReviewItem[]): string {
  if (queue.length === 0) return 'nothing to review';
  return queue.map((i) => `${i.key}\n  ${i.kind}: ${i.title}\n  ${i.detail.split('\n')[0]}`).join('\n');
}

export const command: Command = {
  name: 'review',
  summary:
    'Walk what needs a human: team conflicts, team-file changes, records whose files changed, near-duplicates, inferred records; one key each to choose, confirm, supersede, merge or dismiss.',
  usage:
    'agentctx review [--json] [--kind conflict|team|stale|duplicate|inferred] [--limit N] | agentctx review --confirm|--dismiss|--merge KEY | --supersede KEY --body BODY --rationale WHY [--title TITLE] | --choose conflict:KEY --version N',
  group: 'everyday',
  line: 'walk what needs you: team conflicts, team-file changes, records whose files changed, near-duplicates, unconfirmed records',
  options: {
    kind: { kind: 'string', help: 'only items of one kind: conflict, team, stale, duplicate or inferred' },
    limit: { kind: 'number', help: 'at most N items of each kind (default 50)' },
    confirm: {
      kind: 'string',
      help: 'answer item KEY (or a record id): the record is still true / take in the team file',
    },
    supersede: {
      kind: 'string',
      help: 'answer item KEY with a new version of the record (with --body and --rationale)',
    },
    merge: { kind: 'string', help: 'answer near-duplicate item KEY: merge the pair' },
    dismiss: { kind: 'string', help: 'answer item KEY: retire the record, or keep the pair apart' },
    choose: { kind: 'string', help: 'answer team conflict item KEY: keep one version (with --version)' },
    version: {
      kind: 'string',
      help: 'with --choose: the version that stays, by its number in the item or its record id',
    },
    body: { kind: 'string', help: 'with --supersede: the new text' },
    rationale: { kind: 'string', help: 'with --supersede: why it changed' },
    title: { kind: 'string', help: 'with --supersede: a new title' },
  },
  examples: [
    'agentctx review',
    'agentctx review --choose conflict:01JDQ8… --version 2',
    'agentctx review --json',
    'agentctx review --confirm stale:01JDQ8…',
    'agentctx review --merge pair:01JDQ8…:01JDQ9…',
  ],
  async run(ctx) {
    const a = ctx.app();
    const kind = str(ctx.args.flags, 'kind');
    if (kind && !KINDS.includes(kind))
      throw new AgentctxError('usage', `kind must be ${KINDS.slice(0, -1).join(', ')} or ${KINDS.at(-1)}`);
    const limit = num(ctx.args.flags, 'limit');
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500))
      throw new AgentctxError('usage', 'limit must be 1–500');
    const queue = queueOf(a, limit).filter((i) => !kind || i.kind === kind);
    const chosen = chosenAction(ctx);
    if (chosen) {
      const item = resolveItem(queue, chosen.key);
      const o = await actOnItem(actDeps(a), item, chosen.action, {
        body: str(ctx.args.flags, 'body'),
        rationale: str(ctx.args.flags, 'rationale'),
        title: str(ctx.args.flags, 'title'),
        version: str(ctx.args.flags, 'version'),
      });
      return { json: o, text: `${item.key}${outcomeLine(o).replace(/^ {2}/, ' → ')}` };
    }
    if (ctx.json || queue.length === 0) return { json: { items: queue }, text: render(queue) };
    return interactive(a, ctx.io, queue);
  },
};
