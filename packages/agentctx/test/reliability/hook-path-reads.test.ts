import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGitHistory } from '../../src/git/git-history.js';
import { bundleChildScript } from '../support/child-bundle.js';
import { PACKAGE_ROOT } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/**
 * What the hooks read from git's files and the shared temp folder is bounded, and a FIFO is
 * refused. Each read runs in a child process whose JavaScript heap is capped at 16 MB: a file
 * read whole (a 40 MB packed-refs, git config or session file) kills it, as it would slow or
 * kill a hook on a big repository; a FIFO read with a plain read blocks it until the timeout.
 * Where a whole read would survive the cap (one string searched, never split), the child's peak
 * resident memory tells instead.
 */

let t: ReturnType<typeof tempDir>;
let reader: string;
const SHA = 'a'.repeat(40);
const BIG = 40 * 1024 * 1024;

beforeAll(() => {
  t = tempDir('agentctx-hook-reads-');
  const src = (p: string) => JSON.stringify(join(PACKAGE_ROOT, 'src', p));
  reader = bundleChildScript(
    t.path,
    'reader',
    `import { headBranch, headCommit, findRepo } from ${src('git/git-repo.ts')};
import { readSessionState } from ${src('core/injection/session-state.ts')};
import { journalCwd } from ${src('files/session-journal.ts')};
import { readIncognito } from ${src('app/incognito.ts')};
const [what, path] = process.argv.slice(2);
const before = process.resourceUsage().maxRSS;
const out =
  what === 'head' ? headCommit(path) :
  what === 'branch' ? headBranch(path) :
  what === 'origin' ? findRepo(path).origin :
  what === 'cwd' ? journalCwd(path, 's1') :
  what === 'incognito' ? readIncognito({ home: path } as never) :
  readSessionState(path).injected.length;
// how far the read raised the process's peak resident memory, in MiB
const grew = (process.resourceUsage().maxRSS - before) / 1024;
process.stdout.write(JSON.stringify({ out, grew }));
`,
  );
});
afterAll(() => t.cleanup());

function read(what: string, path: string, env: NodeJS.ProcessEnv = process.env): unknown {
  return readMeasured(what, path, env).out;
}

/** What the child read, and how many MiB its peak memory grew while reading it. */
function readMeasured(
  what: string,
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): { out: unknown; grew: number } {
  const res = spawnSync(process.execPath, ['--max-old-space-size=16', reader, what, path], {
    encoding: 'utf8',
    timeout: 15_000,
    env,
  });
  expect(res.signal, `${what}: killed (out of memory, or blocked until the timeout)`).toBeNull();
  expect(res.status, `${what}: ${res.stderr.slice(-400)}`).toBe(0);
  return JSON.parse(res.stdout) as { out: unknown; grew: number };
}

/** A git folder by hand: HEAD on main, the given config, refs only where asked. */
function gitLayout(name: string, config: string): string {
  const root = join(t.path, name);
  mkdirSync(join(root, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(root, '.git', 'config'), config);
  return root;
}

/** Write `lines` repeated until `bytes`, then `last`, without holding it all in memory. */
function writeBig(path: string, filler: (i: number) => string, bytes: number, last: string): void {
  const fd = openSync(path, 'w');
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const block = Array.from({ length: 1000 }, (_, j) => filler(i * 1000 + j)).join('');
    written += writeSync(fd, block);
  }
  writeSync(fd, last);
  closeSync(fd);
}

