import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readRegularFile,
  readRegularTail,
  scanRegularLines,
  scanRegularLinesBackward,
} from '../../../src/files/regular-file.js';
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

  it('a line scan visits every line in order across 64 KiB chunk cuts, and stops when asked', () => {
    const path = join(tmp.path, 'scan.txt');
    // short lines, and long ones (cheap to generate) that make the 64 KiB cuts fall anywhere
    const long = fc
      .tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 20_000, max: 70_000 }))
      .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
    const line = fc.oneof(fc.string({ maxLength: 20 }), long);
    fc.assert(
      fc.property(
        fc.array(
          line.map((l) => l.replaceAll('\n', '')),
          { maxLength: 8 },
        ),
        fc.nat(10),
        (lines, stopAt) => {
          const text = lines.join('\n');
          writeFileSync(path, text, 'latin1');
          const seen: string[] = [];
          const whole = scanRegularLines(path, (l) => seen.push(l) > stopAt, 1 << 30);
          // a final newline ends the last line; it does not start an empty one
          const expected = text.split('\n');
          if (expected.at(-1) === '') expected.pop();
          expect(seen).toEqual(expected.slice(0, stopAt + 1));
          expect(whole).toBe(true);
          // past the byte bound it stops and says it did not read the whole file
          const bound = Math.floor(Buffer.byteLength(text, 'latin1') / 2);
          if (bound > 0) expect(scanRegularLines(path, () => false, bound)).toBe(false);
        },
      ),
      { seed: 32, numRuns: 60 },
    );
  });

  it('a backward scan visits the whole lines of the last maxBytes, newest first, across chunk cuts', () => {
    const path = join(tmp.path, 'scan-back.txt');
    // short lines and long ones (some longer than the line bound), in letters of 1 to 4 bytes
    const unit = fc.constantFrom('a', 'b', ' ', '"', 'é', '→', '😀');
    const long = fc
      .tuple(fc.string({ unit, minLength: 1, maxLength: 3 }), fc.integer({ min: 10_000, max: 90_000 }))
      .map(([u, n]) => u.repeat(Math.ceil(n / u.length)).slice(0, n));
    const line = fc.oneof(fc.string({ unit, maxLength: 30 }), long);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 400_000 }),
        fc.integer({ min: 0, max: 150_000 }),
        fc.nat(12),
        (lines, endsWithNewline, maxBytes, maxLineBytes, stopAt) => {
          const text = lines.join('\n') + (endsWithNewline ? '\n' : '');
          writeFileSync(path, text);
          const bytes = Buffer.from(text);
          const floor = Math.max(0, bytes.length - maxBytes);
          // the model: every line a newline ends, that starts inside the bound and fits
          const expected: string[] = [];
          for (
            let start = 0, nl = bytes.indexOf(0x0a);
            nl >= 0;
            start = nl + 1, nl = bytes.indexOf(0x0a, start)
          ) {
            const inside = floor === 0 || start > floor;
            if (inside && nl - start <= maxLineBytes) expected.unshift(bytes.toString('utf8', start, nl));
          }
          const seen: string[] = [];
          const stopped = scanRegularLinesBackward(
            path,
            (l) => seen.push(l) > stopAt,
            maxBytes,
            maxLineBytes,
          );
          expect(seen).toEqual(expected.slice(0, stopAt + 1));
          expect(stopped).toBe(expected.length > stopAt);
        },
      ),
      { seed: 103, numRuns: 150 },
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
      expect(() => scanRegularLines(p, () => false, 100)).toThrow(/not a regular file/);
      expect(() => scanRegularLinesBackward(p, () => false, 100, 100)).toThrow(/not a regular file/);
    }
    expect(() => readRegularTail(join(tmp.path, 'missing'), 100)).toThrow(/ENOENT/);
  });
});
