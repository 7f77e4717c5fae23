import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { git } from '../../support/git.js';
import { rand } from '../../support/secret-corpus.js';
import { tempDir } from '../../support/tmp.js';

/**
 * `agentctx import claude-memory` and the status line about Claude Code's auto-memory, with the
 * built CLI over a real git repository and the memory folder where claude 2.1.332 writes it:
 * `<CLAUDE_CONFIG_DIR>/projects/<main worktree root, non-alphanumerics as "-">/memory/`.
 */

interface ImportJson {
  dir: string;
  files: number;
  notes: number;
  created: string[];
  superseded: string[];
  unchanged: number;
  redacted?: unknown;
}

const topic = (name: string, description: string, type: string, body: string, nested = true) =>
  `---\nname: ${name}\ndescription: ${description}\n${nested ? `metadata:\n  type: ${type}` : `type: ${type}`}\n---\n\n${body}\n`;

let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
let memDir: string;
const token = `ghp_${rand(36)}`;

function rows(): {
  id: string;
  type: string;
  title: string;
  body: string;
  source: string;
  confidence: string;
  superseded_at: string | null;
}[] {
  const db = openDb(join(env.AGENTCTX_HOME as string, 'agentctx.db'));
  try {
    return db
      .prepare('SELECT id, type, title, body, source, confidence, superseded_at FROM records ORDER BY id')
      .all() as never;
  } finally {
    db.close();
  }
}

