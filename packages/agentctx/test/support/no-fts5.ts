import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { DatabaseCtor } from '../../src/storage/connection.js';

/**
 * SQLite connections without FTS5, for the tests of CONTRACTS.md §rung-4. better-sqlite3's SQLite
 * always has FTS5 compiled in, so a small extension (no-fts5/no-fts5.c) removes the fts5 and
 * fts5vocab modules from the connection that loads it: the connection then fails every use of
 * FTS5 exactly as a SQLite built without it does. The extension is compiled once per source
 * (a C compiler is part of this project's machines: Node's native-addon toolchain) against
 * the sqlite3ext.h that better-sqlite3 ships with the SQLite it bundles.
 *
 * In-process: `withoutFts5(Database)` is a driver whose connections load it. Child processes:
 * `noFts5Env(env)` preloads no-fts5/preload.cjs, which makes every better-sqlite3 connection of
 * the process load it, whichever way the process finds the native addon.
 */

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'no-fts5');
const SOURCE = join(HERE, 'no-fts5.c');
const PRELOAD = join(HERE, 'preload.cjs');
const ENTRY = 'sqlite3_nofts5_init';

function sqliteHeaders(): string {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const dir = join(dirname(pkg), 'deps', 'sqlite3');
  if (!existsSync(join(dir, 'sqlite3ext.h'))) throw new Error(`no sqlite3ext.h in ${dir}`);
  return dir;
}

let built: string | undefined;

/** Path of the compiled extension (built on first use, cached in the temp folder by content). */
export function noFts5Extension(): string {
  if (built) return built;
  const headers = sqliteHeaders();
  const hash = createHash('sha256')
    .update(readFileSync(SOURCE))
    .update(readFileSync(join(headers, 'sqlite3ext.h')))
    .update(process.platform + process.arch)
    .digest('hex')
    .slice(0, 16);
  const dir = join(tmpdir(), 'agentctx-test-no-fts5');
  const out = join(dir, `no-fts5-${hash}${process.platform === 'darwin' ? '.dylib' : '.so'}`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    const linkFlags =
      process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
    const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
    const failures: string[] = [];
    for (const cc of compilers) {
      const res = spawnSync(cc, [...linkFlags, '-fPIC', '-O1', '-I', headers, '-o', tmp, SOURCE], {
        encoding: 'utf8',
      });
      if (res.status === 0) break;
      failures.push(`${cc}: ${res.error?.message ?? res.stderr}`);
    }
    if (failures.length === compilers.length)
      throw new Error(
        `cannot compile the no-FTS5 test extension (a C compiler is needed for these tests; CC= names one):\n${failures.join('\n')}`,
      );
    renameSync(tmp, out); // atomic: parallel workers never load a half-written file
  }
  built = out;
  return out;
}

/** A better-sqlite3 driver whose every connection has no FTS5. */
export function withoutFts5(Base: typeof Database = Database): DatabaseCtor {
  const ext = noFts5Extension();
  class WithoutFts5 extends Base {
    constructor(path: string, opts?: Database.Options) {
      super(path, opts);
      // better-sqlite3 takes an entry point; its type declarations do not say so
      (this.loadExtension as (file: string, entry: string) => unknown)(ext, ENTRY);
    }
  }
  return WithoutFts5 as unknown as DatabaseCtor;
}

/** `env` for an agentctx child process whose SQLite connections have no FTS5. */
export function noFts5Env(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const require = `--require ${JSON.stringify(PRELOAD)}`;
  return {
    ...env,
    NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${require}` : require,
    AGENTCTX_TEST_NO_FTS5_EXTENSION: noFts5Extension(),
  };
}
