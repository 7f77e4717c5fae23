import { sharedWriters, writersOnly } from '../../app/agent-scope.js';
import type { App } from '../../app/context.js';
import { drainCaptureSpool, foldJournals } from '../../app/journal.js';
import { tryLock } from '../../app/lock.js';
import { appendLog } from '../../app/log.js';
import { runScrub } from '../../app/scrub.js';
import { loadEmbedder, openSemantic, semanticConfig } from '../../app/semantic.js';
import { backfillEmbeddings, countPending } from '../../core/consolidation/backfill.js';
import { consolidate } from '../../core/consolidation/run.js';
import { refreshProfile } from '../../core/profile/refresh-profile.js';
import { namespacesOf } from '../../core/records/records.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { errorMessage } from '../../shared/errors.js';
import { num } from '../args.js';
import type { Command } from '../command.js';
import { createProgress } from '../progress.js';
import { scrubLine } from '../scrub-report.js';

const DEFAULT_BUDGET_MS = 60_000;

export const command: Command = {
  name: 'consolidate',
  summary:
    'Update scores, merge exact duplicates, list near duplicates, scan CLAUDE.md drift and pre-compute the SessionStart digest.',
  usage: 'agentctx consolidate [--cwd DIR] [--budget-ms N] [--rebuild] [--rebuild-embeddings] [--json]',
  group: 'maintenance',
  line: 'scores, duplicates, CLAUDE.md drift and the next digest (after each session)',
  options: {
    'budget-ms': { kind: 'number', help: 'time box in milliseconds (default 60000)' },
    rebuild: { kind: 'boolean', help: 'rebuild the near-duplicate list from the records' },
    'rebuild-embeddings': { kind: 'boolean', help: 're-embed every record' },
  },
  examples: ['agentctx consolidate', 'agentctx consolidate --rebuild-embeddings'],
  async run({ args, json, app }) {
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
    const bar = createProgress({ write: (t) => process.stderr.write(t), enabled: tty });
    const progress = (step: string, done: number, total: number) =>
      bar.update(`consolidate: ${step}`, done, total);
    try {
      const started = performance.now();
      drainCaptureSpool(a.db, a.paths, a.newId, a.redact);
      foldJournals(a.db, a.paths, a.clock, { removeOld: true });
      // first: secrets older versions kept go before anything is embedded, indexed or digested
      const scrub = await runScrub(a, { budgetMs: budgetMs / 2 }).catch((err: unknown) => {
        appendLog(a.paths.logs, 'consolidate', `project=${a.project.id} scrub failed: ${errorMessage(err)}`);
        return { error: errorMessage(err) };
      });
      const semantic = await embedStep(a, {
        rebuild: args.flags.rebuildEmbeddings === true,
        tty,
        budgetMs,
        progress,
      });
      const summary = consolidate({
        ...(semantic.store ? { vectors: semantic.store } : {}),
        db: a.db,
        clock: a.clock,
        newId: a.newId,
        project: { id: a.project.id, name: a.project.name, root: a.project.root },
        digestsDir: a.paths.digests,
        reinforceThreshold: a.config.reinforceThreshold,
        ...writersOnly({ writers: sharedWriters(a.config) }),
        budgetMs: Math.max(1000, budgetMs - (performance.now() - started)),
        rebuild: args.flags.rebuild === true,
        onProgress: progress,
        refreshProfile: (now) => {
          refreshProfile(a.records(), a.project.root, now);
        },
      });
      bar.end();
      appendLog(
        a.paths.logs,
        'consolidate',
        `project=${a.project.id} finished=${summary.finished}${summary.stopped ? ` stopped=${summary.stopped}` : ''} records=${summary.records} scores=${summary.scores_updated} merged=${summary.merged} candidates=${summary.merge_candidates}${summary.rebuilt ? ` rebuilt=${summary.rebuilt}` : ''} drift=${summary.drift.missing}/${summary.drift.contradicted}${summary.degraded ? ` degraded=${summary.degraded}` : ''} digest=${summary.digest.tokens}t${'changed' in scrub ? ` scrubbed=${scrub.changed}` : ''} ms=${summary.duration_ms}`,
      );
      const emb = semantic.report;
      const text = [
        `consolidated ${a.project.name}: ${summary.records} current records in ${summary.duration_ms} ms${
          summary.stopped === 'time' ? ' (time box reached; the next run continues the duplicate scan)' : ''
        }`,
        `  scores updated     ${summary.scores_updated}`,
        `  duplicates merged  ${summary.merged}`,
        `  merge candidates   ${summary.merge_candidates}${summary.merge_candidates ? ' (see agentctx status)' : ''}${
          summary.rebuilt === 'requested'
            ? '; rebuilt from the records (dismissed pairs stay dismissed)'
            : summary.rebuilt === 'lost'
              ? '; the list had lost rows: scanning again from the first record'
              : ''
        }`,
        summary.degraded
          ? '  CLAUDE.md drift    skipped: this SQLite has no FTS5 (so are word counts and keyword near-duplicates)'
          : `  CLAUDE.md drift    ${summary.drift.missing} missing, ${summary.drift.contradicted} contradicted`,
        `  digest             ${summary.digest.tokens} tokens, ${summary.digest.ids} records`,
        `  secrets scrubbed   ${scrubLine(scrub)}`,
        ...(summary.code_graph?.scanned
          ? [
              `  code graph         ${summary.code_graph.files_read} files read, ${summary.code_graph.modules} modules, ${summary.code_graph.symbols} symbols`,
            ]
          : []),
        `  embeddings         ${
          emb.status === 'on'
            ? `${emb.embedded} embedded, ${emb.pending} pending (${emb.model}, ${emb.store})`
            : `off: ${emb.reason}`
        }${emb.status === 'on' && emb.reason ? `; ${emb.reason}` : ''}`,
      ].join('\n');
      return { json: { ...summary, embeddings: emb, scrub }, text };
    } catch (err) {
      bar.end();
      appendLog(a.paths.logs, 'consolidate', `project=${a.project.id} failed: ${errorMessage(err)}`);
      throw err;
    } finally {
      lock.release();
    }
  },
};

