// Synthetic stores for the benchmarks, written the way agentctx writes them: opened (and
// migrated) by openDb, each record inserted by the records repository, retired by its close,
// the word counts refreshed as consolidation refreshes them. No SQL of its own, so a new
// migration or column cannot leave the benchmarks measuring a store agentctx would never write.

import { type Db, openDb } from '../database/open.js';
import { bumpAccess, closeRecord, insertRecord, linkSuccessor } from '../database/records-repo.js';
import { refreshTermDf } from '../database/term-df.js';
import type { Confidence, RecordType, Scope, Source } from '../shared/types.js';

export interface SeedRecord {
  id: string;
  project_id: string;
  type: RecordType;
  title: string;
  body: string;
  valid_from: string;
  scope?: Scope;
  confidence?: Confidence;
  source?: Source;
  session_id?: string | null;
  /** Retired at this time (older history). */
  superseded_at?: string | null;
  /** The record that replaced it. */
  superseded_by?: string | null;
  /** Read this many times, the last at `valid_from`. */
  accesses?: number;
}

/**
 * Insert `rows` in one transaction. A project keeps one current handover, and one current profile
 * fact per key (unique indexes; a row goes in current and is then retired), so the current keyed
 * rows go in last, after the retired ones they replaced; successors are linked once every row
 * exists. Returns the number of rows written.
 */
export function seedRecords(db: Db, rows: Iterable<SeedRecord>): number {
  let n = 0;
  db.transaction(() => {
    const current: SeedRecord[] = [];
    const links: [string, string][] = [];
    const write = (r: SeedRecord) => {
      insertRecord(db, {
        id: r.id,
        project_id: r.project_id,
        type: r.type,
        title: r.title,
        body: r.body,
        scope: r.scope ?? 'project',
        pinned: 0,
        confidence: r.confidence ?? 'explicit',
        reinforce_count: 0,
        valid_from: r.valid_from,
        recorded_at: r.valid_from,
        source: r.source ?? 'import',
        session_id: r.session_id ?? null,
      });
      if (r.superseded_at) closeRecord(db, r.id, r.superseded_at);
      if (r.superseded_by) links.push([r.id, r.superseded_by]);
      for (let k = 0; k < (r.accesses ?? 0); k++) bumpAccess(db, [r.id], r.valid_from);
      n++;
    };
    for (const r of rows) {
      if ((r.type === 'handover' || r.type === 'profile') && !r.superseded_at) current.push(r);
      else write(r);
    }
    for (const r of current) write(r);
    for (const [from, to] of links) linkSuccessor(db, from, to);
  })();
  return n;
}

/**
 * Open the store at `path` (created and migrated if new) and seed it. With `termDf`, the word
 * counts are left as `agentctx consolidate` leaves them (else its first run builds them, as it
 * does after an import). Returns the number of rows written.
 */
export function seedStore(path: string, rows: Iterable<SeedRecord>, opts: { termDf?: boolean } = {}): number {
  const db = openDb(path);
  try {
    const n = seedRecords(db, rows);
    if (opts.termDf) refreshTermDf(db);
    return n;
  } finally {
    db.close();
  }
}
