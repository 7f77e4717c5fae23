import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSha, renderTeamFile, type TeamBlock } from '../../../../src/core/team/team-file.js';
import { mergeTeamFiles } from '../../../../src/core/team/team-merge.js';
import { parseTeamFile } from '../../../../src/core/team/team-parse.js';

/**
 * Issue 31 #3: git's union merge interleaved two edits of one block line by line, and the
 * import took the mixture for an edit. The merge driver merges by block: per key, a side that
 * left it alone takes the other's; both changed → both whole versions, never a mixture.
 */

type Change = 'same' | 'edit' | 'remove';

const block = (key: string, body: string, at = '2026-01-01T00:00:00.000Z'): TeamBlock => ({
  key,
  type: 'decision',
  title: `Decision ${key}`,
  body,
  valid_from: at,
  confidence: 'explicit',
  pinned: false,
});

function side(base: TeamBlock[], changes: Change[], who: string, added: boolean): TeamBlock[] {
  const out: TeamBlock[] = [];
  base.forEach((b, i) => {
    const c = changes[i]!;
    if (c === 'same') out.push(b);
    if (c === 'edit')
      out.push({
        ...b,
        body: `${b.body}\nChanged by ${who}.`,
        valid_from: `2026-02-0${who === 'ours' ? 1 : 2}T00:00:00.000Z`,
      });
  });
  if (added) out.push(block(`NEW${who.toUpperCase()}`, `Added by ${who}.`));
  return out;
}

const texts = (t: string) => new Set(parseTeamFile(t).blocks.map((b) => `${b.key}|${blockSha(b)}`));
const ids = (bs: TeamBlock[]) => bs.map((b) => `${b.key}|${blockSha(b)}`);

describe('mergeTeamFiles', () => {
  it('keeps, per key, the side that changed it, both when both did, and every addition', () => {
    const change = fc.constantFrom<Change>('same', 'edit', 'remove');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(change, change), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (pairs, addOurs, addTheirs) => {
          const base = pairs.map((_, i) => block(`K${i}`, `Body ${i}.`));
          const ours = side(
            base,
            pairs.map((p) => p[0]),
            'ours',
            addOurs,
          );
          const theirs = side(
            base,
            pairs.map((p) => p[1]),
            'theirs',
            addTheirs,
          );
          const merged = mergeTeamFiles(renderTeamFile(base), renderTeamFile(ours), renderTeamFile(theirs));
          expect(merged).not.toBeNull();
          const got = texts(merged!);
          const expected = new Set<string>();
          pairs.forEach(([o, t], i) => {
            const key = `K${i}`;
            const mine = ours.filter((b) => b.key === key);
            const other = theirs.filter((b) => b.key === key);
            if (o === 'same') for (const x of ids(other)) expected.add(x);
            else if (t === 'same') for (const x of ids(mine)) expected.add(x);
            else for (const x of [...ids(mine), ...ids(other)]) expected.add(x);
          });
          for (const b of [...ours, ...theirs]) if (b.key.startsWith('NEW')) expected.add(ids([b])[0]!);
          expect(got).toEqual(expected);
          // nothing is ever a mixture: every block merged is one a side wrote
          for (const x of got) expect([...ids(ours), ...ids(theirs), ...ids(base)]).toContain(x);
        },
      ),
    );
  });

  it('the reported case: a supersede and a hand edit of one block give two whole blocks', () => {
    const base = [block('K', 'Jobs use BullMQ on Redis 7.')];
    const ours = [
      block('K', 'Jobs move to pg-boss.\n\nWhy it changed: one less server', '2026-02-01T00:00:00.000Z'),
    ];
    const theirs = [block('K', 'Jobs use BullMQ on Redis 7.2, with a sentinel.')];
    const merged = mergeTeamFiles(renderTeamFile(base), renderTeamFile(ours), renderTeamFile(theirs))!;
    const blocks = parseTeamFile(merged).blocks;
    expect(blocks.map((b) => b.body).sort()).toEqual([ours[0]!.body, theirs[0]!.body].sort());
  });

  it('a side with a block that cannot be read is left to git (a visible conflict)', () => {
    const base = renderTeamFile([block('K', 'A.')]);
    const broken = base.replace(/valid_from=\S+/, 'valid_from=someday');
    expect(mergeTeamFiles(base, broken, base)).toBeNull();
  });
});
