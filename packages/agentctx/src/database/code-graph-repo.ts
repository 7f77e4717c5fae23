import { nodeValue } from './graph-repo.js';
import type { Db } from './open.js';

/**
 * SQL for the derived code graph (core/codegraph): `module` and `symbol` nodes belong to it, and
 * so do every edge touching one and every `record_entities` row pointing at one. Nothing else
 * writes them, so a refresh may replace them wholesale.
 */

const CODE_NODES = `SELECT id FROM nodes WHERE project_id = ? AND kind IN ('module', 'symbol')`;

/** The project's file nodes (value = the path as stored), newest first. */
export function fileNodes(db: Db, projectId: string, limit: number): { id: string; value: string }[] {
  const rows = db
    .prepare(`SELECT id, name FROM nodes WHERE project_id = ? AND kind = 'file' ORDER BY id DESC LIMIT ?`)
    .all(projectId, limit) as { id: string; name: string }[];
  return rows.map((r) => ({ id: r.id, value: nodeValue(r.name) }));
}

/** Title and body of every record of the namespace (current and superseded), read lazily. */
export function recordTexts(
  db: Db,
  projectId: string,
): IterableIterator<{ id: string; title: string; body: string }> {
  return db
    .prepare('SELECT id, title, body FROM records WHERE project_id = ?')
    .iterate(projectId) as IterableIterator<{
    id: string;
    title: string;
    body: string;
  }>;
}

export interface EdgeKey {
  from_id: string;
  to_id: string;
  rel_type: string;
}

export interface LinkKey {
  record_id: string;
  entity_id: string;
}

/** The code graph as stored: edges touching a module/symbol node, and records linked to one. */
export function storedCodeGraph(db: Db, projectId: string): { edges: EdgeKey[]; links: LinkKey[] } {
  const edges = db
    .prepare(
      `SELECT from_id, to_id, rel_type FROM edges WHERE from_id IN (${CODE_NODES})
       UNION SELECT from_id, to_id, rel_type FROM edges WHERE to_id IN (${CODE_NODES})`,
    )
    .all(projectId, projectId) as EdgeKey[];
  const links = db
    .prepare(`SELECT record_id, entity_id FROM record_entities WHERE entity_id IN (${CODE_NODES})`)
    .all(projectId) as LinkKey[];
  return { edges, links };
}

/** The project's module and symbol nodes: qualified name → id. */
export function codeNodeIds(db: Db, projectId: string): Map<string, string> {
  const rows = db
    .prepare(`SELECT id, name FROM nodes WHERE project_id = ? AND kind IN ('module', 'symbol')`)
    .all(projectId) as { id: string; name: string }[];
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Statements prepared once for a refresh's many small writes (call inside one transaction). */
export function codeGraphWriter(db: Db) {
  const node = db.prepare('INSERT INTO nodes (id, project_id, kind, name) VALUES (?, ?, ?, ?)');
  const edge = db.prepare(
    'INSERT INTO edges (id, from_id, to_id, rel_type, weight) VALUES (?, ?, ?, ?, 1.0)',
  );
  const unedge = db.prepare('DELETE FROM edges WHERE from_id = ? AND to_id = ? AND rel_type = ?');
  const link = db.prepare('INSERT OR IGNORE INTO record_entities (record_id, entity_id) VALUES (?, ?)');
  const unlink = db.prepare('DELETE FROM record_entities WHERE record_id = ? AND entity_id = ?');
  return {
    addNode: (id: string, projectId: string, kind: 'module' | 'symbol', name: string) =>
      node.run(id, projectId, kind, name),
    addEdge: (id: string, e: EdgeKey) => edge.run(id, e.from_id, e.to_id, e.rel_type),
    removeEdge: (e: EdgeKey) => unedge.run(e.from_id, e.to_id, e.rel_type),
    addLink: (l: LinkKey) => link.run(l.record_id, l.entity_id),
    removeLink: (l: LinkKey) => unlink.run(l.record_id, l.entity_id),
  };
}

/** Delete the project's module and symbol nodes nothing points at any more. */
export function dropOrphanCodeNodes(db: Db, projectId: string): number {
  return db
    .prepare(
      `DELETE FROM nodes WHERE project_id = ? AND kind IN ('module', 'symbol')
         AND NOT EXISTS (SELECT 1 FROM edges WHERE from_id = nodes.id)
         AND NOT EXISTS (SELECT 1 FROM edges WHERE to_id = nodes.id)
         AND NOT EXISTS (SELECT 1 FROM record_entities WHERE entity_id = nodes.id)`,
    )
    .run(projectId).changes;
}
