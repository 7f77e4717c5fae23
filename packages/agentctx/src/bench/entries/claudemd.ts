// A CLAUDE.md for the scale benchmark's first project (issue 20): the benchmark's repositories
// have none, so its consolidation skips the drift step. This writes <store>/repo0/CLAUDE.md from
// 120 of that project's explicit or reinforced decisions and conventions (alternately a title
// and a body's first line), so that a rerun of `bench:scale --store <store>` times the step.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../database/open.js';
import { defineCommand, KEPT_STORE, parseOrExit } from '../args.js';
import { BIN, benchEnv, storePath } from '../paths.js';

const cmd = defineCommand({
  name: 'bench:claudemd',
  summary: "Write a CLAUDE.md from repo0's records into a store kept by bench:scale --keep.",
  options: {
    store: KEPT_STORE,
    bin: { kind: 'string', default: BIN, help: 'the agentctx bin', value: 'PATH' },
  },
});
const { store, bin } = parseOrExit(cmd).values;
const repo = join(store, 'repo0');
const home = join(store, 'home');
const status = spawnSync(process.execPath, [bin, 'status', '--json'], {
  cwd: repo,
  env: benchEnv(home),
  encoding: 'utf8',
});
if (status.status !== 0) throw new Error(`agentctx status failed: ${status.stderr}`);
const projectId = (JSON.parse(status.stdout) as { project_id: string }).project_id;
const db = openDb(storePath(home), { readonly: true });
const rows = db
  .prepare(
    `SELECT title, body FROM records WHERE project_id = ? AND superseded_at IS NULL
     AND type IN ('decision', 'convention') AND confidence IN ('explicit', 'reinforced') ORDER BY id LIMIT 120`,
  )
  .all(projectId) as { title: string; body: string }[];
db.close();
const lines = ['# Project notes', '', '## Conventions', ''];
for (const [i, r] of rows.entries())
  lines.push(`- ${i % 2 ? r.title : (r.body.split('\n')[0] ?? '').slice(0, 160)}`);
lines.push('', '## Build', '', 'Run `npm run build` before the tests.', '');
writeFileSync(join(repo, 'CLAUDE.md'), lines.join('\n'));
console.log(`wrote ${join(repo, 'CLAUDE.md')}: ${rows.length} lines from project ${projectId}`);
