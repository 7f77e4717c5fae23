import type { Db } from './open.js';

/**
 * Graph adjacency (CONTRACTS.md §schema). `nodes.name` is UNIQUE across the whole file, so the
 * stored name is qualified by project and kind — `<project_id>:<kind>:<value>` — and the same
 * path in two projects gives two nodes.
 */
type NodeKind = 'file' | 'symbol' | 'package' | 'module' | 'branch';

export function qualifiedNodeName(projectId: string, kind: NodeKind, value: string): string {
  return `${projectId}:${kind}:${value}`;
}

/** The value part of a qualified node name (the file path, branch name…). */
export function nodeValue(name: string): string {
  const first = name.indexOf(':');
  const second = first === -1 ? -1 : name.indexOf(':', first + 1);
  return second === -1 ? name : name.slice(second + 1);
}

/** The id of the node, created if needed. */
export function upsertNode(
  db: Db,
  newId: () => string,
  projectId: string,
  kind: NodeKind,
  value: string,
): string {
  const name = qualifiedNodeName(projectId, kind, value);
  db.prepare(
    'INSERT INTO nodes (id, project_id, kind, name) VALUES (?, ?, ?, ?) ON CONFLICT(name) DO NOTHING',
  ).run(newId(), projectId, kind, name);
  return (db.prepare('SELECT id FROM nodes WHERE name = ?').get(name) as { id: string }).id;
}

export function linkRecordEntity(db: Db, recordId: string, entityId: string): void {
  db.prepare('INSERT OR IGNORE INTO record_entities (record_id, entity_id) VALUES (?, ?)').run(
    recordId,
    entityId,
  );
}

export function addEdge(
  db: Db,
  newId: () => string,
  fromId: string,
  toId: string,
  relType: 'supersedes' | 'applies_to' | 'observed_in' | 'derives_from' | 'scoped_to',
  weight = 1,
): void {
  const exists = db
    .prepare('SELECT 1 FROM edges WHERE from_id = ? AND to_id = ? AND rel_type = ? LIMIT 1')
    .get(fromId, toId, relType);
  if (!exists) {
    db.prepare('INSERT INTO edges (id, from_id, to_id, rel_type, weight) VALUES (?, ?, ?, ?, ?)').run(
      newId(),
      fromId,
      toId,
      relType,
      weight,
    );
  }
}