interface EmbedReport {
  status: 'on' | 'off';
  reason?: string;
  model?: string;
  store?: string;
  embedded: number;
  pending: number;
  rebuilt: boolean;
  ms?: number;
}

/**
 * The semantic steps before the rest of consolidation: open the vector store (sqlite-vec or the
 * JS fallback), re-embed on a model change or --rebuild-embeddings, and backfill pending records
 * with one model load. The model is downloaded only on a terminal (with a notice and progress);
 * a background run with no model stays keyword-only and says why. Never throws.
 */
async function embedStep(
  a: App,
  opts: {
    rebuild: boolean;
    tty: boolean;
    budgetMs: number;
    progress: (s: string, d: number, t: number) => void;
  },
): Promise<{ store?: VectorStore; report: EmbedReport }> {
  const sc = semanticConfig(a.config, a.paths, a.env);
  const ns = namespacesOf(a.project.id);
  const sem = await openSemantic(a.db, sc, { rebuild: opts.rebuild });
  const report: EmbedReport = {
    status: sem.embeddings,
    ...(sem.reason ? { reason: sem.reason } : {}),
    ...(sem.model ? { model: sem.model } : {}),
    ...(sem.store_kind ? { store: sem.store_kind } : {}),
    embedded: 0,
    pending: 0,
    rebuilt: opts.rebuild && sem.store !== undefined,
  };
  if (!sem.store) return { report };
  report.pending = countPending(a.db, ns);
  if (sem.embeddings !== 'on' || report.pending === 0) return { store: sem.store, report };
  if (!sem.model_present && !opts.tty) {
    report.reason = `model ${sem.model} is not downloaded (agentctx init --download-model): ${report.pending} records wait`;
    return { store: sem.store, report };
  }
  try {
    const out = await backfillEmbeddings({
      db: a.db,
      store: sem.store,
      namespaces: ns,
      budgetMs: opts.budgetMs,
      loadEmbedder: () =>
        loadEmbedder(sc, {
          download: opts.tty,
          onNotice: (line) => process.stderr.write(`${line}\n`),
          onProgress: (file, x) => opts.progress(`downloading ${file}`, Math.round(x * 100), 100),
        }),
      onProgress: (d, t) => opts.progress('embeddings', d, t),
    });
    report.embedded = out.embedded;
    report.pending = out.pending;
    report.ms = out.ms;
    if (out.stopped === 'time') report.reason = 'time box reached; the next run continues the backfill';
  } catch (err) {
    report.status = 'off';
    report.reason = errorMessage(err);
    appendLog(a.paths.logs, 'consolidate', `project=${a.project.id} embeddings off: ${report.reason}`);
  }
  return { store: sem.store, report };
}
