// npm ships a package's own README and LICENSE; this repository keeps one of each at its root.
// `prepack` of a workspace package runs `node ../../scripts/pack-docs.mjs copy` to put copies
// beside its package.json, `postpack` runs `... clean` to remove them again. Run from the
// package folder (npm runs scripts there). A package's own, different README or LICENSE is
// never overwritten nor removed.
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DOCS = ['README.md', 'LICENSE'];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = resolve(process.cwd());
const mode = process.argv[2];

if (mode !== 'copy' && mode !== 'clean') {
  console.error('usage: node scripts/pack-docs.mjs copy|clean   (from a package folder)');
  process.exit(2);
}
if (pkgDir === repoRoot || !existsSync(join(pkgDir, 'package.json'))) {
  console.error(`pack-docs: ${pkgDir} is not a workspace package folder; nothing done`);
  process.exit(2);
}

/** Whether `file` in the package is a copy of the repository's (same bytes). */
function isCopy(name) {
  const mine = join(pkgDir, name);
  return existsSync(mine) && readFileSync(mine).equals(readFileSync(join(repoRoot, name)));
}

for (const name of DOCS) {
  const mine = join(pkgDir, name);
  if (mode === 'copy') {
    if (existsSync(mine) && !isCopy(name)) continue; // the package's own file
    copyFileSync(join(repoRoot, name), mine);
  } else if (isCopy(name)) {
    rmSync(mine, { force: true });
  }
}
