import type fc from 'fast-check';
import { expectThat, type Property, setSurveyContext, Violation } from './config.js';
import type { Model } from './model.js';
import { checkReadPaths } from './reads.js';
import { learnedSummary, loadRows, type Row, reconcile, snapshotNs, storeInvariants } from './truth.js';
import { PROJECTS, type ProjectKey, type World } from './world.js';

/** The system under test as the commands see it: the world, and a trace of what ran. */
export interface Real {
  world: World;
  turn: number;
  trace: string[];
}

export type Cmd = fc.AsyncCommand<Model, Real>;

/** How many times each kind of command ran (printed by survey runs). */
export const commandCounts = new Map<string, number>();

/** Virtual minutes between two steps (a command that moves the clock adds its own). */
const STEP_MINUTES = 3;

/**
 * Run one step: move the clock, run the operation, wait for the background jobs it started,
 * then check the store against the model and every read path of both projects. `project` is
 * the project the step works in: the other one's stored rows must not change.
 */
export async function step(
  cmd: { toString(): string },
  m: Model,
  r: Real,
  project: ProjectKey | null,
  op: () => Promise<string | undefined>,
): Promise<void> {
  const w = r.world;
  r.turn++;
  commandCounts.set(cmd.constructor.name, (commandCounts.get(cmd.constructor.name) ?? 0) + 1);
  const label = `step ${r.turn}: ${cmd.toString()}`;
  setSurveyContext(() => `  ${[...r.trace, `${label}  (running)`].join('\n  ')}`);
  w.clock.advance(STEP_MINUTES * 60_000);
  const before = loadRows(w);
  const t0 = Date.now();
  try {
    const note = await op();
    r.trace.push(`${label}${note ? `  → ${note}` : ''}`);
    const t1 = Date.now();
    await w.settle();
    const after = loadRows(w);
    if (project) {
      for (const other of PROJECTS.filter((x) => x !== project))
        expectThat(
          'namespace-writes',
          snapshotNs(w, before, other) === snapshotNs(w, after, other),
          () =>
            `${label} (in project ${project}) changed project ${other}'s records: ${diffRows(w, before, after, other)}`,
        );
    }
    const learned = reconcile(w, m, after, label);
    if (learned.length > 0) r.trace.push(`    (the store also gained: ${learnedSummary(learned)})`);
    storeInvariants(w, after, label);
    for (const p of PROJECTS) await checkReadPaths(w, m, p, r.turn);
    await w.settle();
    const settled = loadRows(w);
    const later = reconcile(w, m, settled, `${label} (after the read checks)`);
    if (later.length > 0)
      r.trace.push(
        `    (gained while the read checks ran, e.g. by the consolidation a SessionStart without digest starts: ${learnedSummary(later)})`,
      );
    storeInvariants(w, settled, `${label} (after the read checks)`);
    if (process.env.AGENTCTX_MODEL_TIMING) r.trace.push(`    (${t1 - t0} ms, checks ${Date.now() - t1} ms)`);
  } catch (err) {
    if (!r.trace.some((t) => t.startsWith(label))) r.trace.push(`${label}  → (the violation below)`);
    if (err instanceof Violation) err.message += `\n\nWhat ran (ids as resolved):\n  ${r.trace.join('\n  ')}`;
    throw err;
  }
}

function diffRows(w: World, before: readonly Row[], after: readonly Row[], p: ProjectKey): string {
  const pid = w.projectId[p];
  const a = new Map(before.filter((x) => x.project_id === pid).map((x) => [x.id, JSON.stringify(x)]));
  const b = new Map(after.filter((x) => x.project_id === pid).map((x) => [x.id, JSON.stringify(x)]));
  const out: string[] = [];
  for (const [id, v] of b) if (a.get(id) !== v) out.push(a.has(id) ? `changed ${v}` : `added ${v}`);
  for (const id of a.keys()) if (!b.has(id)) out.push(`removed ${id}`);
  return out.slice(0, 3).join('; ');
}

/** The outcome of a write, whichever channel it went through. */
export interface Outcome {
  ok: boolean;
  /** The new record's id (record, supersede), when there is one. */
  id?: string;
  error?: string;
  structured: boolean;
  raw: string;
}

/** What CONTRACTS.md says a write must do. */
export type Expectation = { ok: true } | { ok: false; why: Property; reason: string };

/**
 * Hold an outcome against the expectation. A write expected to fail must fail with a
 * structured error and change nothing; a write expected to succeed must succeed.
 * Returns whether the write took effect (the model follows the store when a check is off).
 */
export function judge(
  label: string,
  exp: Expectation,
  out: Outcome,
  before: readonly Row[],
  after: readonly Row[],
): boolean {
  if (exp.ok) {
    expectThat('model-agreement', out.ok, () => `${label} failed: ${out.error ?? out.raw.slice(0, 300)}`);
    return out.ok;
  }
  expectThat(
    exp.why,
    !out.ok,
    () => `${label} succeeded (${out.raw.slice(0, 200)}); expected an error: ${exp.reason}`,
  );
  if (!out.ok) {
    expectThat(
      'model-agreement',
      out.structured,
      () => `${label} failed without a structured error: ${out.raw.slice(0, 300)}`,
    );
    const known = new Set(before.map((x) => x.id));
    const added = after.filter((x) => !known.has(x.id));
    const changed = after.filter((x) => {
      const prev = before.find((y) => y.id === x.id);
      return prev !== undefined && prev.superseded_at !== x.superseded_at;
    });
    expectThat(
      exp.why,
      added.length === 0 && changed.length === 0,
      () => `${label} failed but changed the store: ${[...added, ...changed].map((x) => x.id).join(', ')}`,
    );
  }
  return out.ok;
}

export { loadRows };
