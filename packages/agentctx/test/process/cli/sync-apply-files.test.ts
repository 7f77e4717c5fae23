import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
const CLAUDE = '# Shop\n\n- Tests run with vitest.\n';

beforeEach(() => {
  t = tempDir();
  repo = fakeRepo(t.path, 'shop', 'https://github.com/acme/shop.git');
  env = isolatedEnv(t.path);
  const r = runJson(
    ['record', '--type', 'convention', '--title', 'Money is integer cents', '--body', 'No floats.'],
    {
      cwd: repo,
      env,
    },
  );
  expect(r.code).toBe(0);
});
afterEach(() => t.cleanup());

/** `agentctx sync --apply` on a pseudo-terminal, answering "y". */
function applyOnTty(): string {
  const res = spawnSync('script', ['-qec', `${process.execPath} ${BIN} sync --apply`, '/dev/null'], {
    cwd: repo,
    env,
    input: 'y\n',
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(res.stdout).toContain('Wrote CLAUDE.md.');
  return res.stdout;
}

describe('sync --apply writes CLAUDE.md the way the developer keeps it', () => {
  it.each(['600', '640', '664', '755'])('keeps the file mode %s', (octal) => {
    const mode = Number.parseInt(octal, 8);
    const file = join(repo, 'CLAUDE.md');
    writeFileSync(file, CLAUDE);
    chmodSync(file, mode);
    applyOnTty();
    expect(readFileSync(file, 'utf8')).toContain('Money is integer cents');
    expect(statSync(file).mode & 0o777).toBe(mode);
  });

  it('writes through a symlink (a dotfile manager link) and keeps the link', () => {
    const dotfiles = join(t.path, 'dotfiles');
    mkdirSync(dotfiles);
    const target = join(dotfiles, 'shop-CLAUDE.md');
    writeFileSync(target, CLAUDE);
    chmodSync(target, 0o600);
    const link = join(repo, 'CLAUDE.md');
    symlinkSync('../dotfiles/shop-CLAUDE.md', link);
    applyOnTty();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../dotfiles/shop-CLAUDE.md');
    expect(readFileSync(target, 'utf8')).toContain('Money is integer cents');
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it('creates a missing CLAUDE.md 0644', () => {
    applyOnTty();
    const file = join(repo, 'CLAUDE.md');
    expect(readFileSync(file, 'utf8')).toContain('Money is integer cents');
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });
});
