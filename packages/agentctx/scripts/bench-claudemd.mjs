// A CLAUDE.md for the scale benchmark's first project (issue 20): the benchmark's repositories
// have none, so its consolidation skips the drift step. This writes <store>/repo0/CLAUDE.md from
// 120 of that project's explicit or reinforced decisions and conventions (alternately a title
// and a body's first line), so that a rerun of `bench-scale.mjs --store <store>` times the step.
// Usage: node scripts/bench-claudemd.mjs <store kept by bench-scale --keep> [--bin path]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Db: Database } = createRequire(import.meta.url)('../dist/sqlite.cjs');
const store = process.argv[2];
if (!store) throw new Error('usage: node scripts/bench-claudemd.mjs <store> [--bin path]');
const at = process.argv.indexOf('--bin');
const bin = at > 0 ? process.argv[at + 1] : join(root, 'bin', 'agentctx.cjs');
const repo = join(store, 'repo0');
const home = join(store, 'home');
const env = { ...process.env, HOME: home, AGENTCTX_HOME: join(home, '.agentctx') };
const status = spawnSync(process.execPath, [bin, 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
if (status.status !== 0) throw new Error(`agentctx status failed: ${status.stderr}`);
const projectId = JSON.parse(status.stdout).project_id;
const db = new Database(join(home, '.agentctx', 'agentctx.db'), { readonly: true });
const rows = db
  .prepare(
    `SELECT title, body FROM records WHERE project_id = ? AND superseded_at IS NULL
     AND type IN ('decision', 'convention') AND confidence IN ('explicit', 'reinforced') ORDER BY id LIMIT 120`,
  )
  .all(projectId);
db.close();
const lines = ['# Project notes', '', '## Conventions', ''];
for (const [i, r] of rows.entries()) lines.push(`- ${i % 2 ? r.title : r.body.split('\n')[0].slice(0, 160)}`);
lines.push('', '## Build', '', 'Run `npm run build` before the tests.', '');
writeFileSync(join(repo, 'CLAUDE.md'), lines.join('\n'));
console.log(`wrote ${join(repo, 'CLAUDE.md')}: ${rows.length} lines from project ${projectId}`);
