// Bundles the three entry points with esbuild. better-sqlite3 (native) stays external;
// everything else is bundled so the published package has one runtime dependency.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The hook bundle is CommonJS: required from the CommonJS bin, it never starts Node's ESM
// loader, a large part of what a hook costs beyond `node -e 0`.
const entries = [
  { src: 'src/cli-entry.ts', format: 'esm', out: 'dist/cli.js' },
  { src: 'src/hook-entry.ts', format: 'cjs', out: 'dist/hook.cjs' },
  // CommonJS too: the bin runs it through the V8 code cache, as it runs the hooks (compiling the
  // ESM bundle was about 100 ms of every MCP start)
  { src: 'src/mcp-entry.ts', format: 'cjs', out: 'dist/mcp.cjs', mcp: true },
  // better-sqlite3's JavaScript for the hook bundles that do not carry it (SessionStart,
  // CwdChanged, dist/hook.cjs), required only when one of them opens the store
  { src: 'src/hooks/sqlite-driver.ts', format: 'cjs', out: 'dist/sqlite-driver.cjs', bundleSqlite: true },
];
const esmBanner =
  "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";
// In CommonJS output `import.meta.url` is rewritten to this, derived from __filename when used.
const cjsBanner =
  "const __agentctx_meta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };";

// In the hook bundles, node:os and node:module (not loaded by Node's own start-up; a few
// tenths of a millisecond each) are required on first use instead of at load.
const LAZY_BUILTINS = { 'node:os': ['homedir', 'tmpdir'], 'node:module': ['createRequire'] };
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(os|module)$/ }, (args) =>
      // the shim's own require is the real module
      args.namespace === 'lazy-builtin' ? undefined : { path: args.path, namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: [
        `let mod; const get = () => (mod ??= require(${JSON.stringify(args.path)}));`,
        ...LAZY_BUILTINS[args.path].map((name) => `export const ${name} = (...a) => get().${name}(...a);`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};

// One small bundle per hook event, holding that event's handler only: a hook start reads,
// deserialises and initialises only what its event runs (the bin picks dist/hook-<event>.cjs).
// The events are read from HOOK_NAMES in src/hooks/event.ts.
const HOOK_EVENTS = (() => {
  const src = readFileSync(join(root, 'src', 'hooks', 'event.ts'), 'utf8');
  const list = /export const HOOK_NAMES = \[([^\]]*)\]/.exec(src)?.[1];
  const names = [...(list ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
  if (names.length === 0) throw new Error('build: no HOOK_NAMES in src/hooks/event.ts');
  return names;
})();
// Events that always open the store carry better-sqlite3's JavaScript inside (initialised on
// first use); the others load dist/sqlite-driver.cjs if they ever need it.
const STORE_EVENTS = new Set([
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-tool-use',
  'session-end',
  'subagent-start',
]);
const inlineDriver = {
  name: 'inline-sqlite-driver',
  setup(b) {
    b.onResolve({ filter: /^\.\/sqlite-driver\.cjs$/ }, () => ({
      path: join(root, 'src/hooks/sqlite-driver.ts'),
    }));
  },
};
// In the MCP bundle, `better-sqlite3` is a stand-in that loads the driver when the store is first
// opened (after the server answers, while the client finishes its handshake) rather than at
// start-up, and loads it as the hooks do: better-sqlite3's JavaScript from dist/sqlite-driver.cjs
// (one file, through the bin's code cache) and its native addon by path, skipping the `bindings`
// lookup. Where either is missing, the installed package is required as usual.
const lazySqlite = {
  name: 'lazy-sqlite',
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.namespace === 'lazy-sqlite'
        ? { path: 'better-sqlite3', external: true }
        : { path: 'driver', namespace: 'lazy-sqlite' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-sqlite' }, () => ({
      contents: `
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
let loaded;
function load() {
  if (loaded) return loaded;
  let addon = null;
  for (let d = __dirname; ; d = dirname(d)) {
    const p = join(d, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (existsSync(p)) { addon = p; break; }
    if (dirname(d) === d) break;
  }
  let ctor = null;
  if (addon) {
    try { const m = require('./sqlite-driver.cjs'); ctor = m.default ?? m; } catch { ctor = null; }
  }
  if (typeof ctor !== 'function') { ctor = require('better-sqlite3'); addon = null; }
  loaded = { ctor, addon };
  return loaded;
}
module.exports = function Database(path, opts) {
  const { ctor, addon } = load();
  return new ctor(path, addon && !(opts && opts.nativeBinding) ? { ...opts, nativeBinding: addon } : opts);
};`,
      loader: 'js',
      resolveDir: join(root, 'dist'),
    }));
  },
};
const camel = (s) => s.replace(/-(\w)/g, (_, c) => c.toUpperCase());
for (const event of HOOK_EVENTS) {
  entries.push({
    stdin: {
      contents: [
        `import { runHandler, startHook } from './src/hooks/runner.ts';`,
        `import { ${camel(event)} } from './src/hooks/handlers/${event}.ts';`,
        `startHook(() => runHandler('${event}', ${camel(event)}));`,
      ].join('\n'),
      resolveDir: root,
      sourcefile: `hook-${event}.ts`,
      loader: 'ts',
    },
    format: 'cjs',
    out: `dist/hook-${event}.cjs`,
    inlineSqlite: STORE_EVENTS.has(event),
    hook: true,
  });
}

// dist/ is not wiped first: esbuild overwrites each output whole, and tests running from
// another shell keep a working binary while a build runs.
for (const { src, stdin, format, out, bundleSqlite, inlineSqlite, hook, mcp } of entries) {
  if (src && !existsSync(join(root, src))) continue;
  await build({
    absWorkingDir: root,
    ...(src ? { entryPoints: [src] } : { stdin }),
    outfile: out,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    plugins: [
      ...(inlineSqlite ? [inlineDriver] : []),
      ...(hook ? [lazyBuiltins] : []),
      ...(mcp ? [lazySqlite] : []),
    ],
    external: [
      ...(bundleSqlite || inlineSqlite ? [] : ['better-sqlite3', './sqlite-driver.cjs']),
      'sqlite-vec',
      '@huggingface/transformers',
      'onnxruntime-node',
    ],
    define: {
      __AGENTCTX_VERSION__: JSON.stringify(pkg.version),
      ...(format === 'cjs' ? { 'import.meta.url': '__agentctx_meta.url' } : {}),
    },
    banner: { js: format === 'cjs' ? cjsBanner : esmBanner },
    // the bin runs CommonJS bundles in a vm.Script, where import() has no loader: the optional
    // packages (sqlite-vec, the embedding runtime) are required instead (both ship CommonJS)
    ...(format === 'cjs' ? { supported: { 'dynamic-import': false } } : {}),
    // the hook bundle is compiled on every hook start: fewer bytes, less compile time
    minifyWhitespace: format === 'cjs',
    minifySyntax: format === 'cjs',
    legalComments: 'none',
    logLevel: 'warning',
  });
}
