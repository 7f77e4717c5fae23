import type { Db } from '../../database/open.js';
import { clearTermDf } from '../../database/term-df.js';

/** Delete everything stored for one namespace. The only path that deletes records. */
export function resetNamespace(db: Db, projectId: string): { records: number } {
  const run = db.transaction(() => {
    const ids = `SELECT id FROM records WHERE project_id = ?`;
    db.prepare(`DELETE FROM edges WHERE from_id IN (${ids}) OR to_id IN (${ids})`).run(projectId, projectId);
    db.prepare(`DELETE FROM edges WHERE from_id IN (SELECT id FROM nodes WHERE project_id = ?)
      OR to_id IN (SELECT id FROM nodes WHERE project_id = ?)`).run(projectId, projectId);
    db.prepare(`DELETE FROM record_entities WHERE record_id IN (${ids})`).run(projectId);
    db.prepare(`DELETE FROM file_anchors WHERE record_id IN (${ids})`).run(projectId);
    db.prepare('DELETE FROM record_staleness WHERE project_id = ?').run(projectId);
    db.prepare('DELETE FROM nodes WHERE project_id = ?').run(projectId);
    // usage evidence: of its records, and what its sessions were shown
    db.prepare(`DELETE FROM record_usage WHERE record_id IN (${ids})`).run(projectId);
    db.prepare(
      `DELETE FROM session_shown WHERE record_id IN (${ids})
         OR session_id IN (SELECT session_id FROM sessions WHERE project_id = ?)`,
    ).run(projectId, projectId);
    db.prepare('DELETE FROM sessions WHERE project_id = ?').run(projectId);
    db.prepare('DELETE FROM team_links WHERE project_id = ?').run(projectId);
    db.prepare('DELETE FROM team_sync WHERE project_id = ?').run(projectId);
    db.prepare('UPDATE records SET superseded_by = NULL WHERE project_id = ?').run(projectId);
    const res = db.prepare('DELETE FROM records WHERE project_id = ?').run(projectId);
    // the word counts still include the deleted records: back to the index until rebuilt
    clearTermDf(db);
    return { records: res.changes };
  });
  return run.immediate();
}
