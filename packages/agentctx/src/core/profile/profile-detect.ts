import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ContextRecord } from '../../shared/types.js';
import { listRecords } from '../../storage/records-repo.js';
import { createRecord, type RecordsDeps } from '../records/records.js';

/**
 * Rule-based project profile (SPEC §3.2 `profile`): what a newcomer needs first — the name, the
 * stack, the package manager, how to build/test/lint, where the code starts. Read from the
 * files at the repository root only: no process is spawned, nothing is executed.
 */

export const PROFILE_KEYS = [
  'name',
  'stack',
  'package_manager',
  'build',
  'test',
  'lint',
  'entry_points',
  'workspaces',
] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export type DetectedProfile = Partial<Record<ProfileKey, string>>;

/** The record title of each key; titles are how stored profile records are found again. */
export const PROFILE_TITLES: Record<ProfileKey, string> = {
  name: 'profile: name',
  stack: 'profile: stack',
  package_manager: 'profile: package manager',
  build: 'profile: build command',
  test: 'profile: test command',
  lint: 'profile: lint command',
  entry_points: 'profile: entry points',
  workspaces: 'profile: workspaces',
};

export function profileKeyOfTitle(title: string): ProfileKey | undefined {
  return PROFILE_KEYS.find((k) => PROFILE_TITLES[k] === title);
}

/** Lists are stored as one line, comma-separated. */
export const LIST_SEPARATOR = ', ';

/** File access for detection; the default reads the disk, tests may pass a map. */
export interface ProfileFs {
  read(rel: string): string | null;
  exists(rel: string): boolean;
  list(rel: string): string[];
}

const MAX_FILE = 512 * 1024;

export function diskFs(root: string): ProfileFs {
  return {
    read(rel) {
      try {
        const p = join(root, rel);
        const st = statSync(p); // a FIFO would block readFileSync: regular files only
        if (!st.isFile() || st.size > MAX_FILE) return null;
        return readFileSync(p, 'utf8');
      } catch {
        return null;
      }
    },
    exists: (rel) => existsSync(join(root, rel)),
    list(rel) {
      try {
        return readdirSync(join(root, rel));
      } catch {
        return [];
      }
    },
  };
}

// ---------------------------------------------------------------- small readers

type Toml = Record<string, Record<string, string>>;

/**
 * Enough TOML for manifests: `[section]` / `[[section]]` headers, `key = value` lines (values
 * kept raw; multi-line arrays joined). Nested tables are addressed by their dotted header.
 */
export function readTomlSections(text: string): Toml {
  const out: Toml = { '': {} };
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = stripTomlComment(lines[i]!).trim();
    if (!line) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      section = header[1]!.replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      out[section] = out[section] ?? {};
      continue;
    }
    const kv = /^("?[A-Za-z0-9_.-]+"?)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    let value = kv[2]!;
    let depth = bracketDepth(value);
    while (depth > 0 && i + 1 < lines.length) {
      i++;
      const next = stripTomlComment(lines[i]!).trim();
      value += ` ${next}`;
      depth += bracketDepth(next);
    }
    const table = out[section] ?? {};
    table[kv[1]!.replace(/"/g, '')] = value.trim();
    out[section] = table;
  }
  return out;
}

function stripTomlComment(line: string): string {
  let inStr: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === inStr) inStr = null;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function bracketDepth(s: string): number {
  let d = 0;
  let inStr: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === inStr) inStr = null;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === '[' || c === '{') d++;
    else if (c === ']' || c === '}') d--;
  }
  return d;
}

/** A TOML string value, or the strings of a TOML array. */
export function tomlString(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const m = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(raw.trim());
  return m ? (m[1] ?? m[2]) : undefined;
}

export function tomlStrings(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...raw.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => (m[1] ?? m[2] ?? '').trim());
}

