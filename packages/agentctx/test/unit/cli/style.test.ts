import { describe, expect, it } from 'vitest';
import { colourWanted, makeStyle, stripStyle, table, visibleWidth } from '../../../src/cli/style.js';

describe('colourWanted', () => {
  it('colours a terminal only, NO_COLOR wins, FORCE_COLOR forces', () => {
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '' })).toBe(true); // an empty NO_COLOR is unset
    expect(colourWanted(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourWanted(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourWanted(false, { FORCE_COLOR: '1', NO_COLOR: 'yes' })).toBe(false);
    expect(colourWanted(true, { TERM: 'dumb' })).toBe(false);
  });
});

describe('table', () => {
  it('aligns columns by visible width, colour codes included', () => {
    const s = makeStyle(true);
    const out = table([
      [s.bold('a'), 'x'],
      ['longer', s.red('y')],
    ]);
    const lines = stripStyle(out).split('\n');
    expect(lines).toEqual(['a       x', 'longer  y']);
    expect(visibleWidth(s.green('abc'))).toBe(3);
    expect(makeStyle(false).bold('plain')).toBe('plain');
  });
});
