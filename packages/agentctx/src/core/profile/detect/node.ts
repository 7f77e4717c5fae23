import { type Findings, uniq } from './findings.js';
import type { ProfileFs } from './profile-fs.js';

/** Node / JavaScript / TypeScript: package.json, its scripts, lockfiles and workspaces. */

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

export function detectNode(fs: ProfileFs, f: Findings): void {
  const pkg = json(fs.read('package.json'));
  if (!pkg) return;
  if (typeof pkg.name === 'string') f.name ??= pkg.name;
  const deps = { ...obj(pkg.dependencies), ...obj(pkg.devDependencies), ...obj(pkg.peerDependencies) };
  f.stack.push(fs.exists('tsconfig.json') || 'typescript' in deps ? 'TypeScript' : 'JavaScript');
  f.stack.push(fs.exists('deno.json') ? 'Deno' : 'Node.js');
  for (const [dep, label] of JS_FRAMEWORKS) if (dep in deps) f.stack.push(label);
  const pm = nodeManager(pkg, fs) ?? 'npm';
  f.managers.push(pm);
  const scripts = obj(pkg.scripts);
  const has = (s: string) => typeof scripts[s] === 'string';
  if (has('build')) f.build.push(scriptCommand(pm, 'build'));
  if (has('test')) f.test.push(scriptCommand(pm, 'test'));
  for (const s of ['lint', 'check', 'typecheck']) if (has(s)) f.lint.push(scriptCommand(pm, s));
  f.entries.push(...nodeEntryPoints(pkg));
  const ws = pkg.workspaces;
  if (Array.isArray(ws)) f.workspaces.push(...ws.filter((x): x is string => typeof x === 'string'));
  else {
    const p = obj(ws).packages;
    if (Array.isArray(p)) f.workspaces.push(...p.filter((x): x is string => typeof x === 'string'));
  }
  const pnpmWs = fs.read('pnpm-workspace.yaml');
  if (pnpmWs)
    for (const m of pnpmWs.matchAll(/^\s*-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)) f.workspaces.push(m[1]!.trim());
}
