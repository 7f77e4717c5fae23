import { basename } from 'node:path';
import { detectConventionalEntries } from './detect/conventional-entries.js';
import { emptyFindings, uniq } from './detect/findings.js';
import { detectGo } from './detect/go.js';
import { detectMake } from './detect/make.js';
import { detectNode } from './detect/node.js';
import { detectOtherManifests } from './detect/other-manifests.js';
import { diskFs, type ProfileFs } from './detect/profile-fs.js';
import { detectPython } from './detect/python.js';
import { detectRust } from './detect/rust.js';
import { type DetectedProfile, LIST_SEPARATOR, type ProfileKey } from './profile-keys.js';

/**
 * Rule-based project profile (CONTRACTS.md §types `profile`): what a newcomer needs first — the
 * name, the stack, the package manager, how to build/test/lint, where the code starts. Read from the
 * files at the repository root only: no process is spawned, nothing is executed.
 *
 * The detectors run in a fixed order and append to shared lists; the order decides which name
 * wins (the first found) and which commands survive the caps below. The Makefile runs after the
 * ecosystems because it puts its targets ahead of theirs.
 */
export function detectProfile(root: string, fs: ProfileFs = diskFs(root)): DetectedProfile {
  const f = emptyFindings();
  detectNode(fs, f);
  detectPython(fs, f);
  detectRust(fs, f);
  detectGo(fs, f);
  detectOtherManifests(fs, f);
  detectMake(fs, f);
  detectConventionalEntries(fs, f);

  const out: DetectedProfile = {};
  out.name = f.name ?? basename(root);
  const set = (key: ProfileKey, values: string[], max = 8) => {
    const v = uniq(values).slice(0, max);
    if (v.length > 0) out[key] = v.join(LIST_SEPARATOR).slice(0, 1000);
  };
  set('stack', f.stack, 12);
  set('package_manager', f.managers, 4);
  set('build', f.build, 1);
  set('test', f.test, 1);
  set('lint', f.lint, 2);
  set('entry_points', f.entries, 8);
  set('workspaces', f.workspaces, 20);
  return out;
}
