import { type Db, listRecords, namespacesOf, nodeValue } from './core.js';

interface GraphNode {
  id: string;
  kind: 'record' | 'file';
  label: string;
  /** Record type, or 'file'. */
  group: string;
  superseded?: boolean;
  confidence?: string;
}

interface GraphLink {
  source: string;
  target: string;
  kind: 'supersedes' | 'file';
}

export interface GraphData {
  nodes: GraphNode[];
  links: GraphLink[];
  truncated: boolean;
}

const MAX_RECORDS = 400;
const MAX_FILES = 300;

/**
 * The project's records (current; with `history` the superseded ones too), the supersession
 * chains between them, and the files they are linked to through `record_entities`.
 */
export function graphFor(db: Db, projectId: string, history: boolean): GraphData {
  const records = listRecords(db, {
    namespaces: namespacesOf(projectId),
    history,
    limit: MAX_RECORDS + 1,
  });
  const truncated = records.length > MAX_RECORDS;
  const shown = records.slice(0, MAX_RECORDS);
  const ids = new Set(shown.map((r) => r.id));
  const nodes: GraphNode[] = shown.map((r) => ({
    id: r.id,
    kind: 'record',
    label: r.title,
    group: r.type,
    superseded: r.superseded_at !== null,
    confidence: r.confidence,
  }));
  const links: GraphLink[] = [];
  for (const r of shown) {
    if (r.superseded_by && ids.has(r.superseded_by)) {
      links.push({ source: r.superseded_by, target: r.id, kind: 'supersedes' });
    }
  }
  const files = db
    .prepare(
      `SELECT re.record_id AS record_id, n.id AS node_id, n.name AS name
       FROM record_entities re JOIN nodes n ON n.id = re.entity_id
       WHERE n.kind = 'file' AND re.record_id IN (SELECT value FROM json_each(?))
       ORDER BY n.name`,
    )
    .all(JSON.stringify([...ids])) as { record_id: string; node_id: string; name: string }[];
  const fileIds = new Set<string>();
  let dropped = false;
  for (const f of files) {
    if (!fileIds.has(f.node_id)) {
      if (fileIds.size >= MAX_FILES) {
        dropped = true;
        continue;
      }
      fileIds.add(f.node_id);
      nodes.push({ id: f.node_id, kind: 'file', label: nodeValue(f.name), group: 'file' });
    }
    links.push({ source: f.record_id, target: f.node_id, kind: 'file' });
  }
  return { nodes, links, truncated: truncated || dropped };
}
