import { assembleProjectProfile, type Db, GLOBAL_PROJECT, type ProjectRef } from './core.js';

export interface ProjectSummary {
  id: string;
  /** A readable label: the detected profile name, the folder name for the current project, or the id. */
  label: string;
  current: boolean;
  global: boolean;
  stack: string[];
  records: number;
  superseded: number;
  sessions: number;
  counts_by_type: Record<string, number>;
  /** The newest record or session activity, ISO 8601. */
  last_activity: string | null;
}

interface Row {
  id: string;
  records: number;
  superseded: number;
  sessions: number;
  last_record: string | null;
  last_session: string | null;
}

/** Every namespace in the store (plus the current project even when still empty), newest first. */
export function listProjects(db: Db, current: ProjectRef): ProjectSummary[] {
  const rows = db
    .prepare(
      `WITH p(id) AS (
         SELECT project_id FROM records
         UNION SELECT project_id FROM sessions WHERE project_id IS NOT NULL
         UNION SELECT ?
       )
       SELECT p.id,
         (SELECT COUNT(*) FROM records r WHERE r.project_id = p.id AND r.superseded_at IS NULL) AS records,
         (SELECT COUNT(*) FROM records r WHERE r.project_id = p.id AND r.superseded_at IS NOT NULL) AS superseded,
         (SELECT COUNT(*) FROM sessions s WHERE s.project_id = p.id) AS sessions,
         (SELECT MAX(recorded_at) FROM records r WHERE r.project_id = p.id) AS last_record,
         (SELECT MAX(COALESCE(ended_at, started_at)) FROM sessions s WHERE s.project_id = p.id) AS last_session
       FROM p`,
    )
    .all(current.id) as Row[];
  const out = rows.map((r): ProjectSummary => {
    const isCurrent = r.id === current.id;
    const global = r.id === GLOBAL_PROJECT;
    const fallback = global ? 'Global profile' : isCurrent ? current.name : `project ${r.id.slice(0, 12)}`;
    const profile = assembleProjectProfile(db, r.id, fallback);
    const counts = Object.fromEntries(Object.entries(profile.record_counts_by_type).filter(([, n]) => n > 0));
    const last = [r.last_record, r.last_session].filter((x): x is string => !!x).sort();
    return {
      id: r.id,
      label: global ? 'Global profile' : profile.name,
      current: isCurrent,
      global,
      stack: profile.stack,
      records: r.records,
      superseded: r.superseded,
      sessions: r.sessions,
      counts_by_type: counts,
      last_activity: last[last.length - 1] ?? null,
    };
  });
  return out.sort(
    (a, b) =>
      Number(b.current) - Number(a.current) ||
      Number(a.global) - Number(b.global) ||
      (b.last_activity ?? '').localeCompare(a.last_activity ?? ''),
  );
}
