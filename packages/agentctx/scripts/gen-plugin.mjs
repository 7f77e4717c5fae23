// Writes the plugin's generated files at the repository root: Claude Code's (plugin/hooks/hooks.json,
// plugin/.mcp.json) from src/claude/plugin-files.ts and Codex's (plugin/hooks/codex-hooks.json,
// plugin/codex-mcp.json) from src/codex/plugin-files.ts, i.e. from the hook tables `agentctx init`
// uses. Run after changing HOOK_SPECS: `npm run gen:plugin`. `--check` only compares.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pluginDir = join(root, '..', '..', 'plugin');
const out = join(tmpdir(), `agentctx-gen-plugin-${process.pid}.mjs`);
await build({
  stdin: {
    contents: [
      "export { generatedPluginFiles } from './src/claude/plugin-files.ts';",
      "export { generatedCodexPluginFiles } from './src/codex/plugin-files.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: out,
  logLevel: 'warning',
});
let files;
try {
  const m = await import(pathToFileURL(out).href);
  files = { ...m.generatedPluginFiles(), ...m.generatedCodexPluginFiles() };
} finally {
  rmSync(out, { force: true });
}
const check = process.argv.includes('--check');
let stale = 0;
for (const [rel, text] of Object.entries(files)) {
  const path = join(pluginDir, rel);
  let current = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = null;
  }
  if (current === text) continue;
  stale++;
  if (check) {
    process.stderr.write(`plugin/${rel} is not what the hook table generates; run npm run gen:plugin\n`);
    continue;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  process.stdout.write(`wrote plugin/${rel}\n`);
}
if (check && stale > 0) process.exit(1);
