import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeBodyLine,
  normalBody,
  renderTeamFile,
  TEAM_TYPES,
  type TeamBlock,
  unescapeBodyLine,
} from '../../../../src/core/team/team-file.js';
import { parseTeamFile } from '../../../../src/core/team/team-parse.js';

const lineArb = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc
    .tuple(
      fc.constantFrom('', '\\', '\\\\'),
      fc.constantFrom('# ', '## ', '### ', '<!-- agentctx:', '=======', '>>>>>>> x'),
    )
    .map(([a, b]) => `${a}${b}rest`),
);

const blockArb: fc.Arbitrary<TeamBlock> = fc.record({
  key: fc.stringMatching(/^[0-9A-Z]{26}$/),
  type: fc.constantFrom(...TEAM_TYPES),
  title: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,:'()-]{0,60}$/),
  body: fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((ls) => `body ${ls.join('\n')}`),
  valid_from: fc
    .integer({ min: Date.parse('2020-01-01'), max: Date.parse('2030-01-01') })
    .map((t) => new Date(t).toISOString()),
  confidence: fc.constantFrom('explicit' as const, 'inferred' as const, 'reinforced' as const),
  pinned: fc.boolean(),
});

describe('team file format', () => {
  it('escaping body lines is a bijection', () => {
    fc.assert(
      fc.property(lineArb, (l) => {
        expect(unescapeBodyLine(escapeBodyLine(l))).toBe(l);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('parse(render(blocks)) gives the blocks back, in file order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(blockArb, { selector: (b) => b.key, maxLength: 8 }), (blocks) => {
        const text = renderTeamFile(blocks);
        const parsed = parseTeamFile(text);
        expect(parsed.errors).toEqual([]);
        const want = blocks
          .map((b) => ({ ...b, title: b.title.replace(/\s+/g, ' ').trim(), body: normalBody(b.body) }))
          .filter((b) => b.title && b.body);
        expect(
          parsed.blocks.map(({ line: _l, keyed: _k, ...b }) => b).sort((a, b) => (a.key < b.key ? -1 : 1)),
        ).toEqual(want.sort((a, b) => (a.key < b.key ? -1 : 1)));
        // each block is found at the line of its marker
        const lines = text.split('\n');
        for (const b of parsed.blocks) expect(lines[b.line - 1]).toContain(`agentctx:id=${b.key}`);
        expect(renderTeamFile(parsed.blocks)).toBe(text);
      }),
      { seed: 8, numRuns: 200 },
    );
  });

  it('reads what a union merge leaves: a marker right after a body, a section heading twice, CRLF', () => {
    const text = [
      '# Team context',
      '',
      '## Decisions',
      '',
      '<!-- agentctx:id=01A type=decision valid_from=2026-01-01T00:00:00.000Z confidence=explicit -->',
      '### One',
      '',
      'Body one.',
      '<!-- agentctx:id=01B type=decision valid_from=2026-01-02T00:00:00.000Z confidence=explicit pinned -->',
      '### Two',
      '',
      'Body two.',
      '## Decisions',
      '',
      '<!-- agentctx:id=01C valid_from=2026-01-03T00:00:00.000Z -->',
      '### Three',
      '',
      'Body three.',
    ].join('\r\n');
    const parsed = parseTeamFile(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.blocks.map((b) => [b.key, b.title, b.body, b.type, b.pinned, b.line])).toEqual([
      ['01A', 'One', 'Body one.', 'decision', false, 5],
      ['01B', 'Two', 'Body two.', 'decision', true, 9],
      ['01C', 'Three', 'Body three.', 'decision', false, 15],
    ]);
  });

  it('names the line of every block it cannot read, and reads the rest', () => {
    const text = [
      '## Conventions',
      '<!-- agentctx:id=01A type=convention valid_from=2026-01-01T00:00:00.000Z -->', // 2
      '### Good',
      'Fine.',
      '<!-- agentctx:id=01B type=convention valid_from=not-a-date -->', // 5
      '### Bad date',
      'x',
      '<!-- agentctx:type=convention -->', // 8
      '### No id',
      'y',
      '<!-- agentctx:id=01D type=convention', // 11
      '### Unclosed',
      'z',
      '<!-- agentctx:id=01E type=convention -->', // 14
      '### No body',
      '',
      '## Something else', // 17
      '### Outside any section', // 18
      'w',
    ].join('\n');
    const parsed = parseTeamFile(text);
    expect(parsed.blocks.map((b) => b.title)).toEqual(['Good']);
    expect(parsed.errors.map((e) => e.line)).toEqual([5, 8, 11, 14, 18]);
    expect(parsed.errors.map((e) => e.key)).toEqual(['01B', undefined, '01D', '01E', undefined]);
  });
});
