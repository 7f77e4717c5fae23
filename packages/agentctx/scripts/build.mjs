// Bundles the three entry points with esbuild. better-sqlite3 (native) stays external;
// everything else is bundled so the published package has one runtime dependency.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = { cli: 'src/cli-entry.ts', hook: 'src/hook-entry.ts', mcp: 'src/mcp-entry.ts' };

// dist/ is not wiped first: esbuild overwrites each output whole, and tests running from
// another shell keep a working binary while a build runs.
for (const [name, src] of Object.entries(entries)) {
  if (!existsSync(join(root, src))) continue;
  await build({
    absWorkingDir: root,
    entryPoints: [src],
    outfile: `dist/${name}.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'sqlite-vec', '@huggingface/transformers', 'onnxruntime-node'],
    define: { __AGENTCTX_VERSION__: JSON.stringify(pkg.version) },
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
}
