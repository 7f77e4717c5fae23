import { listRecords } from '../../database/records-repo.js';
import type { ContextRecord } from '../../shared/types.js';
import { createRecord, type RecordsDeps } from '../records/records.js';
import { diskFs, type ProfileFs } from './detect/profile-fs.js';
import { detectProfile } from './detect-profile.js';
import {
  type DetectedProfile,
  PROFILE_KEYS,
  PROFILE_TITLES,
  type ProfileKey,
  profileKeyOfTitle,
} from './profile-keys.js';

/** Rule-based supersession of the stored project profile, one record per key. */

export interface ProfileChanges {
  project_id: string;
  created: ProfileKey[];
  updated: ProfileKey[];
  /** Keys no longer detected: their record is closed (superseded_at set, no successor). */
  retired: ProfileKey[];
  unchanged: ProfileKey[];
  profile: DetectedProfile;
}

/** The current profile record of each key in the working project (newest wins on duplicates). */
function currentProfileRecords(deps: RecordsDeps): Map<ProfileKey, ContextRecord[]> {
  const rows = listRecords(deps.db, { namespaces: [deps.projectId], types: ['profile'] });
  const out = new Map<ProfileKey, ContextRecord[]>();
  for (const r of rows) {
    const key = profileKeyOfTitle(r.title);
    if (key) out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

/**
 * Detect the profile of `root` and bring the stored `profile` records of `deps.projectId` in
 * line, one record per key: a new key is created, a changed value supersedes the old record, a
 * vanished key is closed. Unchanged keys are not touched. One transaction; safe to call from
 * init, consolidation or a cwd change. Records are `hook_observation` / `explicit`: read from
 * files the developer wrote, not guessed.
 */
export function refreshProfile(
  deps: RecordsDeps,
  root: string,
  now: Date = deps.clock(),
  fs: ProfileFs = diskFs(root),
): ProfileChanges {
  const detected = detectProfile(root, fs);
  const at = { ...deps, clock: () => now };
  const changes: ProfileChanges = {
    project_id: deps.projectId,
    created: [],
    updated: [],
    retired: [],
    unchanged: [],
    profile: detected,
  };
  const run = deps.db.transaction(() => {
    const current = currentProfileRecords(deps);
    for (const key of PROFILE_KEYS) {
      const value = detected[key];
      const [head, ...dups] = current.get(key) ?? [];
      for (const d of dups) retire(deps, d.id, now);
      if (value === undefined) {
        if (head) {
          retire(deps, head.id, now);
          changes.retired.push(key);
        }
        continue;
      }
      if (head && head.body === value) {
        changes.unchanged.push(key);
        continue;
      }
      createRecord(at, {
        type: 'profile',
        title: PROFILE_TITLES[key],
        body: value,
        scope: 'project',
        confidence: 'explicit',
        source: 'hook_observation',
        supersedes: head?.id ?? null,
      });
      (head ? changes.updated : changes.created).push(key);
    }
  });
  run.immediate();
  return changes;
}

function retire(deps: RecordsDeps, id: string, now: Date): void {
  deps.db
    .prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL')
    .run(now.toISOString(), id);
}
