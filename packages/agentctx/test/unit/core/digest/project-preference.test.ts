import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeDigest } from '../../../../src/core/digest/digest.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Issue 31 #14: an explicit preference scoped to the project ("Run npm test before every
 * commit") never reached the digest: the decisions section read decisions and conventions, the
 * preferences section only the global ones.
 */

let t: ReturnType<typeof tempDir>;
const now = new Date('2026-11-30T12:00:00Z');
const project = { id: 'proj-pref', name: 'shop' };

beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

describe('a project preference in the digest', () => {
  it('the reported one', () => {
    const s = testStore(join(t.path, 'home'), project.id);
    try {
      createRecord(s.deps, {
        type: 'preference',
        title: 'Run npm test before every commit',
        body: 'The developer asked for it in this project.',
        source: 'cli',
        confidence: 'explicit',
      });
      const d = composeDigest(s.db, project, { now });
      expect(d.text).toContain('Run npm test before every commit');
    } finally {
      s.db.close();
    }
  });

  it('any stated or reinforced one is shown; an inferred one is not', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.constantFrom('explicit', 'reinforced', 'inferred'),
        fc.constantFrom('Use pnpm, never npm', 'Commit messages in English', 'Run the linter before pushing'),
        (confidence, title) => {
          const s = testStore(join(t.path, `home-${n++}`), project.id);
          try {
            createRecord(s.deps, {
              type: 'preference',
              title,
              body: 'Stated in a session.',
              source: 'cli',
              confidence: confidence as 'explicit',
            });
            expect(composeDigest(s.db, project, { now }).text.includes(title)).toBe(
              confidence !== 'inferred',
            );
          } finally {
            s.db.close();
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
