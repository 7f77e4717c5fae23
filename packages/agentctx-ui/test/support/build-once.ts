import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The browser and CLI tests serve the built page; build it when the dist is missing. */
export default function setup(): void {
  if (existsSync(join(ROOT, 'dist', 'web', 'index.html')) && existsSync(join(ROOT, 'dist', 'server.js')))
    return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
