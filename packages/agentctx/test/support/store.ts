import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import type { RecordsDeps } from '../../src/core/records/records.js';
import { type Db, openDb } from '../../src/database/open.js';
import type { Clock } from '../../src/shared/clock.js';

/** A fresh store in `dir` and records deps bound to `projectId`, with a settable clock. */
export function testStore(
  dir: string,
  projectId = 'p-test',
): {
  db: Db;
  deps: RecordsDeps;
  setNow: (iso: string) => void;
  clock: Clock;
} {
  const db = openDb(join(dir, 'agentctx.db'));
  let now = new Date('2026-11-30T12:00:00Z');
  const clock: Clock = () => now;
  const deps: RecordsDeps = { db, clock, newId: monotonicFactory(), projectId, reinforceThreshold: 3 };
  return {
    db,
    deps,
    clock,
    setNow: (iso) => {
      now = new Date(iso);
    },
  };
}