describe('hook-path reads are bounded', () => {
  it('finds HEAD in a 40 MB packed-refs without reading it whole', () => {
    const root = gitLayout('packed', '[core]\n\trepositoryformatversion = 0\n');
    writeBig(
      join(root, '.git', 'packed-refs'),
      (i) => `${'b'.repeat(40)} refs/tags/v${i}\n`,
      BIG,
      `${SHA} refs/heads/main\n`,
    );
    expect(read('head', root)).toBe(SHA);
  });

  it('reads the origin from a 40 MB git config, to its first MiB', () => {
    const root = join(t.path, 'big-config');
    mkdirSync(root);
    execFileSync('git', ['init', '-q', root]);
    execFileSync('git', ['-C', root, 'remote', 'add', 'origin', 'git@example.com:acme/big.git']);
    const config = join(root, '.git', 'config');
    const fd = openSync(config, 'a');
    writeSync(fd, '[alias]\n');
    closeSync(fd);
    writeBig(`${config}.tail`, (i) => `\tx${i} = log --oneline\n`, BIG, '');
    execFileSync('sh', ['-c', `cat "${config}.tail" >> "${config}"`]);
    expect(read('origin', root)).toBe('git@example.com:acme/big.git');
  });

  it('reads a 40 MB session dedup file by its tail, and a FIFO in its place as empty', () => {
    const big = join(t.path, 'session-big.json');
    writeBig(big, (i) => `\n{"add":["01J${String(i).padStart(23, '0')}"]}`, BIG, '\n{"add":["last"]}');
    expect(read('state', big)).toBeGreaterThan(0);
    const fifo = join(t.path, 'session-fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(read('state', fifo)).toBe(0);
  });
});

describe('what every hook reads from the agentctx home is bounded too', () => {
  const tokens = (i: number) => `{"s":"s1","p":"p1","t":${1 + (i % 90)},"at":"2026-01-01T00:00:00.000Z"}\n`;

  it("finds the session's last working directory in a 40 MB journal, and a FIFO in its place is no change", () => {
    const big = join(t.path, 'journal-big.jsonl');
    writeBig(
      big,
      (i) => (i === 0 ? '{"s":"s1","cwd":"/old","at":"2026-01-01T00:00:00.000Z"}\n' : tokens(i)),
      BIG,
      `{"s":"s1","cwd":"/new","at":"2026-01-02T00:00:00.000Z"}\n{"s":"s2","cwd":"/other","at":"2026-01-02T00:00:00.000Z"}\n${tokens(1)}`,
    );
    // held whole, the file alone would add 40 MiB (80 as a buffer and a string)
    const { out, grew } = readMeasured('cwd', big);
    expect(out).toBe('/new');
    expect(grew).toBeLessThan(16);
    const fifo = join(t.path, 'journal-fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(read('cwd', fifo)).toBeNull();
  });

  it('reads incognito.json to its first 64 KiB: a 40 MB one is off, a FIFO is off, never waited on', () => {
    const home = (name: string) => {
      const dir = join(t.path, name);
      mkdirSync(dir);
      return dir;
    };
    const small = home('incognito-small');
    writeFileSync(join(small, 'incognito.json'), '{"since":"2026-01-01T00:00:00.000Z","session":"s1"}\n');
    expect(read('incognito', small)).toEqual({ since: '2026-01-01T00:00:00.000Z', session: 's1' });
    const big = home('incognito-big');
    writeBig(
      join(big, 'incognito.json'),
      () => ' '.repeat(64),
      BIG,
      '{"since":"2026-01-01T00:00:00.000Z","session":null}',
    );
    const { out, grew } = readMeasured('incognito', big);
    expect(grew).toBeLessThan(16);
    expect(out).toBeNull();
    const fifo = home('incognito-fifo');
    execFileSync('mkfifo', [join(fifo, 'incognito.json')]);
    expect(read('incognito', fifo)).toBeNull();
  });
});

describe('reftable repositories (git >= 2.45)', () => {
  it("asks git for HEAD's commit and branch: the HEAD file there names no real branch", () => {
    const version = /(\d+)\.(\d+)/.exec(execFileSync('git', ['--version'], { encoding: 'utf8' }))!;
    const realReftable = Number(version[1]) > 2 || (Number(version[1]) === 2 && Number(version[2]) >= 45);
    let root: string;
    let env = process.env;
    let sha: string;
    if (realReftable) {
      root = join(t.path, 'reftable');
      execFileSync('git', ['init', '-q', '--ref-format=reftable', '-b', 'main', root]);
      writeFileSync(join(root, 'a.txt'), 'a\n');
      execFileSync('git', ['-C', root, 'add', '.']);
      execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one']);
      sha = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    } else {
      // git here predates reftable: lay the repository out as git 2.45 does, and stand in for
      // the git that would read its tables (only the two questions asked, answered as git does)
      root = gitLayout(
        'reftable',
        '[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = reftable\n',
      );
      writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/.invalid\n');
      mkdirSync(join(root, '.git', 'reftable'));
      writeFileSync(join(root, '.git', 'reftable', 'tables.list'), '');
      // an old git's view, which must not be trusted: a loose ref the tables do not hold
      writeFileSync(join(root, '.git', 'refs', 'heads', '.invalid'), `${'c'.repeat(40)}\n`);
      sha = 'd'.repeat(40);
      const bin = join(t.path, 'git-2.45');
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'git'),
        `#!/bin/sh\ncase "$*" in\n  *"rev-parse --verify -q HEAD") echo ${sha} ;;\n  *"symbolic-ref --short -q HEAD") echo main ;;\n  *) exit 129 ;;\nesac\n`,
      );
      chmodSync(join(bin, 'git'), 0o755);
      env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    }
    expect(read('head', root, env)).toBe(sha);
    expect(read('branch', root, env)).toBe('main');
  });
});

describe('git log is read NUL-separated', () => {
  it('keeps paths with newlines, tabs, quotes and non-ASCII letters as they are', () => {
    const name = fc
      .string({
        unit: fc.constantFrom('a', 'b', '\n', '\t', '"', '\\', ' ', 'é', '→'),
        minLength: 1,
        maxLength: 8,
      })
      .filter((s) => !s.startsWith(' ') && !s.endsWith(' ') && s !== '.' && s !== '..');
    let n = 0;
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 5 }), (names) => {
        const root = join(t.path, `log-${n++}`);
        mkdirSync(root);
        execFileSync('git', ['init', '-q', root]);
        const files = names.map((s) => `f${s}.txt`);
        for (const f of files) writeFileSync(join(root, f), `${f}\n`);
        execFileSync('git', ['-C', root, 'add', '-A']);
        execFileSync('git', [
          '-C',
          root,
          '-c',
          'user.name=t',
          '-c',
          'user.email=t@t',
          'commit',
          '-qm',
          'one',
        ]);
        const h = readGitHistory(root);
        expect(h?.commits).toBe(1);
        expect([...h!.touches.keys()].sort()).toEqual([...files].sort());
      }),
      { numRuns: 15 },
    );
  });
});
