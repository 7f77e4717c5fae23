// The token tax of a typical session: what agentctx injects at SessionStart and per prompt.
// Seeds a throwaway store with one project of the committed dev-memory dataset, runs the real
// `agentctx consolidate` (which writes the digest), then one session through the built hooks:
// session-start, then every query of that project as a prompt. Reads the figures back from the
// store's own accounting (sessions.tokens_injected) and from the hook output.
// Then the value side: a transcript of that session in Claude Code's format, where a simulated
// assistant answers each prompt from the records relevant to it (the dataset's gold) that it was
// shown, and ignores the rest; `agentctx extract` judges it with the "used" rule and
// `agentctx status` reports the share of the injected tokens that went to used records.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../database/open.js';
import { defineCommand, parseOrExit, usageError } from '../args.js';
import { type BenchRecord, parseDataset } from '../dataset.js';
import { BIN, bareEnv, fakeRepo, PACKAGE_ROOT, storePath } from '../paths.js';
import { seedStore } from '../seed.js';
import { serialId } from '../text.js';

const cmd = defineCommand({
  name: 'bench:token-tax',
  summary: 'The tokens one session of a dev-memory project costs, and the share used.',
  options: {
    project: { kind: 'string', default: 'shop-api', help: 'the dev-memory project', value: 'NAME' },
    json: { kind: 'flag', help: 'print the figures as JSON' },
  },
});
const { project: projectName, json } = parseOrExit(cmd).values;
const dataset = parseDataset(
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'bench', 'dev-memory.json'), 'utf8')),
);
const records = dataset.records.filter((r) => r.project === projectName);
if (records.length === 0)
  usageError(
    cmd,
    `no project ${JSON.stringify(projectName)} in bench/dev-memory.json (${[...new Set(dataset.records.map((r) => r.project))].join(', ')})`,
  );

const work = mkdtempSync(join(tmpdir(), 'agentctx-tax-'));
const repo = fakeRepo(join(work, projectName), `git@github.com:bench/${projectName}.git`);
const env = bareEnv(work, { AGENTCTX_TMPDIR: work });
const dbPath = storePath(work);

