import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShard, shardOwns } from '../../support/faults.js';

describe('fault-run shards', () => {
  it('the n shards of a run own every case exactly once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 50_000 }), (n, i) => {
        const owners = Array.from({ length: n }, (_, j) => parseShard(`${j + 1}/${n}`)).filter((s) =>
          shardOwns(i, s),
        );
        expect(owners).toHaveLength(1);
        expect(shardOwns(i, null)).toBe(true);
      }),
    );
  });

  it('reads k/n and nothing else', () => {
    expect(parseShard('2/4')).toEqual({ k: 2, n: 4 });
    for (const bad of [undefined, '', '0/4', '5/4', '2/0', '2', 'a/b', '1/2/3', ' 1/2'])
      expect(parseShard(bad), String(bad)).toBeNull();
  });
});
