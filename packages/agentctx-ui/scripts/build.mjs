// Builds the dashboard: the server (Hono + the agentctx core, bundled from the sibling
// workspace's sources; SQLite is Node's own) and the Preact single-page app.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = JSON.parse(readFileSync(join(root, '..', 'agentctx', 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
mkdirSync(join(root, 'dist', 'web', 'assets'), { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: ['src/server/index.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['sqlite-vec', '@huggingface/transformers', 'onnxruntime-node'],
  define: { __AGENTCTX_VERSION__: JSON.stringify(core.version) },
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});

await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/web/main.tsx' },
  outdir: 'dist/web/assets',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});

copyFileSync(join(root, 'src', 'web', 'index.html'), join(root, 'dist', 'web', 'index.html'));
