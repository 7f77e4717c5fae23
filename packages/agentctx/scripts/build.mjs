// Bundles the entry points with esbuild. SQLite is Node's own (node:sqlite) and everything else
// is bundled, so the published package has no runtime dependency.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The hook bundle is CommonJS: required from the CommonJS bin, it never starts Node's ESM
// loader, a large part of what a hook costs beyond `node -e 0`.
const entries = [
  // split: each command, and what only it uses (the Anthropic SDK, zod), is a chunk of its own
  // under dist/cli/, loaded when that command runs
  { src: 'src/cli-entry.ts', format: 'esm', out: 'dist/cli.js', split: true },
  { src: 'src/hook-entry.ts', format: 'cjs', out: 'dist/hook.cjs' },
  // CommonJS too: the bin runs it through the V8 code cache, as it runs the hooks (compiling the
  // ESM bundle was about 100 ms of every MCP start)
  { src: 'src/mcp-entry.ts', format: 'cjs', out: 'dist/mcp.cjs' },
  // the SQLite driver alone, for the scripts and test helpers that open a store from plain
  // JavaScript (benchmarks, a lock holder in another process): the same module as the bundles'
  { src: 'src/database/sqlite.ts', format: 'cjs', out: 'dist/sqlite.cjs' },
  // the declared export `@agentctxhq/agentctx/ui-core`: the core the dashboard runs on
  { src: 'src/ui-core.ts', format: 'esm', out: 'dist/ui-core.js' },
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
    hook: true,
  });
}

// dist/ is not wiped first: esbuild overwrites each output whole, and tests running from
// another shell keep a working binary while a build runs.
for (const { src, stdin, format, out, hook, split } of entries) {
  if (src && !existsSync(join(root, src))) continue;
  // a build's chunks replace the last build's whole (their names carry content hashes)
  if (split) rmSync(join(root, 'dist', 'cli'), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    ...(src ? { entryPoints: split ? { cli: src } : [src] } : { stdin }),
    ...(split ? { outdir: 'dist', splitting: true, chunkNames: 'cli/[name]-[hash]' } : { outfile: out }),
    bundle: true,
    platform: 'node',
    format,
    target: 'node22',
    plugins: hook ? [lazyBuiltins] : [],
    external: ['sqlite-vec', '@huggingface/transformers', 'onnxruntime-node'],
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

// The benchmarks (src/bench/entries, `npm run bench…`): one esbuild run for all of them, each
// entry its own file under dist/bench/ (not published: package.json's `files` leaves it out).
// Packages stay external (the MCP SDK client and the optional packages resolve from
// node_modules, as they do in a checkout), so the bundles hold our code only and build in a
// fraction of a second.
const BENCH_ENTRIES = [
  'src/bench/entries/agent-hooks.ts',
  'src/bench/entries/all.ts',
  'src/bench/entries/backfill.ts',
  'src/bench/entries/claudemd.ts',
  'src/bench/entries/cli-start.ts',
  'src/bench/entries/consolidate.ts',
  'src/bench/entries/faults.ts',
  'src/bench/entries/hooks.ts',
  'src/bench/entries/install-size.ts',
  'src/bench/entries/lock-attribution.ts',
  'src/bench/entries/mcp.ts',
  'src/bench/entries/mcp-growth.ts',
  'src/bench/entries/mcp-memory.ts',
  'src/bench/entries/mcp-start.ts',
  'src/bench/entries/plugin-hooks.ts',
  'src/bench/entries/profile-hook.ts',
  'src/bench/entries/profile-mcp-search.ts',
  'src/bench/entries/retrieval.ts',
  'src/bench/entries/scale.ts',
  'src/bench/entries/scrub.ts',
  'src/bench/entries/token-tax.ts',
  'src/bench/entries/versus.ts',
];
await build({
  absWorkingDir: root,
  entryPoints: BENCH_ENTRIES,
  outdir: 'dist/bench',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  define: { __AGENTCTX_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: esmBanner },
  legalComments: 'none',
  logLevel: 'warning',
});
