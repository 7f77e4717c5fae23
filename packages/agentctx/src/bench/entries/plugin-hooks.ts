// Hook latency through the Claude Code plugin against the same hook as `agentctx init`
// registers it. Claude Code runs a hook's command through a shell, so both are timed that way:
//   init:   sh -c 'agentctx hook user-prompt-submit'            (agentctx on PATH)
//   plugin: sh -c '"<plugin>/bin/agentctx-plugin-run" hook user-prompt-submit'
// plus the plugin's hook standing aside (init's entry present) and the launcher with no agentctx
// installed. Interleaved rounds on a 1,000-record store; prints medians.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { prepareStore, SHORT } from '../hook-store.js';
import { BIN, PACKAGE_ROOT } from '../paths.js';
import { median, timeProcess } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:plugin-hooks',
  summary: "The plugin's prompt hook against init's, through a shell.",
  options: { rounds: { kind: 'int', default: 31, help: 'measured rounds (after two of warm-up)' } },
});
const { rounds: ROUNDS } = parseOrExit(cmd).values;
const LAUNCHER = join(PACKAGE_ROOT, '..', '..', 'plugin', 'bin', 'agentctx-plugin-run');

const time = (command: string, input: string, env: NodeJS.ProcessEnv, cwd: string) =>
  timeProcess('/bin/sh', ['-c', command], input, env, cwd);

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-plugin-'));
try {
  const { env: base, home, repo } = prepareStore(dir, 1000);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(BIN, join(bin, 'agentctx'));
  const path = [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  const env = { ...base, PATH: path, CLAUDE_PROJECT_DIR: repo, CLAUDE_CONFIG_DIR: join(home, '.claude') };
  const bare = { ...env, PATH: '/usr/bin:/bin' };
  const asideHome = join(dir, 'aside-claude');
  mkdirSync(asideHome, { recursive: true });
  writeFileSync(
    join(asideHome, 'settings.json'),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'agentctx hook user-prompt-submit' }] }],
      },
    }),
  );
  const aside = { ...env, CLAUDE_CONFIG_DIR: asideHome };
  const samples = {
    sh: [] as number[],
    init: [] as number[],
    plugin: [] as number[],
    aside: [] as number[],
    missing: [] as number[],
  };
  const injected = { init: 0, plugin: 0 };
  for (let r = 0; r < ROUNDS + 2; r++) {
    const payload = (sid: string) =>
      JSON.stringify({
        session_id: `${sid}-${r}`,
        transcript_path: '/dev/null',
        cwd: repo,
        hook_event_name: 'UserPromptSubmit',
        prompt: SHORT,
      });
    const s = time('true', '', env, repo);
    const a = time('agentctx hook user-prompt-submit', payload('init'), env, repo);
    const b = time(`"${LAUNCHER}" hook user-prompt-submit`, payload('plugin'), env, repo);
    const c = time(`"${LAUNCHER}" hook user-prompt-submit`, payload('aside'), aside, repo);
    const d = time(`"${LAUNCHER}" hook user-prompt-submit`, payload('missing'), bare, repo);
    if (r < 2) continue; // warm-up: code caches, page cache
    samples.sh.push(s.ms);
    samples.init.push(a.ms);
    samples.plugin.push(b.ms);
    samples.aside.push(c.ms);
    samples.missing.push(d.ms);
    if (a.out.includes('additionalContext')) injected.init++;
    if (b.out.includes('additionalContext')) injected.plugin++;
    if (c.out !== '' || d.out !== '') throw new Error('a hook that stands aside printed something');
  }
  const f = (xs: number[]) => `${median(xs).toFixed(1)} ms`;
  console.log(`node ${process.version}, ${ROUNDS} rounds, UserPromptSubmit on a 1,000-record store`);
  console.log(`sh -c true                         ${f(samples.sh)}`);
  console.log(`init   (agentctx hook …)           ${f(samples.init)}  (injected ${injected.init}/${ROUNDS})`);
  console.log(
    `plugin (launcher → agentctx)       ${f(samples.plugin)}  (injected ${injected.plugin}/${ROUNDS})`,
  );
  console.log(`plugin, standing aside for init    ${f(samples.aside)}`);
  console.log(`plugin, agentctx not installed     ${f(samples.missing)}`);
  console.log(
    `plugin − init                      ${(median(samples.plugin) - median(samples.init)).toFixed(1)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
