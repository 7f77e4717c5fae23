import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeDigest } from '../../../../src/core/digest/digest.js';
import { firstSentence } from '../../../../src/core/digest/digest-lines.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

describe('firstSentence', () => {
  it('does not end a sentence at an abbreviation or a version number', () => {
    expect(firstSentence('Name files by date, e.g. 2026_add.sql. Then run them.')).toBe(
      'Name files by date, e.g. 2026_add.sql.',
    );
    expect(firstSentence('Pin node 20.19 i.e. the LTS. Not 22.')).toBe('Pin node 20.19 i.e. the LTS.');
    expect(firstSentence('No full stop here')).toBe('No full stop here');
    expect(firstSentence('Why? Because WAL allows readers.')).toBe('Why?');
  });
});

describe('digest wording', () => {
  let t: ReturnType<typeof tempDir>;
  let s: ReturnType<typeof testStore>;
  beforeEach(() => {
    t = tempDir();
    s = testStore(t.path, 'p-digest');
  });
  afterEach(() => {
    s.db.close();
    t.cleanup();
  });

  it('marks an inferred handover unconfirmed, and the header says some lines are', () => {
    createRecord(s.deps, {
      type: 'decision',
      title: 'Use WAL',
      body: 'One SQLite file in WAL mode.',
      confidence: 'explicit',
      source: 'cli',
    });
    createRecord(s.deps, {
      type: 'handover',
      title: 'Handover: migrations',
      body: 'Current task: write the refunds migration.',
      confidence: 'inferred',
      source: 'hook_observation',
    });
    const d = composeDigest(s.db, { id: 'p-digest', name: 'shop' }, { now: s.clock() });
    expect(d.text).toMatch(/Task \([^)]*summarised automatically\): \(unconfirmed\) Handover: migrations/);
    expect(d.text).toContain('Lines marked "(unconfirmed)" were inferred');
    expect(d.text).not.toContain('the developer stated or confirmed each line');
  });
});
