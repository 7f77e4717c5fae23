import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseCtor } from '../../src/database/connection.js';
import { Db, type DbOptions } from '../../src/database/sqlite.js';

/**
 * SQLite connections without FTS5, for the tests of CONTRACTS.md §rung-4. Node's SQLite has
 * FTS5 compiled in, so a small extension (no-fts5/no-fts5.c) removes the fts5 and fts5vocab
 * modules from the connection that loads it: the connection then fails every use of FTS5
 * exactly as a SQLite built without it does. The extension is compiled once per source (a C
 * compiler is part of this project's machines: Node's native-addon toolchain) against the
 * system's sqlite3ext.h (Debian's libsqlite3-dev; SQLITE3_INCLUDE= names another folder): the
 * extension API only grows, so older headers serve a newer SQLite.
 *
 * In-process: `withoutFts5()` is a connection class whose connections load it. Child processes:
 * `noFts5Env(env)` preloads no-fts5/preload.cjs, which makes every node:sqlite connection of the
 * process load it.
 */

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'no-fts5');
const SOURCE = join(HERE, 'no-fts5.c');
const PRELOAD = join(HERE, 'preload.cjs');
const ENTRY = 'sqlite3_nofts5_init';

function sqliteHeaders(): string {
  const dirs = [process.env.SQLITE3_INCLUDE, '/usr/include', '/usr/local/include', '/opt/homebrew/include'];
  for (const dir of dirs) if (dir && existsSync(join(dir, 'sqlite3ext.h'))) return dir;
  throw new Error(
    "no sqlite3ext.h for the no-FTS5 test extension: install SQLite's headers (apt install libsqlite3-dev) or set SQLITE3_INCLUDE",
  );
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

/** A connection class whose every connection has no FTS5. */
export function withoutFts5(): DatabaseCtor {
  const ext = noFts5Extension();
  class WithoutFts5 extends Db {
    constructor(path: string, opts?: DbOptions) {
      super(path, opts);
      this.loadExtension(ext, ENTRY);
    }
  }
  return WithoutFts5;
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
