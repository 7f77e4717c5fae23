import { tryLock } from '../../app/lock.js';
import { appendLog } from '../../app/log.js';
import { consolidate } from '../../core/consolidate/run.js';
import { errorMessage } from '../../core/errors.js';
import { refreshProfile } from '../../core/profile-detect.js';
import { num } from '../args.js';
import type { Command } from '../command.js';

const DEFAULT_BUDGET_MS = 60_000;

export const command: Command = {
  name: 'consolidate',
  summary:
    'Update scores, merge exact duplicates, list near duplicates, scan CLAUDE.md drift and pre-compute the SessionStart digest.',
  usage: 'agentctx consolidate [--cwd DIR] [--budget-ms N] [--json]',
  flags: { 'budget-ms': 'number' },
  run({ args, json, app }) {
    const a = app();
    const budgetMs = Math.max(1, num(args.flags, 'budgetMs') ?? DEFAULT_BUDGET_MS);
    const lock = tryLock(a.paths.locks, `consolidate-${a.project.id}`, Math.max(10 * 60_000, budgetMs * 3));
    if (!lock) {
      appendLog(a.paths.logs, 'consolidate', `project=${a.project.id} skipped: another run holds the lock`);
      return {
        json: { project_id: a.project.id, skipped: 'locked' },
        text: 'agentctx consolidate is already running for this project; nothing to do.',
      };
    }
    const tty = !json && Boolean(process.stderr.isTTY);
    let lastDraw = 0;
    const progress = (step: string, done: number, total: number) => {
      if (!tty) return;
      const t = Date.now();
      if (done < total && t - lastDraw < 100) return;
      lastDraw = t;
      process.stderr.write(`\r\x1b[2Kconsolidate: ${step} ${done}/${total}`);
    };
    try {
      const summary = consolidate({
        db: a.db,
        clock: a.clock,
        newId: a.newId,
        project: { id: a.project.id, name: a.project.name, root: a.project.root },
        digestsDir: a.paths.digests,
        reinforceThreshold: a.config.reinforceThreshold,
        budgetMs,
        onProgress: progress,
        refreshProfile: (now) => {
          refreshProfile(a.records(), a.project.root, now);
        },
      });
      if (tty) process.stderr.write('\r\x1b[2K');
      appendLog(
        a.paths.logs,
        'consolidate',
        `project=${a.project.id} finished=${summary.finished}${summary.stopped ? ` stopped=${summary.stopped}` : ''} records=${summary.records} scores=${summary.scores_updated} merged=${summary.merged} candidates=${summary.merge_candidates} drift=${summary.drift.missing}/${summary.drift.contradicted} digest=${summary.digest.tokens}t ms=${summary.duration_ms}`,
      );
      const text = [
        `consolidated ${a.project.name}: ${summary.records} current records in ${summary.duration_ms} ms${
          summary.stopped === 'time' ? ' (time box reached; the next run continues the duplicate scan)' : ''
        }`,
        `  scores updated     ${summary.scores_updated}`,
        `  duplicates merged  ${summary.merged}`,
        `  merge candidates   ${summary.merge_candidates}${summary.merge_candidates ? ' (see agentctx status)' : ''}`,
        `  CLAUDE.md drift    ${summary.drift.missing} missing, ${summary.drift.contradicted} contradicted`,
        `  digest             ${summary.digest.tokens} tokens, ${summary.digest.ids} records`,
      ].join('\n');
      return { json: summary, text };
    } catch (err) {
      if (tty) process.stderr.write('\r\x1b[2K');
      appendLog(a.paths.logs, 'consolidate', `project=${a.project.id} failed: ${errorMessage(err)}`);
      throw err;
    } finally {
      lock.release();
    }
  },
};
