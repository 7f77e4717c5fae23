import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';

/** Entry files found by their usual name, whatever the ecosystem; listed after declared ones. */
const CONVENTIONAL_ENTRIES = [
  'src/index.ts',
  'src/main.ts',
  'src/cli.ts',
  'src/index.js',
  'src/main.js',
  'index.ts',
  'index.js',
  'main.py',
  'app.py',
  'manage.py',
  '__main__.py',
  'src/main.rs',
  'src/lib.rs',
  'main.go',
  'cmd/main.go',
];

export function detectConventionalEntries(fs: ProfileFs, f: Findings): void {
  for (const file of CONVENTIONAL_ENTRIES) if (fs.exists(file)) f.entries.push(file);
}
