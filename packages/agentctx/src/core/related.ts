import { isAbsolute, relative } from 'node:path';
import { qualifiedNodeName } from '../storage/graph-repo.js';
import type { Db } from '../storage/open.js';
import { namespacesOf } from './records.js';

/**
 * Records linked to a file (SPEC §5 `ctx_related`, ADR-014): start at the file's node(s), walk
 * the graph's node-to-node edges in both directions up to `maxDepth` hops, and collect the
 * records attached to any node reached, through `record_entities` or an edge between the record
 * and the node. The walk is a `WITH RECURSIVE … UNION` (duplicate rows are dropped, so a cycle
 * adds nothing new) with a depth guard; it never leaves the project's and `_global`'s nodes.
 */

export const RELATED_MAX_DEPTH = 6;
/** At most this many ids come back: `ctx_search` passes them on as a filter. */
export const RELATED_MAX_IDS = 500;

export interface RelatedOptions {
  projectId: string;
  /** The project root, to turn an absolute path into the repo-relative one nodes are stored under. */
  root?: string;
  maxDepth?: number;
  history?: boolean;
  limit?: number;
}

export interface RelatedRecord {
  id: string;
  /** Hops from the file node to the node the record hangs on (0 = linked to the file itself). */
  depth: number;
}

/** The spellings a file path may be stored under: as given, repo-relative, without `./`. */
export function fileKeys(file: string, root?: string): string[] {
  const keys = new Set<string>();
  const raw = file.trim();
  if (!raw) return [];
  keys.add(raw);
  const slashed = raw.replace(/\\/g, '/');
  keys.add(slashed);
  const noDot = slashed.replace(/^(\.\/)+/, '');
  keys.add(noDot);
  if (root && isAbsolute(raw)) {
    const rel = relative(root, raw).replace(/\\/g, '/');
    if (rel && !rel.startsWith('..')) keys.add(rel);
  } else if (root && noDot) {
    keys.add(`${root.replace(/[\\/]+$/, '')}/${noDot}`);
  }
  return [...keys].filter(Boolean);
}

/** Ids of records related to `file`, nearest first, then newest. Superseded only with `history`. */
export function relatedRecords(db: Db, file: string, opts: RelatedOptions): RelatedRecord[] {
  const ns = namespacesOf(opts.projectId);
  const names = ns.flatMap((p) => fileKeys(file, opts.root).map((k) => qualifiedNodeName(p, 'file', k)));
  if (names.length === 0) return [];
  const depth = Math.max(0, Math.min(opts.maxDepth ?? RELATED_MAX_DEPTH, 10));
  const limit = Math.max(1, Math.min(opts.limit ?? RELATED_MAX_IDS, RELATED_MAX_IDS));
  const nsMarks = ns.map(() => '?').join(',');
  const nameMarks = names.map(() => '?').join(',');
  const current = opts.history ? '' : 'AND r.superseded_at IS NULL';
  const sql = `
    WITH RECURSIVE walk(id, depth) AS (
      SELECT id, 0 FROM nodes WHERE name IN (${nameMarks})
      UNION
      SELECT n.id, w.depth + 1
      FROM walk w
      JOIN edges e ON (e.from_id = w.id OR e.to_id = w.id) AND e.rel_type <> 'supersedes'
      JOIN nodes n ON n.id = CASE WHEN e.from_id = w.id THEN e.to_id ELSE e.from_id END
      WHERE w.depth < ? AND n.project_id IN (${nsMarks})
    ),
    reached(id, depth) AS (SELECT id, MIN(depth) FROM walk GROUP BY id),
    linked(record_id, depth) AS (
      SELECT re.record_id, r.depth FROM reached r JOIN record_entities re ON re.entity_id = r.id
      UNION ALL
      SELECT e.from_id, r.depth FROM reached r JOIN edges e ON e.to_id = r.id
      UNION ALL
      SELECT e.to_id, r.depth FROM reached r JOIN edges e ON e.from_id = r.id
    )
    SELECT r.id AS id, MIN(l.depth) AS depth
    FROM linked l JOIN records r ON r.id = l.record_id
    WHERE r.project_id IN (${nsMarks}) ${current}
    GROUP BY r.id
    ORDER BY depth ASC, MAX(r.recorded_at) DESC, r.id DESC
    LIMIT ${limit}`;
  return db.prepare(sql).all(...names, depth, ...ns, ...ns) as RelatedRecord[];
}
