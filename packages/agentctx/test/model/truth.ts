import type { ContextRecord } from '../../src/shared/types.js';
import { expectThat } from './config.js';
import type { Model, Ns } from './model.js';
import type { ProjectKey, World } from './world.js';

/** The stored columns of a record (ground truth, CONTRACTS.md §stored-derived): derived ones are left out. */
export type Row = Pick<
  ContextRecord,
  | 'id'
  | 'project_id'
  | 'type'
  | 'title'
  | 'body'
  | 'scope'
  | 'pinned'
  | 'confidence'
  | 'reinforce_count'
  | 'valid_from'
  | 'recorded_at'
  | 'superseded_at'
  | 'superseded_by'
  | 'source'
  | 'session_id'
>;

const COLUMNS =
  'id, project_id, type, title, body, scope, pinned, confidence, reinforce_count, valid_from, recorded_at, superseded_at, superseded_by, source, session_id';

export function loadRows(world: World): Row[] {
  return world.read((db) => db.prepare(`SELECT ${COLUMNS} FROM records ORDER BY id`).all() as Row[]);
}

export function nsOf(world: World, projectId: string): Ns | null {
  if (projectId === '_global') return 'G';
  if (projectId === world.projectId.A) return 'A';
  if (projectId === world.projectId.B) return 'B';
  return null;
}

/** A stable text of one project's stored rows, to tell whether a step changed them. */
export function snapshotNs(world: World, rows: readonly Row[], p: ProjectKey): string {
  return JSON.stringify(rows.filter((r) => r.project_id === world.projectId[p]));
}

/**
 * Compare the model with the store after a step; learn what the model did not write. A
 * disagreement is a violation of the property the model's prediction rests on; when that
 * property is switched off, the model takes the store's word and goes on.
 */
export function reconcile(world: World, model: Model, rows: readonly Row[], step: string): Row[] {
  const learned: Row[] = [];
  const seen = new Set<string>();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of rows) {
    seen.add(row.id);
    const ns = nsOf(world, row.project_id);
    expectThat('namespace-writes', ns !== null, () => `record ${row.id} has an unknown project_id`);
    if (!ns) continue;
    const dbState = row.superseded_at ? 'superseded' : 'current';
    const m = model.records.get(row.id);
    if (!m) {
      model.add({
        id: row.id,
        ns,
        type: row.type,
        title: row.title,
        body: row.body,
        authored: false,
        why: 'model-agreement',
        state: dbState,
        supersededBy: row.superseded_by,
      });
      learned.push(row);
      continue;
    }
    m.title = row.title;
    m.body = row.body;
    if (m.state === 'deleted') {
      expectThat('model-agreement', false, () => `${step}: record ${row.id} should be deleted but is stored`);
    } else if (m.state === 'current' && dbState === 'superseded') {
      const by = row.superseded_by ? byId.get(row.superseded_by) : undefined;
      // background writers apply the keyed rules (a new handover, a refreshed profile fact)
      const keyed =
        (m.type === 'handover' || m.type === 'profile') &&
        by !== undefined &&
        by.project_id === row.project_id &&
        by.type === row.type;
      expectThat(
        'model-agreement',
        !m.authored || keyed,
        () =>
          `${step}: ${m.type} ${row.id} ("${row.title}") was superseded (by ${row.superseded_by ?? 'nothing'}) though no command of the test replaced it`,
      );
    } else if (m.state === 'superseded' && dbState === 'current') {
      expectThat(
        m.why,
        false,
        () =>
          `${step}: ${m.type} ${row.id} ("${row.title}") should be superseded${m.supersededBy ? ` by ${m.supersededBy}` : ''} but is still current`,
      );
    }
    m.state = dbState;
    m.supersededBy = row.superseded_by;
  }
  for (const m of model.records.values()) {
    if (seen.has(m.id) || m.state === 'deleted') continue;
    expectThat('model-agreement', false, () => `${step}: ${m.type} ${m.id} ("${m.title}") disappeared`);
    m.state = 'deleted';
  }
  return learned;
}

/** "2 profile, 1 handover": what the store added that no command of the test wrote itself. */
export function learnedSummary(rows: readonly Row[]): string {
  const n = new Map<string, number>();
  for (const r of rows) n.set(r.type, (n.get(r.type) ?? 0) + 1);
  return [...n].map(([t, k]) => `${k} ${t}`).join(', ');
}

/** Invariants the store itself must keep, whatever wrote to it. */
export function storeInvariants(world: World, rows: readonly Row[], step: string): void {
  const current = rows.filter((r) => !r.superseded_at);
  const handovers = new Map<string, string[]>();
  const profiles = new Map<string, string[]>();
  for (const r of current) {
    if (r.type === 'handover') handovers.set(r.project_id, [...(handovers.get(r.project_id) ?? []), r.id]);
    if (r.type === 'profile') {
      const key = `${r.project_id}\u0000${r.title.trim().toLowerCase()}`;
      profiles.set(key, [...(profiles.get(key) ?? []), r.id]);
    }
  }
  for (const [pid, ids] of handovers)
    expectThat(
      'keyed-unique',
      ids.length <= 1,
      () =>
        `${step}: ${ids.length} current handovers in ${nsOf(world, pid) ?? pid}: ${ids.map((id) => describe(rows, id)).join('; ')}`,
    );
  for (const [key, ids] of profiles)
    expectThat(
      'keyed-unique',
      ids.length <= 1,
      () =>
        `${step}: ${ids.length} current profile records for key "${key.split('\u0000')[1]}": ${ids.join(', ')}`,
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of rows) {
    if (!r.superseded_by) continue;
    const by = byId.get(r.superseded_by);
    expectThat(
      'namespace-writes',
      !by || by.project_id === r.project_id,
      () =>
        `${step}: ${r.type} ${r.id} of ${nsOf(world, r.project_id)} was superseded by ${by!.id} of ${nsOf(world, by!.project_id)}: a supersession across namespaces`,
    );
  }
}

function describe(rows: readonly Row[], id: string): string {
  const r = rows.find((x) => x.id === id);
  return r ? `${id} "${r.title}" (${r.source}, ${r.confidence})` : id;
}
