import { join } from 'node:path';
import { applyPlan, planClaudeMdEdits } from '../../core/drift/claudemd-edits.js';
import { driftReport } from '../../core/drift/report.js';
import { scanDrift } from '../../core/drift/scan.js';
import { renderDiff } from '../../core/drift/unified-diff.js';
import { rewriteFile } from '../../files/rewrite-file.js';
import { AgentctxError } from '../../shared/errors.js';
import { bool, num } from '../args.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'sync',
  summary:
    'Compare CLAUDE.md with the recorded decisions and conventions and print a proposed diff. Writes nothing unless --apply is confirmed.',
  usage: 'agentctx sync [--limit N] [--offset N] [--apply] [--json]',
  group: 'maintenance',
  line: 'compare CLAUDE.md with the recorded decisions; propose a diff',
  options: {
    limit: { kind: 'number', help: 'at most N changes per page' },
    offset: { kind: 'number', help: 'skip the first N changes' },
    apply: { kind: 'boolean', help: 'write the proposed CLAUDE.md (asks first)' },
  },
  examples: ['agentctx sync', 'agentctx sync --apply'],
  async run({ args, io, json, app }) {
    const a = app();
    const now = a.clock();
    const project = { id: a.project.id, root: a.project.root };
    const limit = num(args.flags, 'limit');
    const offset = num(args.flags, 'offset');
    if (!bool(args.flags, 'apply')) {
      const report = driftReport(a.db, project, { now, limit, offset });
      const head = [
        `CLAUDE.md files read: ${report.files.length ? report.files.join(', ') : 'none (a new CLAUDE.md would be created)'}`,
        `missing: ${report.total.missing}   contradicted: ${report.total.contradicted}${report.truncated ? '   (more: use --offset)' : ''}`,
        ...report.missing.map((m) => `  missing       ${m.record_id}  ${m.type}: ${m.title}`),
        ...report.contradicted.map(
          (c) =>
            `  contradicted  ${c.file}:${c.line}  ${c.excerpt ?? ''}  (now: ${c.current_title ?? c.current_id})`,
        ),
      ];
      const text = report.proposed_diff
        ? `${head.join('\n')}\n\nProposed diff (not applied; run agentctx sync --apply to write it after confirming):\n\n${report.proposed_diff}`
        : `${head.join('\n')}\n\nCLAUDE.md agrees with the store; nothing to propose.`;
      return { json: report, text };
    }
    if (json || !io.stdinIsTTY) {
      throw new AgentctxError(
        'needs_confirmation',
        'sync --apply asks for confirmation on a terminal; nothing was written (run it interactively, without --json)',
      );
    }
    const scan = scanDrift(a.db, project, now);
    const from = Math.max(0, Math.floor(offset ?? 0));
    const to = from + Math.max(1, Math.min(100, Math.floor(limit ?? 20)));
    const plan = planClaudeMdEdits(
      scan.texts,
      scan.missing.slice(from, to).map((m) => m.record),
      scan.contradicted.slice(from, to),
    );
    const diff = renderDiff(scan.texts, plan);
    if (!diff) return { json: { written: [] }, text: 'CLAUDE.md agrees with the store; nothing to write.' };
    io.stdout(diff);
    const yes = await io.confirm(`Write these changes to ${[...plan.edits.keys()].join(', ')}?`);
    if (!yes) return { json: { written: [] }, text: 'Nothing written.' };
    const written: string[] = [];
    for (const [file, text] of applyPlan(scan.texts, plan)) {
      // through a symlink, keeping the file's mode; a new CLAUDE.md is 0644
      rewriteFile(join(a.project.root, file), text, 0o644);
      written.push(file);
    }
    return { json: { written }, text: `Wrote ${written.join(', ')}.` };
  },
};
