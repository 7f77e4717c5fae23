import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '../../../../src/core/records/records.js';
import { search } from '../../../../src/core/retrieval/search.js';
import { asksWhen, statesTime } from '../../../../src/core/retrieval/when.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

describe('questions about when, and texts that say when', () => {
  it('asksWhen: when / how long / since when / what date questions, not other uses of the words', () => {
    for (const q of [
      'when did we switch to pnpm?',
      'how long has the cache been on',
      'since when is redis gone',
      'what date was the release',
      'which year did we move to postgres',
      'the migration broke. when did it start?',
      'how many weeks did the rollout take',
      'the cache is flaky, and when was it added?',
    ])
      expect(asksWhen(q), q).toBe(true);
    for (const q of [
      'why did we switch to pnpm',
      'what does the cache hold',
      'retry the webhook whenever it fails',
      'a long build',
      'what happens when the queue is full',
    ])
      expect(asksWhen(q), q).toBe(false);
  });

  it('statesTime: relative expressions, weekdays, months, years, durations; not plain text', () => {
    for (const t of [
      'i went to a support group yesterday',
      'we moved the queue last week',
      'shipped two days ago',
      'on friday the deploy failed',
      'since march the build is green',
      'released on june 3rd',
      'the 2023 rewrite',
      'i have had them for 3 years now',
      'in may we paused the rollout',
      'i saw it the other day',
    ])
      expect(statesTime(t), t).toBe(true);
    for (const t of [
      'sessions live in redis',
      'the weekday parser is broken',
      'a yearly report',
      'may be slow',
      'we may march on',
      'a day of work',
    ])
      expect(statesTime(t), t).toBe(false);
  });

  it('never throws and answers a boolean for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        expect(typeof asksWhen(s.toLowerCase())).toBe('boolean');
        expect(typeof statesTime(s.toLowerCase())).toBe('boolean');
      }),
      { seed: 1907, numRuns: 300 },
    );
  });
});

describe('the rank lifts records that say when, for questions that ask when', () => {
  let dir: ReturnType<typeof tempDir>;
  let s: ReturnType<typeof testStore>;
  beforeEach(() => {
    dir = tempDir();
    s = testStore(join(dir.path));
    const add = (title: string, body: string) =>
      createRecord(s.deps, { type: 'discovery', title, body, source: 'cli', confidence: 'explicit' });
    // the same words, one of them with a time: without the boost the plain one ranks first
    add('Queue migration to SQS', 'The queue migration to SQS is done.');
    add('Queue moved', 'The queue migration to SQS was done last week.');
    for (let i = 0; i < 20; i++) add(`Filler ${i}`, `Unrelated note ${i} about widgets.`);
  });
  afterEach(() => {
    s.db.close();
    dir.cleanup();
  });

  const top = (query: string) =>
    search(s.db, { projectId: s.deps.projectId, query, now: s.clock() }).hits[0]?.record.title;

  it('a when question gets the record that states a time first; the same words without "when" do not', () => {
    expect(top('queue migration to SQS')).toBe('Queue migration to SQS');
    expect(top('when did the queue migration to SQS happen?')).toBe('Queue moved');
  });
});
