// Builds the dashboard: the server (Hono, bundled; the agentctx core stays the installed CLI's,
// imported through its declared export `@agentctxhq/agentctx/ui-core`) and the Preact single-page app.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ui = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

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
  // the core is the installed CLI's (its declared export), never bundled here
  external: ['@agentctxhq/agentctx', '@agentctxhq/agentctx/*'],
  define: { __AGENTCTX_UI_VERSION__: JSON.stringify(ui.version) },
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
