import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planStaleness } from '../../../../src/core/consolidation/staleness.js';
import type { AnchorRow } from '../../../../src/database/file-anchors.js';
import { parseGitLog } from '../../../../src/git/git-history.js';
import { fingerprint } from '../../../../src/shared/fingerprint.js';

// `git log -z --format=%x01%H --name-status` as git prints it: NUL-separated fields
const LOG = [
  '\x01c4',
  '\nD',
  'src/gone.ts',
  '\x01c3',
  '\nR090',
  'src/old.ts',
  'src/new.ts',
  'M',
  'src/a.ts',
  '\x01c2',
  '\nM',
  'src/a.ts',
  '\x01c1',
  '\nA',
  'src/a.ts',
  'A',
  'src/old.ts',
  'A',
  'src/gone.ts',
  '',
].join('\0');

function anchor(path: string, text: string, commit: string | null): AnchorRow {
  const f = fingerprint(text);
  return {
    record_id: `r-${path}`,
    path,
    content_hash: f.hash,
    lines: f.lines,
    sketch: f.sketch,
    commit_sha: commit,
    anchored_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('planStaleness', () => {
  it('counts commits since the anchor, follows renames, flags deletions', () => {
    const h = parseGitLog(LOG);
    const files: Record<string, string> = { 'src/a.ts': 'a2\n', 'src/new.ts': 'old changed\n' };
    const rows = planStaleness(
      [
        anchor('src/a.ts', 'a1\n', 'c1'),
        anchor('src/old.ts', 'old\n', 'c1'),
        anchor('src/gone.ts', 'g\n', 'c1'),
      ],
      (p) => (files[p] === undefined ? null : fingerprint(files[p]!)),
      h,
    );
    expect(rows).toEqual([
      {
        record_id: 'r-src/a.ts',
        path: 'src/a.ts',
        state: 'changed',
        new_path: null,
        commits: 2,
        changed_share: 1,
      },
      {
        record_id: 'r-src/old.ts',
        path: 'src/old.ts',
        state: 'renamed',
        new_path: 'src/new.ts',
        commits: 1,
        changed_share: 1,
      },
      {
        record_id: 'r-src/gone.ts',
        path: 'src/gone.ts',
        state: 'deleted',
        new_path: null,
        commits: 1,
        changed_share: null,
      },
    ]);
    // anchored after the change: only later commits count
    expect(planStaleness([anchor('src/a.ts', 'a1\n', 'c2')], () => fingerprint('a2\n'), h)[0]?.commits).toBe(
      1,
    );
    // no git: the content decides, commits unknown
    expect(
      planStaleness([anchor('src/a.ts', 'a1\n', null)], () => fingerprint('a2\n'), null)[0]?.commits,
    ).toBeNull();
  });

  it('a record is stale exactly when a linked file differs from its anchor or is gone', () => {
    const text = fc.constantFrom('x\n', 'y\n', 'z\n');
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ path: fc.constantFrom('a', 'b', 'c', 'd'), before: text, now: fc.option(text) }),
          {
            selector: (f) => f.path,
          },
        ),
        (files) => {
          const rows = planStaleness(
            files.map((f) => anchor(f.path, f.before, null)),
            (p) => {
              const now = files.find((f) => f.path === p)?.now;
              return now ? fingerprint(now) : null;
            },
            null,
          );
          const expected = files.filter((f) => f.now !== f.before).map((f) => f.path);
          expect(rows.map((r) => r.path).sort()).toEqual(expected.sort());
          for (const r of rows) {
            const f = files.find((x) => x.path === r.path)!;
            expect(r.state).toBe(f.now === null ? 'deleted' : 'changed');
          }
        },
      ),
      { seed: 20, numRuns: 200 },
    );
  });
});
