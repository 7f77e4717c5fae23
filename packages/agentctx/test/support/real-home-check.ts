import { afterAll, expect, inject } from 'vitest';
import { changes, complaint, realHome, snapshot } from './real-home-guard.js';

/**
 * Setup file of every test file: after the file's tests, the real home's ~/.agentctx and
 * ~/.claude must be as they were before the run (real-home-guard.ts took the snapshot).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    realHomeSnapshot: [string, string][];
  }
}

afterAll(() => {
  const before = new Map(inject('realHomeSnapshot'));
  const home = realHome();
  const diff = changes(before, snapshot(home));
  expect(diff, complaint(home, diff)).toEqual([]);
});
