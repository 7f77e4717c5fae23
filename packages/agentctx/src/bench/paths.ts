// Where the benchmarks find the package they measure, and the throwaway homes they run it in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/agentctx: two folders up from src/bench/x.ts and from its bundle dist/bench/x.js alike. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built CLI the benchmarks time (`npm run build` first). */
export const BIN = join(PACKAGE_ROOT, 'bin', 'agentctx.cjs');

/**
 * The environment of a child under `home`: its own HOME, agentctx home, temp folder and Claude
 * config. NODE_EXTRA_CA_CERTS and NODE_OPTIONS are dropped: a user's hook environment has neither,
 * and the first adds tens of milliseconds to every start.
 */
export function benchEnv(home: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    AGENTCTX_TMPDIR: join(home, 'tmp'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return env;
}

/** The same, from PATH alone (nothing else of this shell's environment leaks into the child). */
export const bareEnv = (home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...benchEnv(home, { PATH: process.env.PATH }),
  ...extra,
});

/** A repository folder whose origin is `remote` (the project id agentctx derives from it). */
export function fakeRepo(dir: string, remote: string | null): string {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(
    join(dir, '.git', 'config'),
    remote ? `[remote "origin"]\n\turl = ${remote}\n` : '[core]\n\trepositoryformatversion = 0\n',
  );
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return dir;
}

/** The store file under a bench home. */
export const storePath = (home: string): string => join(home, '.agentctx', 'agentctx.db');
