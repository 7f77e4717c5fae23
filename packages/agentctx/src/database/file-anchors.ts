import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { readRegularFile } from '../files/regular-file.js';
import { headCommit } from '../git/git-repo.js';
import { type Fingerprint, lazyFingerprint } from '../shared/fingerprint.js';
import type { Db } from './open.js';

/**
 * File anchors (migration 11): what a linked file was when a record was linked to it. Written
 * where links are made — the PostToolUse capture, extraction — and by consolidation for links
 * made before anchors existed. Pure file reads (no git process): this runs on the hook path.
 */

/** Files larger than this are fingerprinted by size only (never read whole on the hook path). */
const ANCHOR_MAX_BYTES = 2 * 1024 * 1024;

export interface AnchorRow {
  record_id: string;
  path: string;
  content_hash: string | null;
  lines: number | null;
  sketch: string | null;
  commit_sha: string | null;
  anchored_at: string;
}

/** The file's fingerprint now; null when it does not exist or is not a regular file. */
function readFileState(root: string, path: string): Fingerprint | null {
  const abs = isAbsolute(path) ? path : resolve(root, path);
  try {
    const st = statSync(abs);
    if (!st.isFile()) return null;
    if (st.size > ANCHOR_MAX_BYTES) return { hash: `size:${st.size}`, lines: 0, sketch: '' };
    return lazyFingerprint(readRegularFile(abs, ANCHOR_MAX_BYTES));
  } catch {
    return null;
  }
}

/** Reads each file and HEAD once per batch of anchors. */
export class AnchorReader {
  private readonly states = new Map<string, Fingerprint | null>();
  private head: string | null | undefined;
  constructor(readonly root: string) {}
  state(path: string): Fingerprint | null {
    if (!this.states.has(path)) this.states.set(path, readFileState(this.root, path));
    return this.states.get(path)!;
  }
  commit(): string | null {
    if (this.head === undefined) this.head = headCommit(this.root);
    return this.head;
  }
}

/**
 * Remember what `path` is now for each record. `refresh` replaces an existing anchor (the same
 * session edited the file again: its records describe the file as the session left it);
 * otherwise an existing anchor is kept.
 */
export function anchorFiles(
  db: Db,
  reader: AnchorReader,
  pairs: readonly { recordId: string; path: string }[],
  nowIso: string,
  refresh = false,
): number {
  if (pairs.length === 0) return 0;
  const sql = `INSERT INTO file_anchors (record_id, path, content_hash, lines, sketch, commit_sha, anchored_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(record_id, path) DO ${
       refresh
         ? 'UPDATE SET content_hash = excluded.content_hash, lines = excluded.lines, sketch = excluded.sketch, commit_sha = excluded.commit_sha, anchored_at = excluded.anchored_at'
         : 'NOTHING'
     }`;
  const stmt = db.prepare(sql);
  let n = 0;
  for (const p of pairs) {
    const s = reader.state(p.path);
    n += stmt.run(
      p.recordId,
      p.path,
      s?.hash ?? null,
      s?.lines ?? null,
      s?.sketch ?? null,
      reader.commit(),
      nowIso,
    ).changes;
  }
  return n;
}

/** The (record, file) links of the given records, by file node value. */
export function fileLinksOf(db: Db, recordIds: readonly string[]): { recordId: string; path: string }[] {
  const out: { recordId: string; path: string }[] = [];
  const stmt = db.prepare(
    `SELECT re.record_id AS recordId, n.name AS name FROM record_entities re JOIN nodes n ON n.id = re.entity_id
     WHERE re.record_id = ? AND n.kind = 'file'`,
  );
  for (const id of recordIds) {
    for (const r of stmt.all(id) as { recordId: string; name: string }[]) {
      out.push({ recordId: r.recordId, path: fileValue(r.name) });
    }
  }
  return out;
}

/** `<project>:file:<value>` → value (project ids hold no colon after the kind). */
function fileValue(name: string): string {
  const i = name.indexOf(':file:');
  return i === -1 ? name : name.slice(i + ':file:'.length);
}

/** Links of the project's current records to files that have no anchor yet. */
export function unanchoredLinks(db: Db, projectId: string): { recordId: string; path: string }[] {
  const rows = db
    .prepare(
      `SELECT re.record_id AS recordId, n.name AS name
       FROM records r JOIN record_entities re ON re.record_id = r.id JOIN nodes n ON n.id = re.entity_id
       WHERE r.project_id = ? AND r.superseded_at IS NULL AND n.kind = 'file'
         AND NOT EXISTS (SELECT 1 FROM file_anchors a WHERE a.record_id = r.id AND a.path = substr(n.name, instr(n.name, ':file:') + 6))`,
    )
    .all(projectId) as { recordId: string; name: string }[];
  return rows.map((r) => ({ recordId: r.recordId, path: fileValue(r.name) }));
}

/** The anchors of the project's current records. */
export function currentAnchors(db: Db, projectId: string): AnchorRow[] {
  return db
    .prepare(
      `SELECT a.* FROM records r JOIN file_anchors a ON a.record_id = r.id
       WHERE r.project_id = ? AND r.superseded_at IS NULL`,
    )
    .all(projectId) as AnchorRow[];
}
