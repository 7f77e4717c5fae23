import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/**
 * A small script that imports agentctx's own sources, bundled for a child process (`node
 * <path>`), so a test can run real code in a process it can kill, starve or race. `source` is
 * TypeScript; written to `<dir>/<name>.ts`, bundled to `<dir>/<name>.cjs`.
 */
export function bundleChildScript(
  dir: string,
  name: string,
  source: string,
  external: string[] = [],
): string {
  const entry = join(dir, `${name}.ts`);
  const out = join(dir, `${name}.cjs`);
  writeFileSync(entry, source);
  buildSync({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external,
    logLevel: 'error',
  });
  return out;
}