beforeAll(() => {
  tmp = tempDir('agentctx-automem-');
  mkdirSync(join(tmp.path, 'tmp'), { recursive: true });
  env = isolatedEnv(tmp.path);
  repo = join(tmp.path, 'work', 'my_shop.v2');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# shop\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  repo = realpathSync(repo);
  memDir = join(tmp.path, '.claude', 'projects', repo.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
  mkdirSync(memDir, { recursive: true });
  writeFileSync(
    join(memDir, 'MEMORY.md'),
    [
      '- [Use pnpm](pnpm.md) — the package manager',
      '- [Staging deploys](staging-deploys.md) — how deploys run',
      '',
      '## Build',
      '- Run `pnpm build:all` before a release; the plain build skips the docs site',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(memDir, 'pnpm.md'),
    topic(
      'use-pnpm',
      'Use pnpm, never npm, in this repository',
      'feedback',
      'Install with pnpm; npm breaks the lockfile.\n**Why:** the workspace protocol.',
    ),
  );
  writeFileSync(
    join(memDir, 'staging-deploys.md'),
    topic(
      'staging-deploys',
      'Staging deploys run from the deploy-staging branch',
      'project',
      `Push to deploy-staging; the pipeline authenticates with ${token} (rotate monthly).`,
      false,
    ),
  );
});
afterAll(() => tmp.cleanup());

describe('agentctx import claude-memory', () => {
  it('imports topic files and MEMORY.md notes as inferred records with provenance import, redacted', () => {
    const r = runJson<ImportJson>(['import', 'claude-memory'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.dir).toBe(memDir);
    expect(r.json.files).toBe(3);
    expect(r.json.created).toHaveLength(3);
    expect(r.json.unchanged).toBe(0);
    expect(r.json.redacted).toBeTruthy();
    const all = rows();
    expect(all.map((x) => x.source)).toEqual(['import', 'import', 'import']);
    expect(new Set(all.map((x) => x.confidence))).toEqual(new Set(['inferred']));
    const byTitle = Object.fromEntries(all.map((x) => [x.title, x]));
    expect(byTitle['Use pnpm, never npm, in this repository']?.type).toBe('preference');
    expect(byTitle['Staging deploys run from the deploy-staging branch']?.type).toBe('decision');
    const build = all.find((x) => x.body.includes('pnpm build:all'));
    expect(build?.type).toBe('discovery');
    expect(build?.body).toContain('(Build)');
    expect(JSON.stringify(all)).not.toContain(token);
    for (const x of all) expect(x.body).toMatch(/Imported from Claude Code auto-memory: [\w.-]+\.md\.\)$/);
    // the index's pointers are not notes of their own
    expect(all.some((x) => x.title.startsWith('[Use pnpm]'))).toBe(false);
    // and the prompt hook finds them
    const hook = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: repo,
      env,
      input: JSON.stringify({
        session_id: 'am1',
        cwd: repo,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'should I install with npm or pnpm?',
      }),
    });
    expect(hook.stdout).toContain('Use pnpm');
  });

  it('a second import writes nothing', () => {
    const before = JSON.stringify(rows());
    const r = runJson<ImportJson>(['import', 'claude-memory'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.created).toEqual([]);
    expect(r.json.unchanged).toBe(3);
    expect(JSON.stringify(rows())).toBe(before);
  });

  it('skips a note the store already holds, and a changed topic file supersedes its earlier import', () => {
    writeFileSync(
      join(memDir, 'orders.md'),
      topic('orders', 'Orders table', 'project', 'Orders are sharded by customer id.'),
    );
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        'Order sharding',
        '--body',
        'Orders are sharded by customer id.',
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    const old = rows().find((x) => x.title === 'Use pnpm, never npm, in this repository')!;
    writeFileSync(
      join(memDir, 'pnpm.md'),
      topic(
        'use-pnpm',
        'Use pnpm, never npm, in this repository',
        'feedback',
        'Install with pnpm 9; npm and yarn break the lockfile.',
      ),
    );
    const r = runJson<ImportJson>(['import', 'claude-memory'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.created).toHaveLength(1);
    expect(r.json.superseded).toEqual([old.id]);
    const after = rows();
    expect(after.find((x) => x.id === old.id)?.superseded_at).not.toBeNull();
    expect(after.filter((x) => x.body.startsWith('Orders are sharded'))).toHaveLength(1);
  });

  it('finds the main worktree’s memory from a linked worktree', () => {
    const wt = join(tmp.path, 'work', 'shop-wt');
    git(repo, 'worktree', 'add', '-q', wt, '-b', 'wt');
    const r = runJson<ImportJson>(['import', 'claude-memory'], { cwd: wt, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.dir).toBe(memDir);
    expect(r.json.created).toEqual([]);
  });

  it('refuses a missing or unknown source plainly, and says so when there is no auto-memory', () => {
    for (const args of [['import'], ['import', 'claude-mem']]) {
      const r = runAgentctx(args, { cwd: repo, env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('import needs a source: claude-memory');
    }
    const other = join(tmp.path, 'work', 'plain');
    mkdirSync(other, { recursive: true });
    const r = runAgentctx(['import', 'claude-memory'], { cwd: other, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('nothing to import');
  });

  it('any notes: imported once, a second import is a no-op', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'ship ', 'é', '数', ' ', '\n', '-', '#', '*', '`'),
      minLength: 1,
      maxLength: 200,
    });
    let n = 0;
    fc.assert(
      fc.property(fc.array(fc.record({ d: text, b: text }), { minLength: 1, maxLength: 4 }), (notes) => {
        n += 1;
        const dir = join(tmp.path, `gen${n}`);
        mkdirSync(dir, { recursive: true });
        for (const [i, x] of notes.entries())
          writeFileSync(join(dir, `n${i}.md`), topic(`n${i}`, x.d.replace(/\n/g, ' '), 'user', x.b));
        const first = runJson<ImportJson>(['import', 'claude-memory', '--dir', dir], { cwd: repo, env });
        expect(first.code, first.stderr).toBe(0);
        expect(first.json.created.length + first.json.unchanged).toBeLessThanOrEqual(notes.length);
        const second = runJson<ImportJson>(['import', 'claude-memory', '--dir', dir], { cwd: repo, env });
        expect(second.code, second.stderr).toBe(0);
        expect(second.json.created).toEqual([]);
      }),
      { seed: 4242, numRuns: 6 },
    );
  }, 60_000);
});

describe('status and auto-memory', () => {
  const autoMemory = (cwd: string, extra: NodeJS.ProcessEnv = {}) =>
    runJson<{ auto_memory: { enabled: boolean; dir: string; files: number; decided_by: string } }>(
      ['status', '--verbose'],
      {
        cwd,
        env: { ...env, ...extra },
      },
    );

  it('notes when auto-memory is on for this project, and when settings or the environment turn it off', () => {
    const on = autoMemory(repo);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json.auto_memory).toMatchObject({ enabled: true, dir: memDir, decided_by: 'default' });
    expect(on.json.auto_memory.files).toBeGreaterThanOrEqual(3);
    const text = runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout;
    expect(text).toContain('auto-memory is on');
    expect(text).toContain('agentctx import claude-memory');
    expect(autoMemory(repo, { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }).json.auto_memory.enabled).toBe(false);
    mkdirSync(join(repo, '.claude'), { recursive: true });
    writeFileSync(join(repo, '.claude', 'settings.json'), '{ "autoMemoryEnabled": false }\n');
    const off = autoMemory(repo);
    expect(off.json.auto_memory.enabled).toBe(false);
    expect(off.json.auto_memory.decided_by).toBe(join(repo, '.claude', 'settings.json'));
    writeFileSync(join(repo, '.claude', 'settings.local.json'), '{ "autoMemoryEnabled": true }\n');
    expect(autoMemory(repo).json.auto_memory.enabled).toBe(true);
  });
});