function json(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function makeTargets(text: string | null): Set<string> {
  const out = new Set<string>();
  if (!text) return out;
  for (const m of text.matchAll(/^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:(?!=)/gm)) out.add(m[1]!);
  return out;
}

function uniq(xs: (string | undefined | null | false)[]): string[] {
  return [...new Set(xs.filter((x): x is string => typeof x === 'string' && x.length > 0))];
}

// ---------------------------------------------------------------- detection

const JS_FRAMEWORKS: [string, string][] = [
  ['next', 'Next.js'],
  ['nuxt', 'Nuxt'],
  ['@remix-run/react', 'Remix'],
  ['@sveltejs/kit', 'SvelteKit'],
  ['astro', 'Astro'],
  ['react', 'React'],
  ['vue', 'Vue'],
  ['svelte', 'Svelte'],
  ['solid-js', 'Solid'],
  ['preact', 'Preact'],
  ['@angular/core', 'Angular'],
  ['electron', 'Electron'],
  ['express', 'Express'],
  ['fastify', 'Fastify'],
  ['hono', 'Hono'],
  ['koa', 'Koa'],
  ['@nestjs/core', 'NestJS'],
  ['better-sqlite3', 'SQLite (better-sqlite3)'],
  ['prisma', 'Prisma'],
  ['@prisma/client', 'Prisma'],
  ['drizzle-orm', 'Drizzle'],
  ['vitest', 'Vitest'],
  ['jest', 'Jest'],
  ['mocha', 'Mocha'],
  ['@playwright/test', 'Playwright'],
  ['esbuild', 'esbuild'],
  ['vite', 'Vite'],
  ['webpack', 'webpack'],
];

const PY_FRAMEWORKS: [RegExp, string][] = [
  [/^django\b/i, 'Django'],
  [/^flask\b/i, 'Flask'],
  [/^fastapi\b/i, 'FastAPI'],
  [/^pydantic\b/i, 'Pydantic'],
  [/^sqlalchemy\b/i, 'SQLAlchemy'],
  [/^pytest\b/i, 'pytest'],
  [/^numpy\b/i, 'NumPy'],
  [/^pandas\b/i, 'pandas'],
  [/^torch\b/i, 'PyTorch'],
];

function nodeManager(pkg: Record<string, unknown> | null, fs: ProfileFs): string | undefined {
  const declared =
    typeof pkg?.packageManager === 'string' ? /^([a-z]+)@/.exec(pkg.packageManager)?.[1] : undefined;
  if (declared) return declared;
  if (fs.exists('pnpm-lock.yaml')) return 'pnpm';
  if (fs.exists('yarn.lock')) return 'yarn';
  if (fs.exists('bun.lockb') || fs.exists('bun.lock')) return 'bun';
  if (fs.exists('package-lock.json') || fs.exists('npm-shrinkwrap.json')) return 'npm';
  return pkg ? 'npm' : undefined;
}

function scriptCommand(pm: string, script: string): string {
  if (script === 'test' && pm !== 'bun') return `${pm} test`;
  if (pm === 'yarn') return `yarn ${script}`;
  return `${pm} run ${script}`;
}

function pythonManager(fs: ProfileFs, toml: Toml): string | undefined {
  if (fs.exists('uv.lock')) return 'uv';
  if (fs.exists('poetry.lock') || toml['tool.poetry']) return 'poetry';
  if (fs.exists('pdm.lock') || toml['tool.pdm']) return 'pdm';
  if (fs.exists('Pipfile.lock') || fs.exists('Pipfile')) return 'pipenv';
  if (toml['tool.hatch'] || toml['tool.hatch.envs.default']) return 'hatch';
  if (fs.exists('requirements.txt') || fs.exists('pyproject.toml') || fs.exists('setup.py')) return 'pip';
  return undefined;
}

function pyRun(pm: string | undefined, cmd: string): string {
  if (pm === 'uv') return `uv run ${cmd}`;
  if (pm === 'poetry') return `poetry run ${cmd}`;
  if (pm === 'pdm') return `pdm run ${cmd}`;
  if (pm === 'pipenv') return `pipenv run ${cmd}`;
  return cmd;
}

function nodeEntryPoints(pkg: Record<string, unknown>): string[] {
  const out: (string | undefined)[] = [];
  const bin = pkg.bin;
  if (typeof bin === 'string') out.push(bin);
  else for (const v of Object.values(obj(bin))) if (typeof v === 'string') out.push(v);
  const exp = pkg.exports;
  if (typeof exp === 'string') out.push(exp);
  else {
    const dot = obj(exp)['.'];
    if (typeof dot === 'string') out.push(dot);
    else {
      const d = obj(dot);
      for (const k of ['import', 'default', 'require', 'node'])
        if (typeof d[k] === 'string') {
          out.push(d[k] as string);
          break;
        }
    }
  }
  for (const k of ['main', 'module']) if (typeof pkg[k] === 'string') out.push(pkg[k] as string);
  return uniq(out.map((p) => p?.replace(/^\.\//, '')));
}

const CONVENTIONAL_ENTRIES = [
  'src/index.ts',
  'src/main.ts',
  'src/cli.ts',
  'src/index.js',
  'src/main.js',
  'index.ts',
  'index.js',
  'main.py',
  'app.py',
  'manage.py',
  '__main__.py',
  'src/main.rs',
  'src/lib.rs',
  'main.go',
  'cmd/main.go',
];

/** Detect the profile of the repository whose files `fs` reads; `root` names it. */
export function detectProfile(root: string, fs: ProfileFs = diskFs(root)): DetectedProfile {
  const out: DetectedProfile = {};
  const stack: string[] = [];
  const managers: string[] = [];
  const build: string[] = [];
  const test: string[] = [];
  const lint: string[] = [];
  const entries: string[] = [];
  const workspaces: string[] = [];
  let name: string | undefined;

  // Node / JavaScript / TypeScript
  const pkg = json(fs.read('package.json'));
  if (pkg) {
    if (typeof pkg.name === 'string') name ??= pkg.name;
    const deps = { ...obj(pkg.dependencies), ...obj(pkg.devDependencies), ...obj(pkg.peerDependencies) };
    stack.push(fs.exists('tsconfig.json') || 'typescript' in deps ? 'TypeScript' : 'JavaScript');
    stack.push(fs.exists('deno.json') ? 'Deno' : 'Node.js');
    for (const [dep, label] of JS_FRAMEWORKS) if (dep in deps) stack.push(label);
    const pm = nodeManager(pkg, fs) ?? 'npm';
    managers.push(pm);
    const scripts = obj(pkg.scripts);
    const has = (s: string) => typeof scripts[s] === 'string';
    if (has('build')) build.push(scriptCommand(pm, 'build'));
    if (has('test')) test.push(scriptCommand(pm, 'test'));
    for (const s of ['lint', 'check', 'typecheck']) if (has(s)) lint.push(scriptCommand(pm, s));
    entries.push(...nodeEntryPoints(pkg));
    const ws = pkg.workspaces;
    if (Array.isArray(ws)) workspaces.push(...ws.filter((x): x is string => typeof x === 'string'));
    else {
      const p = obj(ws).packages;
      if (Array.isArray(p)) workspaces.push(...p.filter((x): x is string => typeof x === 'string'));
    }
    const pnpmWs = fs.read('pnpm-workspace.yaml');
    if (pnpmWs)
      for (const m of pnpmWs.matchAll(/^\s*-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)) workspaces.push(m[1]!.trim());
  }

  // Python
  const pyText = fs.read('pyproject.toml');
  const py = pyText ? readTomlSections(pyText) : {};
  if (pyText || fs.exists('setup.py') || fs.exists('requirements.txt')) {
    name ??= tomlString(py.project?.name) ?? tomlString(py['tool.poetry']?.name);
    stack.push('Python');
    const deps = [
      ...tomlStrings(py.project?.dependencies),
      ...Object.values(py['project.optional-dependencies'] ?? {}).flatMap(tomlStrings),
      ...Object.values(py['dependency-groups'] ?? {}).flatMap(tomlStrings),
      ...Object.keys(py['tool.poetry.dependencies'] ?? {}),
      ...Object.keys(py['tool.poetry.group.dev.dependencies'] ?? {}),
      ...(fs.read('requirements.txt') ?? '').split(/\r?\n/),
    ].map((d) => d.trim());
    for (const [re, label] of PY_FRAMEWORKS) if (deps.some((d) => re.test(d))) stack.push(label);
    const pm = pythonManager(fs, py);
    if (pm) managers.push(pm);
    const usesPytest =
      deps.some((d) => /^pytest\b/i.test(d)) ||
      py['tool.pytest.ini_options'] !== undefined ||
      fs.exists('pytest.ini');
    if (usesPytest || fs.exists('tests')) test.push(pyRun(pm, 'pytest'));
    if (py['tool.ruff'] || fs.exists('ruff.toml') || deps.some((d) => /^ruff\b/i.test(d)))
      lint.push(pyRun(pm, 'ruff check .'));
    if (py['tool.mypy'] || deps.some((d) => /^mypy\b/i.test(d))) lint.push(pyRun(pm, 'mypy .'));
    if (pyText && py['build-system'])
      build.push(pm === 'uv' ? 'uv build' : pm === 'poetry' ? 'poetry build' : 'python -m build');
    entries.push(...Object.values(py['project.scripts'] ?? {}).map((v) => tomlString(v) ?? ''));
    entries.push(...Object.values(py['tool.poetry.scripts'] ?? {}).map((v) => tomlString(v) ?? ''));
  }

  // Rust
  const cargoText = fs.read('Cargo.toml');
  if (cargoText) {
    const cargo = readTomlSections(cargoText);
    name ??= tomlString(cargo.package?.name);
    stack.push('Rust');
    managers.push('cargo');
    build.push('cargo build');
    test.push('cargo test');
    lint.push('cargo clippy');
    workspaces.push(...tomlStrings(cargo.workspace?.members));
    const binPath = tomlString(cargo.bin?.path);
    if (binPath) entries.push(binPath);
  }

  // Go
  const goMod = fs.read('go.mod');
  if (goMod) {
    const mod = /^module\s+(\S+)/m.exec(goMod)?.[1];
    name ??= mod ? mod.split('/').pop() : undefined;
    stack.push('Go');
    managers.push('go modules');
    build.push('go build ./...');
    test.push('go test ./...');
    lint.push(
      fs.exists('.golangci.yml') || fs.exists('.golangci.yaml') ? 'golangci-lint run' : 'go vet ./...',
    );
    for (const d of fs.list('cmd')) if (fs.exists(`cmd/${d}/main.go`)) entries.push(`cmd/${d}/main.go`);
    const goWork = fs.read('go.work');
    if (goWork)
      for (const m of goWork.matchAll(/^\s*(?:use\s+)?(\.\/?[^\s()]*)\s*$/gm)) workspaces.push(m[1]!);
  }

  // Others, by their manifest
  if (fs.exists('Gemfile')) {
    stack.push('Ruby');
    managers.push('bundler');
    if (fs.exists('spec')) test.push('bundle exec rspec');
  }
  if (fs.exists('pom.xml')) {
    stack.push('Java');
    managers.push('maven');
    build.push('mvn package');
    test.push('mvn test');
  }
  if (fs.exists('build.gradle') || fs.exists('build.gradle.kts')) {
    stack.push(fs.exists('build.gradle.kts') ? 'Kotlin/JVM' : 'Java');
    managers.push('gradle');
    const gw = fs.exists('gradlew') ? './gradlew' : 'gradle';
    build.push(`${gw} build`);
    test.push(`${gw} test`);
  }
  if (fs.exists('composer.json')) {
    stack.push('PHP');
    managers.push('composer');
  }
  if (fs.exists('mix.exs')) {
    stack.push('Elixir');
    managers.push('mix');
    test.push('mix test');
  }
  if (fs.exists('Dockerfile')) stack.push('Docker');

  // A Makefile is the project's own interface: its targets come first.
  const targets = makeTargets(fs.read('Makefile') ?? fs.read('makefile') ?? fs.read('GNUmakefile'));
  if (targets.size > 0) {
    if (stack.length === 0) stack.push('Make');
    if (targets.has('build')) build.unshift('make build');
    else if (targets.has('all') && build.length === 0) build.push('make');
    if (targets.has('test')) test.unshift('make test');
    else if (targets.has('check') && test.length === 0) test.push('make check');
    if (targets.has('lint')) lint.unshift('make lint');
  }

  for (const f of CONVENTIONAL_ENTRIES) if (fs.exists(f)) entries.push(f);

  out.name = name ?? basename(root);
  const set = (key: ProfileKey, values: string[], max = 8) => {
    const v = uniq(values).slice(0, max);
    if (v.length > 0) out[key] = v.join(LIST_SEPARATOR).slice(0, 1000);
  };
  set('stack', stack, 12);
  set('package_manager', managers, 4);
  set('build', build, 1);
  set('test', test, 1);
  set('lint', lint, 2);
  set('entry_points', entries, 8);
  set('workspaces', workspaces, 20);
  return out;
}

// ---------------------------------------------------------------- refresh (rule-based supersession by key)

export interface ProfileChanges {
  project_id: string;
  created: ProfileKey[];
  updated: ProfileKey[];
  /** Keys no longer detected: their record is closed (superseded_at set, no successor). */
  retired: ProfileKey[];
  unchanged: ProfileKey[];
  profile: DetectedProfile;
}

/** The current profile record of each key in the working project (newest wins on duplicates). */
export function currentProfileRecords(deps: RecordsDeps): Map<ProfileKey, ContextRecord[]> {
  const rows = listRecords(deps.db, { namespaces: [deps.projectId], types: ['profile'] });
  const out = new Map<ProfileKey, ContextRecord[]>();
  for (const r of rows) {
    const key = profileKeyOfTitle(r.title);
    if (key) out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

/**
 * Detect the profile of `root` and bring the stored `profile` records of `deps.projectId` in
 * line, one record per key: a new key is created, a changed value supersedes the old record, a
 * vanished key is closed. Unchanged keys are not touched. One transaction; safe to call from
 * init, consolidation or a cwd change. Records are `hook_observation` / `explicit`: read from
 * files the developer wrote, not guessed.
 */
export function refreshProfile(
  deps: RecordsDeps,
  root: string,
  now: Date = deps.clock(),
  fs: ProfileFs = diskFs(root),
): ProfileChanges {
  const detected = detectProfile(root, fs);
  const at = { ...deps, clock: () => now };
  const changes: ProfileChanges = {
    project_id: deps.projectId,
    created: [],
    updated: [],
    retired: [],
    unchanged: [],
    profile: detected,
  };
  const run = deps.db.transaction(() => {
    const current = currentProfileRecords(deps);
    for (const key of PROFILE_KEYS) {
      const value = detected[key];
      const [head, ...dups] = current.get(key) ?? [];
      for (const d of dups) retire(deps, d.id, now);
      if (value === undefined) {
        if (head) {
          retire(deps, head.id, now);
          changes.retired.push(key);
        }
        continue;
      }
      if (head && head.body === value) {
        changes.unchanged.push(key);
        continue;
      }
      createRecord(at, {
        type: 'profile',
        title: PROFILE_TITLES[key],
        body: value,
        scope: 'project',
        confidence: 'explicit',
        source: 'hook_observation',
        supersedes: head?.id ?? null,
      });
      (head ? changes.updated : changes.created).push(key);
    }
  });
  run.immediate();
  return changes;
}

function retire(deps: RecordsDeps, id: string, now: Date): void {
  deps.db
    .prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL')
    .run(now.toISOString(), id);
}
