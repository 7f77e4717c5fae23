import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteFile } from '../../../src/files/rewrite-file.js';
import { AgentctxError } from '../../../src/shared/errors.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir();
});
afterAll(() => t.cleanup());

let n = 0;
function fresh(): string {
  const dir = join(t.path, `case-${n++}`);
  mkdirSync(dir);
  return dir;
}

/** Modes the owner can read and write: what a CLAUDE.md may carry. */
const mode = fc.integer({ min: 0, max: 0o177 }).map((m) => 0o600 | m);

describe('rewriteFile', () => {
  it('keeps the permission bits of the file it replaces, whatever the umask (generated)', () => {
    fc.assert(
      fc.property(mode, fc.string({ maxLength: 200 }), (m, text) => {
        const file = join(fresh(), 'CLAUDE.md');
        writeFileSync(file, 'old');
        chmodSync(file, m);
        rewriteFile(file, text);
        expect(readFileSync(file, 'utf8')).toBe(text);
        expect(statSync(file).mode & 0o777).toBe(m);
      }),
      { seed: 5150, numRuns: 60 },
    );
  });

  it('writes through chains of symlinks, absolute and relative, and leaves no temporary file (generated)', () => {
    fc.assert(
      fc.property(mode, fc.integer({ min: 1, max: 3 }), fc.boolean(), (m, hops, relative) => {
        const dir = fresh();
        mkdirSync(join(dir, 'real'));
        const target = join(dir, 'real', 'notes.md');
        writeFileSync(target, 'old');
        chmodSync(target, m);
        let previous = target;
        for (let i = 0; i < hops; i++) {
          const link = join(dir, `link-${i}.md`);
          symlinkSync(relative ? (i === 0 ? 'real/notes.md' : `link-${i - 1}.md`) : previous, link);
          previous = link;
        }
        rewriteFile(previous, 'new text');
        expect(lstatSync(previous).isSymbolicLink()).toBe(true);
        expect(readFileSync(target, 'utf8')).toBe('new text');
        expect(statSync(target).mode & 0o777).toBe(m);
        expect(readdirSync(join(dir, 'real'))).toEqual(['notes.md']);
      }),
      { seed: 6060, numRuns: 40 },
    );
  });

  it('creates a missing file with the given mode, also behind a dangling symlink', () => {
    const dir = fresh();
    rewriteFile(join(dir, 'a.md'), 'a', 0o640);
    expect(statSync(join(dir, 'a.md')).mode & 0o777).toBe(0o640);
    symlinkSync('b-target.md', join(dir, 'b.md'));
    rewriteFile(join(dir, 'b.md'), 'b');
    expect(readlinkSync(join(dir, 'b.md'))).toBe('b-target.md');
    expect(readFileSync(join(dir, 'b-target.md'), 'utf8')).toBe('b');
    expect(statSync(join(dir, 'b-target.md')).mode & 0o777).toBe(0o644);
  });

  it('refuses a target that is not a regular file, and leaves it as it was', () => {
    const dir = fresh();
    const fifo = join(dir, 'pipe.md');
    const made = spawnSync('mkfifo', [fifo]);
    const targets = [join(dir, 'folder.md')];
    mkdirSync(targets[0]!);
    if (made.status === 0) targets.push(fifo);
    for (const target of targets) {
      let err: unknown;
      try {
        rewriteFile(target, 'x');
      } catch (e) {
        err = e;
      }
      expect(err, target).toBeInstanceOf(AgentctxError);
      expect((err as Error).message).toMatch(/not a regular file; nothing was written/);
    }
    expect(lstatSync(targets[0]!).isDirectory()).toBe(true);
    if (made.status === 0) expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(targets.map((p) => p.slice(dir.length + 1)).sort());
  });
});
