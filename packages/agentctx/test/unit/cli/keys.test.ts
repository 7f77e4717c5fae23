import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitKeys } from '../../../src/cli/keys.js';

describe('splitting a terminal chunk into keys', () => {
  it('loses nothing and keeps each escape sequence as one key', () => {
    const key = fc.oneof(
      fc.constantFrom('c', 'n', 'q', 'M', '\u00e9', '\u{1F600}', '\r', '\u0003'),
      fc.constantFrom('\u001b[A', '\u001b[B', '\u001bOP', '\u001b[3~', '\u001b[1;5C'),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 12 }), (keys) => {
        expect(splitKeys(keys.join(''))).toEqual(keys);
      }),
      { seed: 31, numRuns: 300 },
    );
  });

  it('a lone or cut escape is still one key', () => {
    expect(splitKeys('\u001b')).toEqual(['\u001b']);
    expect(splitKeys('\u001b[')).toEqual(['\u001b[']);
    expect(splitKeys('c\u001b')).toEqual(['c', '\u001b']);
  });
});
