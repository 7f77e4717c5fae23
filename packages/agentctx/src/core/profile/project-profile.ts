import type { Db } from '../../database/open.js';
import { countByType } from '../../database/records-repo.js';
import { RECORD_TYPES, type RecordType } from '../../shared/types.js';
import { LIST_SEPARATOR, PROFILE_KEYS, type ProfileKey, profileKeyOfTitle } from './profile-keys.js';

/** The `ctx_project` result (CONTRACTS.md §ctx-project), assembled from stored `profile` records. */
interface ProjectProfile {
  name: string;
  project_id: string;
  stack: string[];
  package_manager: string | null;
  commands: { build?: string; test?: string; lint?: string };
  entry_points: string[];
  workspaces: string[];
  record_counts_by_type: Record<RecordType, number>;
  last_session_at: string | null;
}

function split(v: string | undefined): string[] {
  return v
    ? v
        .split(LIST_SEPARATOR)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/**
 * Assemble the project profile from the store: the current `profile` record of each key (the
 * newest wins), record counts per type (current records only) and the latest session activity.
 * `fallbackName` (the repository's name) is used while no profile has been detected yet.
 */
export function assembleProjectProfile(db: Db, projectId: string, fallbackName: string): ProjectProfile {
  const rows = db
    .prepare(
      `SELECT title, body FROM records WHERE project_id = ? AND type = 'profile' AND superseded_at IS NULL
       ORDER BY recorded_at ASC, id ASC`,
    )
    .all(projectId) as { title: string; body: string }[];
  const values: Partial<Record<ProfileKey, string>> = {};
  for (const r of rows) {
    const key = profileKeyOfTitle(r.title);
    if (key && PROFILE_KEYS.includes(key)) values[key] = r.body; // later rows (newer) win
  }
  const raw = countByType(db, projectId);
  const counts = Object.fromEntries(RECORD_TYPES.map((t) => [t, raw[t] ?? 0])) as Record<RecordType, number>;
  const last = db
    .prepare(`SELECT MAX(COALESCE(ended_at, started_at)) AS at FROM sessions WHERE project_id = ?`)
    .get(projectId) as { at: string | null } | undefined;
  const commands: ProjectProfile['commands'] = {};
  if (values.build) commands.build = values.build;
  if (values.test) commands.test = values.test;
  if (values.lint) commands.lint = values.lint;
  return {
    name: values.name ?? fallbackName,
    project_id: projectId,
    stack: split(values.stack),
    package_manager: values.package_manager ?? null,
    commands,
    entry_points: split(values.entry_points),
    workspaces: split(values.workspaces),
    record_counts_by_type: counts,
    last_session_at: last?.at ?? null,
  };
}
