import { isAbsolute, relative } from 'node:path';
import { qualifiedNodeName } from '../../database/graph-repo.js';
import type { Db } from '../../database/open.js';
import { namespacesOf } from './records.js';

/**
 * Records linked to a file (CONTRACTS.md §ctx-related): start at the file's node(s), walk
 * the graph's node-to-node edges in both directions up to `maxDepth` hops, and collect the
 * records attached to any node reached, through `record_entities` or an edge between the record
 * and the node. The walk is a `WITH RECURSIVE … UNION` (duplicate rows are dropped, so a cycle
 * adds nothing new) with a depth guard and a cap on the rows walked, breadth-first; it never
 * leaves the project's and `_global`'s nodes.
 */

const RELATED_MAX_DEPTH = 6;
/** At most this many ids come back: `ctx_search` passes them on as a filter. */
const RELATED_MAX_IDS = 500;
/** Rows the walk may produce (breadth-first): bounds the work in a dense graph. */
export const WALK_MAX_ROWS = 500;

interface RelatedOptions {
  projectId: string;
  /** The project root, to turn an absolute path into the repo-relative one nodes are stored under. */
  root?: string;
  maxDepth?: number;
  history?: boolean;
  limit?: number;
}

interface RelatedRecord {
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

/**
 * Ids of records related to `file`, nearest first, then newest. Superseded only with `history`.
 * Iterative deepening: the walk goes 1, 2, 4 hops and then to the depth guard, and stops as soon
 * as `limit` records are found — the far links of a dense graph are only paid for when the near
 * ones are too few. (Distances found within d hops are exact, so the order does not change.)
 */
export function relatedRecords(db: Db, file: string, opts: RelatedOptions): RelatedRecord[] {
  const ns = namespacesOf(opts.projectId);
  const names = ns.flatMap((p) => fileKeys(file, opts.root).map((k) => qualifiedNodeName(p, 'file', k)));
  if (names.length === 0) return [];
  const maxDepth = Math.max(0, Math.min(opts.maxDepth ?? RELATED_MAX_DEPTH, 10));
  const limit = Math.max(1, Math.min(opts.limit ?? RELATED_MAX_IDS, RELATED_MAX_IDS));
  const steps = [...new Set([1, 2, 4, maxDepth].filter((d) => d <= maxDepth))];
  let found: RelatedRecord[] = [];
  for (const depth of steps.length ? steps : [0]) {
    found = walkOnce(db, names, ns, depth, limit, opts.history === true);
    if (found.length >= limit) break;
  }
  return found;
}

function walkOnce(
  db: Db,
  names: string[],
  ns: string[],
  depth: number,
  limit: number,
  history: boolean,
): RelatedRecord[] {
  const nsMarks = ns.map(() => '?').join(',');
  const nameMarks = names.map(() => '?').join(',');
  const current = history ? '' : 'AND r.superseded_at IS NULL';
  // Two recursive arms, one per edge direction, so each step is an index lookup (edges_from,
  // edges_to) and a primary-key check of the node's namespace. The queue is first-in first-out,
  // so the walk is breadth-first and `LIMIT` (a cap on the rows it may produce) keeps the
  // nearest nodes of a dense graph and cuts the far tail. CROSS JOIN fixes the join order (SQLite
  // never reorders it): every later step is driven by the few rows reached, never by a scan of
  // edges or records.
  const sql = `
    WITH RECURSIVE walk(id, depth) AS (
      SELECT id, 0 FROM nodes WHERE name IN (${nameMarks})
      UNION
      SELECT n.id, w.depth + 1
      FROM walk w CROSS JOIN edges e ON e.from_id = w.id CROSS JOIN nodes n ON n.id = e.to_id
      WHERE w.depth < ? AND e.rel_type <> 'supersedes' AND n.project_id IN (${nsMarks})
      UNION
      SELECT n.id, w.depth + 1
      FROM walk w CROSS JOIN edges e ON e.to_id = w.id CROSS JOIN nodes n ON n.id = e.from_id
      WHERE w.depth < ? AND e.rel_type <> 'supersedes' AND n.project_id IN (${nsMarks})
      LIMIT ${WALK_MAX_ROWS}
    ),
    reached(id, depth) AS MATERIALIZED (SELECT id, MIN(depth) FROM walk GROUP BY id),
    linked(record_id, depth) AS MATERIALIZED (
      SELECT re.record_id, r.depth FROM reached r CROSS JOIN record_entities re ON re.entity_id = r.id
      UNION ALL
      SELECT e.from_id, r.depth FROM reached r CROSS JOIN edges e ON e.to_id = r.id
      UNION ALL
      SELECT e.to_id, r.depth FROM reached r CROSS JOIN edges e ON e.from_id = r.id
    )
    SELECT r.id AS id, MIN(l.depth) AS depth
    FROM linked l CROSS JOIN records r ON r.id = l.record_id
    WHERE r.project_id IN (${nsMarks}) ${current}
    GROUP BY r.id
    ORDER BY depth ASC, MAX(r.recorded_at) DESC, r.id DESC
    LIMIT ${limit}`;
  return db.prepare(sql).all(...names, depth, ...ns, depth, ...ns, ...ns) as RelatedRecord[];
}
