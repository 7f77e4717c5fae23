import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { Db as Database } from '../../src/database/sqlite.js';
import { PACKAGE_ROOT } from './cli.js';

/**
 * Hold a write transaction (BEGIN IMMEDIATE) on the store at `dbPath` from another process for
 * `ms`, then roll it back. Resolves once the lock is held; `done` resolves when it is released.
 */
export async function holdWriteLock(dbPath: string, ms: number): Promise<{ done: Promise<void> }> {
  const driver = join(PACKAGE_ROOT, 'dist', 'sqlite.cjs');
  const code = `
    const { Db } = require(${JSON.stringify(driver)});
    const db = new Db(process.argv[1]);
    db.pragma('busy_timeout = 20000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE records SET access_count = access_count + 1").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', code, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) =>
      l === 'locked' ? resolve() : reject(new Error(l)),
    );
    child.once('exit', (c) => reject(new Error(`the lock holder exited ${c}`)));
  });
  return { done };
}

/**
 * Another process's connection to the store at `path` that never waits: `takes()` is whether
 * it got the write lock (BEGIN IMMEDIATE) right now, and gives it back at once. Tests of code
 * that lets the lock go between transactions call it where the lock must be free, or held.
 */
export function lockProbe(path: string): { takes: () => boolean; close: () => void } {
  const other = new Database(path, { timeout: 0 });
  return {
    takes: () => {
      try {
        other.prepare('BEGIN IMMEDIATE').run();
        other.prepare('ROLLBACK').run();
        return true;
      } catch (err) {
        expect((err as { code?: string }).code).toBe('SQLITE_BUSY');
        return false;
      }
    },
    close: () => other.close(),
  };
}
