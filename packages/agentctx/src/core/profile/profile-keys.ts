/**
 * The keys of the project profile (CONTRACTS.md §types `profile`), the record title each is stored
 * under, and how list values are written. Shared by detection, refresh and `ctx_project`.
 */

export const PROFILE_KEYS = [
  'name',
  'stack',
  'package_manager',
  'build',
  'test',
  'lint',
  'entry_points',
  'workspaces',
] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export type DetectedProfile = Partial<Record<ProfileKey, string>>;

/** The record title of each key; titles are how stored profile records are found again. */
export const PROFILE_TITLES: Record<ProfileKey, string> = {
  name: 'profile: name',
  stack: 'profile: stack',
  package_manager: 'profile: package manager',
  build: 'profile: build command',
  test: 'profile: test command',
  lint: 'profile: lint command',
  entry_points: 'profile: entry points',
  workspaces: 'profile: workspaces',
};

export function profileKeyOfTitle(title: string): ProfileKey | undefined {
  return PROFILE_KEYS.find((k) => PROFILE_TITLES[k] === title);
}

/** Lists are stored as one line, comma-separated. */
export const LIST_SEPARATOR = ', ';
