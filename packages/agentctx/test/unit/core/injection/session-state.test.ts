import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  readSessionState,
  type SessionState,
  updateSessionState,
} from '../../../../src/core/injection/session-state.js';
import { tempDir } from '../../../support/tmp.js';

const now = new Date('2026-03-01T10:00:00Z');
const id = (n: number) => `01J${String(n).padStart(23, '0')}`;

/** What the set must be: ids in first-injection order, duplicates dropped, a reset forgets. */
function model(steps: { reset: boolean; ids: number[] }[]): string[] {
  let out: string[] = [];
  for (const s of steps) {
    if (s.reset) out = [];
    for (const n of s.ids) if (!out.includes(id(n))) out.push(id(n));
  }
  return out;
}

describe('session dedup file', () => {
  it('reads back what any sequence of prompts and resets added, passed state or re-read', () => {
    const steps = fc.array(
      fc.record({
        reset: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
        ids: fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }),
        reread: fc.boolean(),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(steps, (seq) => {
        const t = tempDir();
        try {
          const p = join(t.path, 'agentctx-s.json');
          let state: SessionState = readSessionState(p);
          for (const s of seq) {
            const change = { resetIds: s.reset, addIds: s.ids.map(id) };
            state = s.reread ? updateSessionState(p, change, now) : updateSessionState(p, change, now, state);
          }
          const want = model(seq);
          expect(state.injected).toEqual(want);
          expect(readSessionState(p).injected).toEqual(want);
        } finally {
          t.cleanup();
        }
      }),
      { seed: 2020, numRuns: 150 },
    );
  });

  it('appends a prompt’s ids instead of rewriting the file', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      let state = updateSessionState(p, { addIds: Array.from({ length: 300 }, (_, i) => id(i)) }, now);
      const before = readFileSync(p, 'utf8');
      state = updateSessionState(p, { addIds: [id(1), id(900)] }, now, state);
      const after = readFileSync(p, 'utf8');
      // the bytes written before stay as they were; only the new id was added
      expect(after.startsWith(before)).toBe(true);
      expect(after.slice(before.length)).toBe(
        `\n${JSON.stringify({ add: [id(900)], updatedAt: now.toISOString() })}`,
      );
      // nothing new: nothing written
      updateSessionState(p, { addIds: [id(900)] }, now, state);
      expect(readFileSync(p, 'utf8')).toBe(after);
    } finally {
      t.cleanup();
    }
  });

  it('keeps both hooks’ ids when two of one session write from the same read', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      updateSessionState(p, { addIds: [id(1)] }, now);
      const a = readSessionState(p);
      const b = readSessionState(p);
      updateSessionState(p, { addIds: [id(2)] }, now, a);
      updateSessionState(p, { addIds: [id(3)] }, now, b);
      expect(readSessionState(p).injected).toEqual([id(1), id(2), id(3)]);
    } finally {
      t.cleanup();
    }
  });

  it('loses only a torn line: the ones before and the next append survive', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      let s = updateSessionState(p, { addIds: [id(1)] }, now);
      s = updateSessionState(p, { addIds: [id(2)] }, now, s);
      const whole = readFileSync(p, 'utf8').length;
      s = updateSessionState(p, { addIds: [id(3)] }, now, s);
      truncateSync(p, whole + 12); // a crash in the middle of the third write
      expect(readSessionState(p).injected).toEqual([id(1), id(2)]);
      updateSessionState(p, { addIds: [id(4)] }, now, readSessionState(p));
      expect(readSessionState(p).injected).toEqual([id(1), id(2), id(4)]);
      // foreign or garbled lines are skipped, not fatal
      appendFileSync(p, '\n[1,2]\nnot json\n{"add":"x"}\n{"add":[7,"",null]}');
      expect(readSessionState(p).injected).toEqual([id(1), id(2), id(4)]);
    } finally {
      t.cleanup();
    }
  });

  it('reads a file written in the one-object form and appends to it', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      writeFileSync(p, JSON.stringify({ injected: [id(1), id(2)], updatedAt: '2026-01-01T00:00:00.000Z' }));
      const s = readSessionState(p);
      expect(s).toEqual({ injected: [id(1), id(2)], updatedAt: '2026-01-01T00:00:00.000Z' });
      updateSessionState(p, { addIds: [id(3)] }, now, s);
      expect(readSessionState(p)).toEqual({ injected: [id(1), id(2), id(3)], updatedAt: now.toISOString() });
    } finally {
      t.cleanup();
    }
  });

  it('compacts to the newest 5,000 ids with one atomic rewrite', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      let s = updateSessionState(p, { addIds: Array.from({ length: 4999 }, (_, i) => id(i)) }, now);
      s = updateSessionState(p, { addIds: [id(5000)] }, now, s);
      expect(readFileSync(p, 'utf8').split('\n')).toHaveLength(2);
      s = updateSessionState(p, { addIds: [id(5001), id(5002)] }, now, s);
      const lines = readFileSync(p, 'utf8').split('\n');
      expect(lines).toHaveLength(1);
      expect(s.injected).toHaveLength(5000);
      expect(readSessionState(p).injected).toEqual(s.injected);
      expect(s.injected[0]).toBe(id(2));
      expect(s.injected.at(-1)).toBe(id(5002));
    } finally {
      t.cleanup();
    }
  });
});
