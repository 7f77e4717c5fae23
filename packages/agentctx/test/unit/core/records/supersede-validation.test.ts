import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { validateRecordFields } from '../../../../src/core/records/validation.js';
import { AgentctxError } from '../../../../src/shared/errors.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeAll(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'project-a');
});
afterAll(() => {
  s.db.close();
  t.cleanup();
});

const base = { source: 'cli' as const, confidence: 'explicit' as const };

/** Characters String.prototype.trim removes: ASCII and Unicode white space, line breaks, BOM. */
const SPACE = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2003',
  '\u2028',
  '\u3000',
  '\ufeff',
);
const blank = fc.array(SPACE, { maxLength: 12 }).map((a) => a.join(''));
const body = fc.oneof(
  blank,
  fc.string({ maxLength: 300 }),
  fc.tuple(blank, fc.string({ maxLength: 40 }), blank).map((p) => p.join('')),
);

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    if (err instanceof AgentctxError) return `${err.code}:${String(err.details.field)}`;
    throw err;
  }
}

function count(): number {
  return (s.db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
}

describe('supersede validates the new body the way record does', () => {
  it('refuses a blank body with a rationale, and changes nothing', () => {
    const old = createRecord(s.deps, { ...base, type: 'decision', title: 'Queue', body: 'Use SQS.' });
    const before = count();
    let err: unknown;
    try {
      supersedeRecord(s.deps, old.id, { body: '   ', rationale: 'moved to Kafka', source: 'cli' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AgentctxError);
    expect((err as AgentctxError).code).toBe('invalid_input');
    expect((err as AgentctxError).details.field).toBe('body');
    expect(count()).toBe(before);
    expect(
      (s.db.prepare('SELECT superseded_at FROM records WHERE id = ?').get(old.id) as { superseded_at: null })
        .superseded_at,
    ).toBeNull();
  });

  it('accepts exactly the bodies record accepts (generated bodies and rationales)', () => {
    fc.assert(
      fc.property(body, fc.oneof(blank, fc.string({ minLength: 1, maxLength: 60 })), (text, rationale) => {
        const old = createRecord(s.deps, { ...base, type: 'convention', title: 'Style', body: 'Tabs.' });
        const before = count();
        const asRecord = outcome(() =>
          validateRecordFields({ type: 'convention', title: 'Style', body: text }),
        );
        const asSupersede = outcome(() =>
          supersedeRecord(s.deps, old.id, { body: text, rationale, source: 'mcp_tool' }),
        );
        expect(asSupersede).toBe(asRecord);
        expect(count()).toBe(asSupersede === 'ok' ? before + 1 : before);
      }),
      { seed: 1717, numRuns: 150 },
    );
  });
});
