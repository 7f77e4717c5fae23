import type { ContextRecord } from '../shared/types.js';
import type { Db } from './open.js';

type NewRecordRow = Pick<
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
  | 'source'
  | 'session_id'
> & { agent?: string };

export function insertRecord(db: Db, row: NewRecordRow): void {
  db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, pinned, confidence, reinforce_count,
       valid_from, recorded_at, source, session_id, agent)
     VALUES (@id, @project_id, @type, @title, @body, @scope, @pinned, @confidence, @reinforce_count,
       @valid_from, @recorded_at, @source, @session_id, @agent)`,
  ).run({ ...row, agent: row.agent ?? 'claude-code' });
}

export function getRecord(db: Db, id: string): ContextRecord | undefined {
  return db.prepare('SELECT * FROM records WHERE id = ?').get(id) as ContextRecord | undefined;
}

/**
 * Records the namespaces may see whose id starts with `prefix` (ULIDs, compared upper-cased),
 * at most `limit`, by the primary key's range: `show 01M91Q44` finds its record.
 */
export function recordsByIdPrefix(
  db: Db,
  prefix: string,
  namespaces: readonly string[],
  limit = 11,
): ContextRecord[] {
  const p = prefix.toUpperCase();
  const marks = namespaces.map(() => '?').join(',');
  return db
    .prepare(
      `SELECT * FROM records WHERE id >= ? AND id < ? AND project_id IN (${marks}) ORDER BY id LIMIT ?`,
    )
    .all(p, `${p}~`, ...namespaces, limit) as ContextRecord[];
}

/**
 * The project's name as its profile says (`profile: name`, from its manifest or its folder),
 * or null before a profile was detected. The one name digest, status, export and dashboard show.
 */
export function profileNameOf(db: Db, projectId: string): string | null {
  const row = db
    .prepare(
      `SELECT body FROM records WHERE project_id = ? AND type = 'profile' AND title = 'profile: name'
       AND superseded_at IS NULL ORDER BY recorded_at DESC, id DESC LIMIT 1`,
    )
    .get(projectId) as { body: string } | undefined;
  const name = row?.body.trim();
  return name ? name : null;
}

/** Records with these ids that the given namespaces may see (history included). */
export function getVisibleRecords(
  db: Db,
  ids: readonly string[],
  namespaces: readonly string[],
): ContextRecord[] {
  if (ids.length === 0) return [];
  const idMarks = ids.map(() => '?').join(',');
  const nsMarks = namespaces.map(() => '?').join(',');
  return db
    .prepare(`SELECT * FROM records WHERE id IN (${idMarks}) AND project_id IN (${nsMarks})`)
    .all(...ids, ...namespaces) as ContextRecord[];
}

/** Close a current record (`superseded_at`); its successor is linked once it exists. False when not current. */
export function closeRecord(db: Db, id: string, at: string): boolean {
  return (
    db.prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL').run(at, id)
      .changes === 1
  );
}

/** Name the successor of a record closed by closeRecord. */
export function linkSuccessor(db: Db, oldId: string, newId: string): void {
  db.prepare('UPDATE records SET superseded_by = ? WHERE id = ?').run(newId, oldId);
}

/**
 * The current records a new one replaces by rule (CONTRACTS.md §keyed): the handover of its
 * project, or the profile record of its key (the title) in its project. Empty for other types.
 */
export function currentKeyed(db: Db, namespace: string, type: string, title: string): ContextRecord[] {
  if (type === 'handover') {
    return db
      .prepare("SELECT * FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL")
      .all(namespace) as ContextRecord[];
  }
  if (type === 'profile') {
    return db
      .prepare(
        "SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND title = ? AND superseded_at IS NULL",
      )
      .all(namespace, title) as ContextRecord[];
  }
  return [];
}

/** Follow `superseded_by` from a record to the current head (cycle-safe). */
export function currentHead(db: Db, id: string): ContextRecord | undefined {
  const stmt = db.prepare('SELECT * FROM records WHERE id = ?');
  let rec = stmt.get(id) as ContextRecord | undefined;
  const seen = new Set<string>();
  while (rec?.superseded_by && !seen.has(rec.id)) {
    seen.add(rec.id);
    const next = stmt.get(rec.superseded_by) as ContextRecord | undefined;
    if (!next) break;
    rec = next;
  }
  return rec;
}

/** The whole supersession chain through a record, oldest first. */
export function supersessionChain(db: Db, id: string): ContextRecord[] {
  const byId = db.prepare('SELECT * FROM records WHERE id = ?');
  const bySuccessor = db.prepare('SELECT * FROM records WHERE superseded_by = ?');
  const start = byId.get(id) as ContextRecord | undefined;
  if (!start) return [];
  const seen = new Set<string>([start.id]);
  const before: ContextRecord[] = [];
  let cur: ContextRecord | undefined = start;
  for (;;) {
    const prev = bySuccessor.get(cur.id) as ContextRecord | undefined;
    if (!prev || seen.has(prev.id)) break;
    seen.add(prev.id);
    before.unshift(prev);
    cur = prev;
  }
  const after: ContextRecord[] = [];
  cur = start;
  while (cur.superseded_by) {
    const next = byId.get(cur.superseded_by) as ContextRecord | undefined;
    if (!next || seen.has(next.id)) break;
    seen.add(next.id);
    after.push(next);
    cur = next;
  }
  return [...before, start, ...after];
}

export function bumpAccess(db: Db, ids: readonly string[], at: string): void {
  const stmt = db.prepare(
    'UPDATE records SET access_count = access_count + 1, last_accessed = ? WHERE id = ?',
  );
  for (const id of ids) stmt.run(at, id);
}

interface ListFilter {
  namespaces: readonly string[];
  types?: readonly string[];
  history?: boolean;
  pinnedOnly?: boolean;
  limit?: number;
}

/** Records of the given namespaces, newest first. Superseded ones only with `history`. */
export function listRecords(db: Db, f: ListFilter): ContextRecord[] {
  const where: string[] = [`project_id IN (${f.namespaces.map(() => '?').join(',')})`];
  const args: unknown[] = [...f.namespaces];
  if (!f.history) where.push('superseded_at IS NULL');
  if (f.types && f.types.length > 0) {
    where.push(`type IN (${f.types.map(() => '?').join(',')})`);
    args.push(...f.types);
  }
  if (f.pinnedOnly) where.push('pinned = 1');
  const limit = f.limit ? ` LIMIT ${Math.max(1, Math.floor(f.limit))}` : '';
  return db
    .prepare(`SELECT * FROM records WHERE ${where.join(' AND ')} ORDER BY recorded_at DESC, id DESC${limit}`)
    .all(...args) as ContextRecord[];
}

export function countByType(db: Db, projectId: string): Record<string, number> {
  const rows = db
    .prepare(
      'SELECT type, COUNT(*) AS n FROM records WHERE project_id = ? AND superseded_at IS NULL GROUP BY type',
    )
    .all(projectId) as { type: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.type, r.n]));
}

/** Find a current record of the namespace with exactly this type, title and body. */
export function findVerbatim(
  db: Db,
  projectId: string,
  type: string,
  title: string,
  body: string,
): ContextRecord | undefined {
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = ? AND title = ? AND body = ?
       AND superseded_at IS NULL LIMIT 1`,
    )
    .get(projectId, type, title, body) as ContextRecord | undefined;
}

/** Current records of a namespace by confidence. */
export function countByConfidence(db: Db, projectId: string): Record<string, number> {
  const rows = db
    .prepare(
      'SELECT confidence, COUNT(*) AS n FROM records WHERE project_id = ? AND superseded_at IS NULL GROUP BY confidence',
    )
    .all(projectId) as { confidence: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.confidence, r.n]));
}

/** The agent that wrote each of these records (provenance, migration 17). */
export function agentsOf(db: Db, ids: readonly string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT id, agent FROM records WHERE id IN (${ids.map(() => '?').join(',')})`)
    .all(...ids) as { id: string; agent: string }[];
  return new Map(rows.map((r) => [r.id, r.agent]));
}
