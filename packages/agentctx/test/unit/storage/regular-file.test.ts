import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularTail } from '../../../src/storage/regular-file.js';
import { tempDir } from '../../support/tmp.js';

const tmp = tempDir('agentctx-regular-');
afterAll(() => tmp.cleanup());

describe('reading regular files', () => {
  it('a tail is the whole file when it fits, else its last bytes after the line the cut falls in', () => {
    const path = join(tmp.path, 'lines.jsonl');
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '{', '"', ' '), maxLength: 40 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.integer({ min: 1, max: 600 }), (lines, max) => {
        const text = lines.map((l) => `${l}\n`).join('');
        writeFileSync(path, text);
        const bytes = Buffer.from(text);
        const tail = readRegularTail(path, max);
        if (bytes.length <= max) {
          expect(tail).toBe(text);
          return;
        }
        // what it returns is the end of the file, starting right after a newline
        expect(text.endsWith(tail)).toBe(true);
        const before = text.slice(0, text.length - tail.length);
        expect(before === '' || before.endsWith('\n')).toBe(true);
        // it drops only the line the cut falls in (it cannot tell a cut at a line start)
        expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(max);
        const cut = bytes.length - max;
        expect(Buffer.byteLength(tail)).toBe(bytes.length - bytes.indexOf(0x0a, cut) - 1);
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('refuses what is not a regular file, without blocking on a FIFO', () => {
    const dir = join(tmp.path, 'a-dir');
    mkdirSync(dir, { recursive: true });
    const fifo = join(tmp.path, 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const p of [dir, fifo]) {
      expect(() => readRegularTail(p, 100)).toThrow(/not a regular file/);
      expect(() => readRegularFile(p)).toThrow(/not a regular file/);
    }
    expect(() => readRegularTail(join(tmp.path, 'missing'), 100)).toThrow(/ENOENT/);
  });
});
