// Retrieval benchmark: bundles src/bench/main.ts (the same engine code the hooks use) and runs it.
//   npm run bench:retrieval -- --dataset FILE [--path hook|mcp|engine] [--split all|tune|validate] [--json]
//   npm run bench:retrieval -- --dataset FILE --usage-feedback   (the usage factor of the score, before/after)
//   npm run bench:retrieval -- --latency 10000,100000
//   npm run bench:retrieval -- --dataset FILE --hybrid --model-path DIR [--model NAME]
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Under node_modules so that the optional packages (external) resolve from the bundle.
const outDir = join(root, 'node_modules', '.cache', 'agentctx-bench');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, `bench-${process.pid}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: ['src/bench/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['sqlite-vec', '@huggingface/transformers', 'onnxruntime-node'],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
const { main } = await import(pathToFileURL(outfile).href);
const { rmSync } = await import('node:fs');
rmSync(outfile, { force: true });
process.exitCode = await main(process.argv.slice(2));
