import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { World } from './world.js';

/**
 * Delete what CONTRACTS.md §stored-derived calls derived (rebuildable caches), as a user clearing
 * caches would: digests and their side files, scores, drift scores, exact-duplicate keys,
 * embeddings and the vector tables, the profile export, hook code caches; and (each switchable, as
 * known defects wait on them) the term counts, the session dedup files in TMPDIR and the merge
 * candidates with their scan watermark. Stored data is left alone: records and their stored
 * columns, access counts (a record of reads, not recomputable), sessions, graph, extraction state
 * and costs.
 */
export interface DerivedSet {
  termCounts: boolean;
  sessions: boolean;
  mergeCandidates: boolean;
}

function tableExists(db: import('../../src/database/sqlite.js').Db, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
}

export function deleteDerived(world: World, what: DerivedSet): string[] {
  const done: string[] = [];
  for (const dir of ['digests', 'cache', 'profile']) {
    const p = join(world.agentHome, dir);
    if (existsSync(p)) {
      rmSync(p, { recursive: true, force: true });
      done.push(`${dir}/`);
    }
  }
  if (what.sessions && existsSync(world.tmp)) {
    for (const f of readdirSync(world.tmp))
      if (/^agentctx-.*\.json$/.test(f)) {
        rmSync(join(world.tmp, f), { force: true });
        done.push(`tmp/${f}`);
      }
  }
  world.write((db) => {
    db.prepare(
      'UPDATE records SET score = 1.0, claudemd_drift_score = 0.0, pending_embedding = 1, content_key = NULL',
    ).run();
    done.push(
      'records.score',
      'records.claudemd_drift_score',
      'records.pending_embedding',
      'records.content_key',
    );
    const tables = ['records_vec_js', 'embedding_meta'];
    if (what.termCounts) tables.push('term_df', 'term_df_meta');
    if (what.mergeCandidates) tables.push('merge_candidates', 'consolidation_runs');
    for (const t of tables) {
      if (!tableExists(db, t)) continue;
      db.prepare(`DELETE FROM ${t}`).run();
      done.push(t);
    }
    if (tableExists(db, 'records_vec')) {
      try {
        db.exec('DROP TABLE records_vec');
        done.push('records_vec');
      } catch {
        // the vec0 module is not loaded in this process: nothing was ever embedded here
      }
    }
  });
  return done;
}
