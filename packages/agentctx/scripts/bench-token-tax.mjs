#!/usr/bin/env node
// The token tax of a typical session: what agentctx injects at SessionStart and per prompt.
// Seeds a throwaway store with one project of the committed dev-memory dataset, runs the real
// `agentctx consolidate` (which writes the digest), then one session through the built hooks:
// session-start, then every query of that project as a prompt. Reads the figures back from the
// store's own accounting (sessions.tokens_injected) and from the hook output.
// Usage: node scripts/bench-token-tax.mjs [--project shop-api] [--json]   (run `npm run build` first)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'bin', 'agentctx.cjs');
const argv = process.argv.slice(2);
const json = argv.includes('--json');
const pi = argv.indexOf('--project');
const projectName = pi >= 0 ? argv[pi + 1] : 'shop-api';
const dataset = JSON.parse(readFileSync(join(root, 'bench', 'dev-memory.json'), 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'agentctx-tax-'));
const repo = join(work, projectName);
mkdirSync(join(repo, '.git'), { recursive: true });
const remote = `git@github.com:bench/${projectName}.git`;
writeFileSync(join(repo, '.git', 'config'), `[remote "origin"]\n\turl = ${remote}\n`);
const env = {
  PATH: process.env.PATH,
  HOME: work,
  AGENTCTX_HOME: join(work, '.agentctx'),
  AGENTCTX_TMPDIR: work,
};

function run(args, input = '') {
  const res = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, input, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`agentctx ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

try {
  run(['status', '--json']); // creates the store
  const projectId = createHash('sha256').update(`github.com/bench/${projectName}`).digest('hex');
  const db = new Database(join(work, '.agentctx', 'agentctx.db'));
  const insert = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source, superseded_at)
     VALUES (?, ?, ?, ?, ?, 'project', 'explicit', ?, ?, 'import', ?)`,
  );
  // a store keeps one current handover per project: older ones go in superseded by the newest
  const records = dataset.records.filter((r) => r.project === projectName);
  const handovers = records.filter((r) => r.type === 'handover').map((r) => r.valid_from);
  const newestHandover = handovers.sort().at(-1);
  db.transaction(() => {
    records.forEach((r, i) => {
      const id = `01JBENCH${String(i).padStart(18, '0')}`;
      const closed = r.type === 'handover' && r.valid_from !== newestHandover ? newestHandover : null;
      insert.run(id, projectId, r.type, r.title, r.body, r.valid_from, r.valid_from, closed);
    });
  })();
  db.close();
  run(['consolidate', '--cwd', repo, '--json']);

  const sessionId = 'bench-token-tax';
  const base = {
    session_id: sessionId,
    transcript_path: join(work, 't.jsonl'),
    cwd: repo,
    permission_mode: 'default',
  };
  const contextOf = (out) => {
    if (!out.trim()) return '';
    const parsed = JSON.parse(out);
    return parsed.hookSpecificOutput?.additionalContext ?? '';
  };
  const start = contextOf(
    run(
      ['hook', 'session-start'],
      JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    ),
  );
  const tokensAfter = () => {
    const d = new Database(join(work, '.agentctx', 'agentctx.db'), { readonly: true });
    const row = d.prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?').get(sessionId);
    d.close();
    return row?.tokens_injected ?? 0;
  };
  // The injecting hooks keep their estimates in the session state file; Stop, at the end of
  // each turn, writes them to the store. SessionStart's is there before the first turn.
  const state = JSON.parse(readFileSync(join(work, `agentctx-${sessionId}.json`), 'utf8'));
  const startTokens = tokensAfter() + (state.pendingTokens ?? 0);
  // a Stop without a transcript path: the turn's accounting, no extraction started
  const endTurn = () =>
    run(['hook', 'stop'], JSON.stringify({ session_id: sessionId, cwd: repo, hook_event_name: 'Stop' }));
  const prompts = dataset.queries.filter((q) => q.project === projectName).map((q) => q.query);
  const perPrompt = [];
  let last = startTokens;
  for (const prompt of prompts) {
    const ctx = contextOf(
      run(
        ['hook', 'user-prompt-submit'],
        JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt }),
      ),
    );
    endTurn();
    const now = tokensAfter();
    perPrompt.push({ tokens: now - last, chars: ctx.length });
    last = now;
  }
  const toks = perPrompt.map((p) => p.tokens).sort((a, b) => a - b);
  const median = toks[Math.floor(toks.length / 2)] ?? 0;
  const result = {
    project: projectName,
    records: records.length,
    session_start: { tokens: startTokens, chars: start.length },
    prompts: prompts.length,
    prompts_with_injection: perPrompt.filter((p) => p.tokens > 0).length,
    per_prompt_tokens: {
      median,
      mean: Math.round(toks.reduce((a, b) => a + b, 0) / Math.max(1, toks.length)),
      max: toks[toks.length - 1] ?? 0,
    },
    session_total_tokens: last,
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`Token tax of one session over the "${projectName}" project (${records.length} records)`);
    console.log(
      `  SessionStart digest:        ${result.session_start.tokens} tokens (${start.length} chars)`,
    );
    console.log(
      `  per prompt (${prompts.length} prompts): median ${median}, mean ${result.per_prompt_tokens.mean}, max ${result.per_prompt_tokens.max} tokens; ${result.prompts_with_injection} prompts injected something`,
    );
    console.log(`  whole session:              ${last} tokens injected (session-deduplicated)`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