function run(args: string[], input = ''): string {
  const res = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, input, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`agentctx ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}
const readOnly = <T>(f: (db: ReturnType<typeof openDb>) => T): T => {
  const db = openDb(dbPath, { readonly: true });
  try {
    return f(db);
  } finally {
    db.close();
  }
};

try {
  run(['status', '--json']); // creates the store
  const projectId = createHash('sha256').update(`github.com/bench/${projectName}`).digest('hex');
  // a store keeps one current handover per project: the latest; the others go in as history
  const lastHandover = records
    .filter((r) => r.type === 'handover')
    .reduce<BenchRecord | null>((a, b) => (!a || b.valid_from > a.valid_from ? b : a), null);
  const benchId = new Map(records.map((r, i) => [r.id, serialId('01JBENCH', i)]));
  seedStore(
    dbPath,
    records.map((r) => ({
      id: benchId.get(r.id) as string,
      project_id: projectId,
      type: r.type,
      title: r.title,
      body: r.body,
      valid_from: r.valid_from,
      superseded_at: r.type === 'handover' && r !== lastHandover ? (lastHandover?.valid_from ?? null) : null,
    })),
  );
  run(['consolidate', '--cwd', repo, '--json']);

  const sessionId = 'bench-token-tax';
  const base = {
    session_id: sessionId,
    transcript_path: join(work, 't.jsonl'),
    cwd: repo,
    permission_mode: 'default',
  };
  const contextOf = (out: string): string =>
    out.trim()
      ? ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput
          ?.additionalContext ?? '')
      : '';
  const start = contextOf(
    run(
      ['hook', 'session-start'],
      JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    ),
  );
  const tokensAfter = () =>
    readOnly(
      (db) =>
        (
          db.prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?').get(sessionId) as
            | { tokens_injected: number }
            | undefined
        )?.tokens_injected ?? 0,
    );
  // The injecting hooks keep their estimates in the session state file; Stop, at the end of
  // each turn, writes them to the store. SessionStart's is there before the first turn.
  // a Stop without a transcript path: the turn's accounting (the journal folded), no extraction
  const endTurn = () =>
    run(['hook', 'stop'], JSON.stringify({ session_id: sessionId, cwd: repo, hook_event_name: 'Stop' }));
  endTurn();
  const startTokens = tokensAfter();
  const queries = dataset.queries.filter((q) => q.project === projectName);
  const perPrompt: { tokens: number; chars: number }[] = [];
  let last = startTokens;
  const byBenchId = new Map(records.map((r) => [benchId.get(r.id), r]));
  const shownSoFar = new Set([...start.matchAll(/01JBENCH\d{18}/g)].map((m) => m[0]));
  // the digest names its records by title, not id: those titles count as shown too
  for (const r of records) if (start.includes(r.title)) shownSoFar.add(benchId.get(r.id) as string);
  const lines: string[] = [];
  const goldUsed = new Set<string>();
  let uuid = 0;
  const line = (type: string, message: object, at: number) => {
    uuid++;
    lines.push(
      JSON.stringify({
        type,
        message,
        uuid: `u${uuid}`,
        parentUuid: uuid > 1 ? `u${uuid - 1}` : null,
        isSidechain: false,
        timestamp: new Date(at).toISOString(),
        sessionId,
        cwd: repo,
      }),
    );
  };
  for (const q of queries) {
    const ctx = contextOf(
      run(
        ['hook', 'user-prompt-submit'],
        JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: q.query }),
      ),
    );
    endTurn();
    const now = tokensAfter();
    perPrompt.push({ tokens: now - last, chars: ctx.length });
    last = now;
    for (const m of ctx.matchAll(/01JBENCH\d{18}/g)) shownSoFar.add(m[0]);
    // the simulated assistant: answers from the relevant records it has been shown
    const t = Date.now() + 5;
    line('user', { role: 'user', content: q.query }, t);
    const used = q.relevant
      .map((id) => benchId.get(id))
      .filter((id): id is string => id !== undefined && shownSoFar.has(id));
    for (const id of used) goldUsed.add(id);
    const answer =
      used.length > 0
        ? used.map((id) => byBenchId.get(id)?.body).join('\n\n')
        : 'I found nothing stored about this; reading the code.';
    line(
      'assistant',
      { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text: answer }] },
      t + 5,
    );
  }
  const transcript = join(work, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${lines.join('\n')}\n`);
  run(['extract', '--session-id', sessionId, '--transcript', transcript, '--cwd', repo, '--json']);
  const usage = (
    JSON.parse(run(['status', '--json'])) as {
      usage: { last_session: { tokens_on_records: number; tokens_used: number; used_share: number | null } };
    }
  ).usage.last_session;
  // the rule's verdicts against what the simulated assistant did (it used exactly `goldUsed`)
  const verdicts = readOnly(
    (db) =>
      db.prepare('SELECT record_id, verdict FROM session_shown WHERE session_id = ?').all(sessionId) as {
        record_id: string;
        verdict: string;
      }[],
  );
  const tp = verdicts.filter((v) => v.verdict === 'used' && goldUsed.has(v.record_id)).length;
  const fp = verdicts.filter((v) => v.verdict === 'used' && !goldUsed.has(v.record_id)).length;
  const fn = verdicts.filter((v) => v.verdict !== 'used' && goldUsed.has(v.record_id)).length;
  const rule = {
    pairs: verdicts.length,
    precision: Math.round((tp / Math.max(1, tp + fp)) * 1000) / 1000,
    recall: Math.round((tp / Math.max(1, tp + fn)) * 1000) / 1000,
  };
  const toks = perPrompt.map((p) => p.tokens).sort((a, b) => a - b);
  const median = toks[Math.floor(toks.length / 2)] ?? 0;
  const result = {
    project: projectName,
    records: records.length,
    session_start: { tokens: startTokens, chars: start.length },
    prompts: queries.length,
    prompts_with_injection: perPrompt.filter((p) => p.tokens > 0).length,
    per_prompt_tokens: {
      median,
      mean: Math.round(toks.reduce((a, b) => a + b, 0) / Math.max(1, toks.length)),
      max: toks[toks.length - 1] ?? 0,
    },
    session_total_tokens: last,
    usage: {
      tokens_on_records: usage.tokens_on_records,
      tokens_used: usage.tokens_used,
      used_share: usage.used_share,
      rule_vs_simulation: rule,
    },
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`Token tax of one session over the "${projectName}" project (${records.length} records)`);
    console.log(
      `  SessionStart digest:        ${result.session_start.tokens} tokens (${start.length} chars)`,
    );
    console.log(
      `  per prompt (${queries.length} prompts): median ${median}, mean ${result.per_prompt_tokens.mean}, max ${result.per_prompt_tokens.max} tokens; ${result.prompts_with_injection} prompts injected something`,
    );
    console.log(`  whole session:              ${last} tokens injected (session-deduplicated)`);
    console.log(
      `  used (simulated assistant answering from the relevant records shown): ${usage.tokens_used} of ${usage.tokens_on_records} tokens on records, ${Math.round((usage.used_share ?? 0) * 100)}%`,
    );
    console.log(
      `  used rule vs the simulation: ${rule.pairs} shown records, precision ${rule.precision}, recall ${rule.recall}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
