import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTomlSections } from '../../../../src/core/profile/detect/toml.js';
import { detectProfile } from '../../../../src/core/profile/detect-profile.js';
import { assembleProjectProfile } from '../../../../src/core/profile/project-profile.js';
import { refreshProfile } from '../../../../src/core/profile/refresh-profile.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let tmp: ReturnType<typeof tempDir>;

beforeEach(() => {
  tmp = tempDir('agentctx-profile-');
});
afterEach(() => tmp.cleanup());

function repo(name: string, files: Record<string, string>): string {
  const root = join(tmp.path, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

describe('detectProfile', () => {
  it('reads a TypeScript monorepo: pnpm from the lockfile, scripts, bin/exports, workspaces', () => {
    const root = repo('mono', {
      'package.json': JSON.stringify({
        name: '@acme/mono',
        bin: { acme: './bin/acme.js' },
        exports: { '.': { import: './dist/index.js' } },
        scripts: { build: 'tsc -b', test: 'vitest run', lint: 'biome check .', typecheck: 'tsc --noEmit' },
        devDependencies: { typescript: '5.9.0', vitest: '4.1.12', react: '19' },
        workspaces: ['packages/*'],
      }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - packages/*\n",
      'tsconfig.json': '{}',
      'src/index.ts': 'export {}',
    });
    const p = detectProfile(root);
    expect(p.name).toBe('@acme/mono');
    expect(p.stack).toBe('TypeScript, Node.js, React, Vitest');
    expect(p.package_manager).toBe('pnpm');
    expect(p.build).toBe('pnpm run build');
    expect(p.test).toBe('pnpm test');
    expect(p.lint).toBe('pnpm run lint, pnpm run typecheck');
    expect(p.entry_points).toBe('bin/acme.js, dist/index.js, src/index.ts');
    expect(p.workspaces).toBe('packages/*, apps/*');
  });

  it('prefers the declared packageManager and knows yarn/bun/npm lockfiles', () => {
    const pm = (files: Record<string, string>) =>
      detectProfile(repo(`pm${Math.random()}`, files)).package_manager;
    expect(pm({ 'package.json': '{"packageManager":"yarn@4.1.0"}', 'package-lock.json': '{}' })).toBe('yarn');
    expect(pm({ 'package.json': '{}', 'bun.lock': '' })).toBe('bun');
    expect(pm({ 'package.json': '{}', 'package-lock.json': '{}' })).toBe('npm');
  });

  it('reads a Python project: uv, pytest, ruff, console scripts, frameworks', () => {
    const root = repo('py', {
      'pyproject.toml': `[project]
name = "orders-api" # the service
dependencies = [
  "fastapi>=0.110",
  "sqlalchemy[asyncio]",
]

[project.scripts]
orders = "orders.cli:main"

[dependency-groups]
dev = ["pytest>=8", "ruff"]

[tool.ruff]
line-length = 100

[build-system]
requires = ["hatchling"]
`,
      'uv.lock': '',
    });
    const p = detectProfile(root);
    expect(p.name).toBe('orders-api');
    expect(p.stack).toBe('Python, FastAPI, SQLAlchemy, pytest');
    expect(p.package_manager).toBe('uv');
    expect(p.test).toBe('uv run pytest');
    expect(p.lint).toBe('uv run ruff check .');
    expect(p.build).toBe('uv build');
    expect(p.entry_points).toBe('orders.cli:main');
  });

  it('reads Rust workspaces and Go modules with cmd/ entry points', () => {
    const rust = detectProfile(
      repo('rs', {
        'Cargo.toml':
          '[package]\nname = "ripcache"\n\n[workspace]\nmembers = ["crates/core", "crates/cli"]\n',
        'src/main.rs': 'fn main() {}',
      }),
    );
    expect(rust).toMatchObject({
      name: 'ripcache',
      stack: 'Rust',
      package_manager: 'cargo',
      build: 'cargo build',
      test: 'cargo test',
      lint: 'cargo clippy',
      entry_points: 'src/main.rs',
      workspaces: 'crates/core, crates/cli',
    });
    const go = detectProfile(
      repo('go', {
        'go.mod': 'module github.com/acme/tool\n\ngo 1.22\n',
        'cmd/tool/main.go': 'package main',
        '.golangci.yml': '',
      }),
    );
    expect(go).toMatchObject({
      name: 'tool',
      stack: 'Go',
      test: 'go test ./...',
      lint: 'golangci-lint run',
      entry_points: 'cmd/tool/main.go',
    });
  });

  it('puts Makefile targets before language defaults', () => {
    const p = detectProfile(
      repo('mk', {
        'go.mod': 'module example.com/svc\n',
        Makefile:
          'VERSION := 1\nbuild:\n\tgo build -o bin/svc .\ntest: build\n\tgo test ./...\nlint:\n\tstaticcheck\n',
      }),
    );
    expect(p.build).toBe('make build');
    expect(p.test).toBe('make test');
    expect(p.lint).toBe('make lint, go vet ./...');
  });

  it('names an empty folder after itself and invents nothing else', () => {
    const p = detectProfile(repo('bare-folder', { 'README.md': '# hi' }));
    expect(p).toEqual({ name: 'bare-folder' });
  });

  it('survives a broken package.json and an oversized file', () => {
    const p = detectProfile(
      repo('broken', {
        'package.json': '{"name": ',
        'Cargo.toml': `[package]\nname = "x"\n${'#'.repeat(600_000)}`,
      }),
    );
    expect(p.name).toBe('broken');
    expect(p.stack).toBeUndefined();
  });

  it('reads multi-line TOML arrays and ignores # inside strings', () => {
    const t = readTomlSections('[a]\nx = [\n "1", # one\n "#2"\n]\ny = "v#w" # c\n');
    expect(t.a?.x).toBe('[ "1", "#2" ]');
    expect(t.a?.y).toBe('"v#w"');
  });
});

describe('refreshProfile', () => {
  it('creates one explicit profile record per key, then changes only what changed', () => {
    const root = repo('app', {
      'package.json': JSON.stringify({ name: 'app', scripts: { test: 'jest', lint: 'eslint .' } }),
      'package-lock.json': '{}',
    });
    const { db, deps, setNow } = testStore(tmp.path, 'p-app');
    const first = refreshProfile(deps, root);
    expect(first.created).toEqual(['name', 'stack', 'package_manager', 'test', 'lint']);
    const rows = db
      .prepare("SELECT * FROM records WHERE type = 'profile' AND superseded_at IS NULL ORDER BY title")
      .all() as { title: string; body: string; confidence: string; source: string; project_id: string }[];
    expect(rows.map((r) => r.title)).toEqual([
      'profile: lint command',
      'profile: name',
      'profile: package manager',
      'profile: stack',
      'profile: test command',
    ]);
    expect(rows.every((r) => r.confidence === 'explicit' && r.source === 'hook_observation')).toBe(true);
    expect(rows.every((r) => r.project_id === 'p-app')).toBe(true);

    const again = refreshProfile(deps, root);
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(again.unchanged).toHaveLength(5);
    expect((db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n).toBe(5);

    const oldTest = db.prepare("SELECT id FROM records WHERE title = 'profile: test command'").get() as {
      id: string;
    };
    setNow('2026-12-01T09:00:00Z');
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'app', scripts: { test: 'vitest', build: 'tsc' } }),
    );
    rmSync(join(root, 'package-lock.json'));
    writeFileSync(join(root, 'yarn.lock'), '');
    const third = refreshProfile(deps, root);
    expect(third.created).toEqual(['build']);
    expect(third.updated).toEqual(['package_manager', 'test']);
    expect(third.retired).toEqual(['lint']);
    const old = db.prepare('SELECT * FROM records WHERE id = ?').get(oldTest.id) as {
      superseded_at: string;
      superseded_by: string;
    };
    expect(old.superseded_at).toBe('2026-12-01T09:00:00.000Z');
    const successor = db.prepare('SELECT body FROM records WHERE id = ?').get(old.superseded_by) as {
      body: string;
    };
    expect(successor.body).toBe('yarn test');
    const lint = db
      .prepare("SELECT superseded_at FROM records WHERE title = 'profile: lint command'")
      .get() as {
      superseded_at: string | null;
    };
    expect(lint.superseded_at).not.toBeNull();
    const current = db
      .prepare("SELECT COUNT(*) AS n FROM records WHERE type = 'profile' AND superseded_at IS NULL")
      .get() as { n: number };
    expect(current.n).toBe(5); // name, stack, package manager, build, test
  });

  it('leaves other projects and hand-written profile records alone', () => {
    const root = repo('svc', { 'go.mod': 'module example.com/svc\n' });
    const { db, deps } = testStore(tmp.path, 'p-svc');
    const foreign = createRecord(
      { ...deps, projectId: 'p-other' },
      { type: 'profile', title: 'profile: name', body: 'other', source: 'cli', confidence: 'explicit' },
    );
    const hand = createRecord(deps, {
      type: 'profile',
      title: 'Deploys go through ArgoCD',
      body: 'Merges to main deploy to staging via ArgoCD.',
      source: 'cli',
      confidence: 'explicit',
    });
    refreshProfile(deps, root);
    refreshProfile(deps, join(tmp.path, 'missing-folder'));
    const get = (id: string) =>
      db.prepare('SELECT superseded_at FROM records WHERE id = ?').get(id) as {
        superseded_at: string | null;
      };
    expect(get(foreign.id).superseded_at).toBeNull();
    expect(get(hand.id).superseded_at).toBeNull();
  });
});

describe('assembleProjectProfile (ctx_project)', () => {
  it('returns the CONTRACTS.md §ctx-project shape from the stored records', () => {
    const root = repo('shop', {
      'package.json': JSON.stringify({
        name: 'shop',
        main: 'server.js',
        scripts: { build: 'tsc', test: 'vitest run', lint: 'eslint .' },
        dependencies: { express: '4' },
      }),
    });
    const { db, deps } = testStore(tmp.path, 'p-shop');
    refreshProfile(deps, root);
    createRecord(deps, {
      type: 'decision',
      title: 'Use Postgres',
      body: 'Orders in Postgres.',
      source: 'cli',
    });
    db.prepare(
      "INSERT INTO sessions (session_id, project_id, started_at, ended_at) VALUES ('s1', 'p-shop', ?, ?)",
    ).run('2026-11-29T10:00:00.000Z', '2026-11-29T11:00:00.000Z');
    const p = assembleProjectProfile(db, 'p-shop', 'fallback');
    expect(p).toEqual({
      name: 'shop',
      project_id: 'p-shop',
      stack: ['JavaScript', 'Node.js', 'Express'],
      package_manager: 'npm',
      commands: { build: 'npm run build', test: 'npm test', lint: 'npm run lint' },
      entry_points: ['server.js'],
      workspaces: [],
      record_counts_by_type: {
        decision: 1,
        convention: 0,
        preference: 0,
        discovery: 0,
        bugfix: 0,
        handover: 0,
        profile: 7,
      },
      last_session_at: '2026-11-29T11:00:00.000Z',
    });
    const empty = assembleProjectProfile(db, 'p-none', 'fallback');
    expect(empty.name).toBe('fallback');
    expect(empty.stack).toEqual([]);
    expect(empty.last_session_at).toBeNull();
  });
});
