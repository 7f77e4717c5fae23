// The scale benchmark (issue 20): a store shaped like a year of daily use across a dozen
// repositories — 12 projects × 8,000 records plus 4,000 global ones (100,000; `--records 10000`
// keeps the shape at a tenth) — with realistic text: a shared developer vocabulary plus each
// project's own identifiers (modules, functions, vendors), Zipf-skewed. Against it, in one run:
//   1. `agentctx consolidate` in one project: the first run (keyword only) and a rerun;
//   2. the hooks against `node -e 0`, interleaved: SessionStart, a short and a 55-word prompt;
//   3. one long session: prompt 1 vs prompt N of a session whose dedup set grows;
//   4. the MCP server: spawn → first ctx_search result, ctx_search on an open connection, and
//      its resident memory after 100 and 1,000 calls;
//   5. eight sessions at once: eight MCP servers (one per project) searching, prompt and Stop
//      hooks firing in all eight, one consolidation running; a probe takes the store's write
//      lock (BEGIN IMMEDIATE) every 20 ms and times each wait; the servers' total memory.
// Run `npm run build` first. Usage: node scripts/bench-scale.mjs [--records 100000] [--rounds 15]
//   [--session-prompts 1000] [--spawns 9] [--keep]
//   [--parts consolidate,hooks,session,mcp,eight] (sections to run; all by default)
//   [--store DIR] (reuse a store kept by `--keep`; its session files are removed first, so
//   every session starts empty)
//   [--hold-log FILE] (every process of the 8-session run — consolidation, hooks, MCP servers —
//   appends its write-lock holds to FILE, timed by scripts/lock-holds.cjs; the probe's waits go
//   to FILE.waits.jsonl, and each wait over 50 ms is attributed by scripts/lock-attribution.mjs)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { flag, opt } from './bench-args.mjs';
import {
  DEV_WORDS,
  INSERT_RECORD_SQL,
  madeUpName,
  mulberry32,
  pickWeighted,
  sentenceOf,
  ulidAt,
} from './bench-text.mjs';
import { benchEnv, LONG, SHORT } from './hook-bench-store.mjs';
import { attribution, readJsonl } from './lock-attribution.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Db: Database } = createRequire(import.meta.url)('../dist/sqlite.cjs');
/** `--bin` measures another build (a checkout of main, for before/after figures). */
const BIN = opt('bin', join(root, 'bin', 'agentctx.cjs'));
const RECORDS = Number(opt('records', '100000'));
const ROUNDS = Number(opt('rounds', '15'));
const SESSION_PROMPTS = Number(opt('session-prompts', '1000'));
const SPAWNS = Number(opt('spawns', '9'));
const PARTS = new Set(opt('parts', 'consolidate,hooks,session,mcp,eight').split(','));
const HOLD_LOG = opt('hold-log', '');
const STORE = opt('store', '');
const PROJECTS = 12;
const PER_PROJECT = Math.round((RECORDS * 0.96) / PROJECTS);
const GLOBAL = RECORDS - PER_PROJECT * PROJECTS;

// ---- text --------------------------------------------------------------------------------
const rand = mulberry32(2020);
const pick = (a) => a[Math.floor(rand() * a.length)];
const zipf = (a) => a[Math.min(a.length - 1, Math.floor(a.length ** rand()) - 1)];
const COMMON = `the a to of in for on with when and is it we use not by from after before so but
only every each this that all new old keep run add fix check move write read call return set get`
  .split(/\s+/)
  .filter(Boolean);
const DEV = DEV_WORDS;
const SUFFIX = ['', '', '', 'Service', 'Handler', 'Store', 'Client', 'Job', 'Queue', 'View', 'Api', '_test'];
/** A project's own identifiers (its modules, functions, vendors, error codes). */
function identifiers(p, n) {
  return Array.from(
    { length: n },
    (_, i) => `${madeUpName(i * 7 + p * 7919 + 13, p)}${SUFFIX[(i + p) % SUFFIX.length]}`,
  );
}
const TYPES = [
  ['decision', 0.2],
  ['convention', 0.15],
  ['preference', 0.1],
  ['discovery', 0.25],
  ['bugfix', 0.22],
  ['handover', 0.04],
  ['profile', 0.04],
];
function pickType(global) {
  if (global) return rand() < 0.7 ? 'preference' : 'convention';
  return pickWeighted(rand, TYPES, 'discovery');
}
function sentence(own, n) {
  return sentenceOf(
    Array.from({ length: n }, () => {
      const r = rand();
      return r < 0.35 ? pick(COMMON) : r < 0.7 ? zipf(DEV) : zipf(own);
    }),
  );
}
const body = (own) =>
  Array.from({ length: 1 + Math.floor(rand() * 4) }, () => sentence(own, 6 + Math.floor(rand() * 12))).join(
    ' ',
  );
const ulid = (i) => ulidAt(i, rand);

// ---- timing helpers ----------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const f1 = (x) => x.toFixed(1);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
function timeSync(args, input, env, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}
function timeAsync(args, input, env, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const c = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve({ ms, out });
    });
    c.stdin.end(input);
  });
}
/** Resident memory of a process, MB: all of it, and its private (anonymous) part. */
const memoryOf = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
};
const mem = (m) =>
  `${f1(m.rss)} MB (private ${f1(m.anon)} MB, file pages of the store and code ${f1(m.file)} MB)`;

// ---- the store ---------------------------------------------------------------------------
const dir = STORE || mkdtempSync(join(tmpdir(), 'agentctx-bench-scale-'));
const home = join(dir, 'home');
const env = benchEnv(home);
const dbPath = join(home, '.agentctx', 'agentctx.db');
const repos = [];
const out = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

function buildStore() {
  const t0 = performance.now();
  const ids = [];
  for (let p = 0; p < PROJECTS; p++) {
    const repo = join(dir, `repo${p}`);
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(
      join(repo, '.git', 'config'),
      `[remote "origin"]\n\turl = git@github.com:acme/app-${p}.git\n`,
    );
    const s = spawnSync(process.execPath, [BIN, 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
    if (s.status !== 0) throw new Error(`agentctx status failed: ${s.stderr}`);
    const id = JSON.parse(s.stdout).project?.id ?? JSON.parse(s.stdout).project_id;
    if (!id) throw new Error(`no project id in ${s.stdout.slice(0, 300)}`);
    repos.push(repo);
    ids.push(id);
  }
  const db = new Database(dbPath);
  const insert = db.prepare(INSERT_RECORD_SQL);
  const own = ids.map((_, p) => identifiers(p, 3000));
  const globalOwn = identifiers(99, 800);
  const handover = new Set();
  let i = 0;
  const add = (owner, global, words) => {
    const type = pickType(global);
    const at = new Date(Date.UTC(2025, 0, 1) + i * 300_000).toISOString();
    let superseded = rand() < 0.12 ? at : null;
    if (type === 'handover' || type === 'profile') {
      if (type === 'handover' && !superseded && handover.has(owner)) superseded = at;
      if (type === 'handover' && !superseded) handover.add(owner);
      if (type === 'profile') superseded = at; // keyed: older profile facts, retired
    }
    insert.run(
      ulid(i),
      owner,
      type,
      sentence(words, 4 + Math.floor(rand() * 7)).slice(0, 119),
      body(words),
      global ? 'global' : 'project',
      rand() < 0.4 ? 'explicit' : 'inferred',
      at,
      at,
      superseded,
      rand() < 0.5 ? 'llm_extraction' : 'cli',
      `sess-${i % 900}`,
    );
    i++;
  };
  db.transaction(() => {
    // interleaved in time, as a year of work across repositories is
    const total = PER_PROJECT * PROJECTS + GLOBAL;
    const left = ids.map(() => PER_PROJECT);
    let g = GLOBAL;
    for (let n = 0; n < total; n++) {
      const r = Math.floor(rand() * total);
      if (r < GLOBAL && g > 0) {
        g--;
        add('_global', true, globalOwn);
        continue;
      }
      let p = Math.floor(rand() * PROJECTS);
      // the next project with records left; when none has any, the rest are global
      for (let k = 0; k < PROJECTS && left[p] === 0; k++) p = (p + 1) % PROJECTS;
      if (left[p] === 0 && g > 0) {
        g--;
        add('_global', true, globalOwn);
        continue;
      }
      left[p]--;
      add(ids[p], false, own[p]);
    }
  })();
  const n = db.prepare('SELECT COUNT(*) AS n FROM records').get().n;
  db.close();
  return { ids, ms: performance.now() - t0, n };
}

function consolidate(repo, extra = []) {
  const r = timeSync([BIN, 'consolidate', '--json', '--budget-ms', '900000', ...extra], '', env, repo);
  const s = JSON.parse(r.out);
  const summary = Array.isArray(s) ? s[0] : (s.project ?? s);
  return { ms: r.ms, summary };
}

// ---- 1. consolidation ----------------------------------------------------------------------
/** A kept store: its projects' ids, in the order buildStore made them; session files cleared. */
function reuseStore() {
  const ids = [];
  for (let p = 0; p < PROJECTS; p++) {
    const repo = join(dir, `repo${p}`);
    const s = spawnSync(process.execPath, [BIN, 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
    if (s.status !== 0) throw new Error(`agentctx status failed: ${s.stderr}`);
    repos.push(repo);
    ids.push(JSON.parse(s.stdout).project?.id ?? JSON.parse(s.stdout).project_id);
  }
  rmSync(env.AGENTCTX_TMPDIR, { recursive: true, force: true });
  mkdirSync(env.AGENTCTX_TMPDIR, { recursive: true });
  const db = new Database(dbPath, { readonly: true });
  const n = db.prepare('SELECT COUNT(*) AS n FROM records').get().n;
  db.close();
  return { ids, ms: 0, n };
}

async function main() {
  const built = STORE ? reuseStore() : buildStore();
  say(
    `agentctx scale benchmark — node ${process.version}; ${built.n} records (${PROJECTS} projects × ${PER_PROJECT} + ${GLOBAL} global), built in ${f1(built.ms / 1000)} s; load average ${load()}`,
  );
  const repo = repos[0];
  const nodeBase = () => median(Array.from({ length: 7 }, () => timeSync(['-e', '0'], '', env, repo).ms));
  if (PARTS.has('consolidate')) consolidationPart(repo);
  if (PARTS.has('hooks')) hooksPart(repo);
  if (PARTS.has('session')) sessionPart(repo);
  if (PARTS.has('mcp')) await mcpPart(repo);
  if (PARTS.has('eight')) await eightPart();
  say(`node -e 0 (for the ratios above): ${f1(nodeBase())} ms`);
}

function consolidationPart(repo) {
  say('');
  say('### Consolidation (project 1: its records and the global ones)');
  const first = consolidate(repo);
  const steps = (s) => (s.steps ?? []).map((x) => `${x.name} ${x.ms}`).join(', ');
  say(`first run (keyword only): ${f1(first.ms / 1000)} s; steps ms: ${steps(first.summary)}`);
  const again = consolidate(repo);
  say(`rerun: ${f1(again.ms / 1000)} s; steps ms: ${steps(again.summary)}`);
  say(`(load average ${load()})`);
}

function hooksPart(repo) {
  // ---- 2. hooks -------------------------------------------------------------------------
  const samples = { node: [], start: [], short: [], long: [] };
  for (let i = 0; i < ROUNDS + 2; i++) {
    const sid = `scale-${i}`;
    const payload = (extra) =>
      JSON.stringify({ session_id: sid, transcript_path: '/dev/null', cwd: repo, ...extra });
    const a = timeSync(['-e', '0'], '', env, repo).ms;
    const b = timeSync(
      [BIN, 'hook', 'session-start'],
      payload({ hook_event_name: 'SessionStart', source: 'startup' }),
      env,
      repo,
    ).ms;
    const c = timeSync(
      [BIN, 'hook', 'user-prompt-submit'],
      JSON.stringify({
        session_id: `${sid}-s`,
        cwd: repo,
        transcript_path: '/dev/null',
        hook_event_name: 'UserPromptSubmit',
        prompt: SHORT,
      }),
      env,
      repo,
    ).ms;
    const d = timeSync(
      [BIN, 'hook', 'user-prompt-submit'],
      JSON.stringify({
        session_id: `${sid}-l`,
        cwd: repo,
        transcript_path: '/dev/null',
        hook_event_name: 'UserPromptSubmit',
        prompt: LONG,
      }),
      env,
      repo,
    ).ms;
    if (i < 2) continue;
    samples.node.push(a);
    samples.start.push(b);
    samples.short.push(c);
    samples.long.push(d);
  }
  const base = median(samples.node);
  const x = (k) => `${f1(median(samples[k]))} ms (${(median(samples[k]) / base).toFixed(2)}×)`;
  say('');
  say(`### Hooks (${ROUNDS} interleaved rounds; load average ${load()})`);
  say(
    `node -e 0 ${f1(base)} ms; SessionStart ${x('start')}; prompt short ${x('short')}; prompt 55 words ${x('long')}`,
  );
}

function sessionPart(repo) {
  // ---- 3. a long session ----------------------------------------------------------------
  const prompts = [];
  const ownWords = identifiers(0, 3000);
  for (let k = 0; k < SESSION_PROMPTS; k++)
    prompts.push(
      `How do we handle ${zipf(DEV)} ${zipf(ownWords)} in the ${zipf(DEV)} ${pick(['path', 'flow', 'step'])}?`,
    );
  const ask = (sessionId, prompt) =>
    timeSync(
      [BIN, 'hook', 'user-prompt-submit'],
      JSON.stringify({
        session_id: sessionId,
        cwd: repo,
        transcript_path: '/dev/null',
        hook_event_name: 'UserPromptSubmit',
        prompt,
      }),
      env,
      repo,
    );
  const times = [];
  let injected = 0;
  const nodeTimes = [];
  for (let k = 0; k < SESSION_PROMPTS; k++) {
    const r = ask('scale-long', prompts[k]);
    times.push(r.ms);
    if (r.out) injected++;
    if (k % 50 === 0) nodeTimes.push(timeSync(['-e', '0'], '', env, repo).ms);
  }
  // The later prompts differ from the first ones, and their best matches were shown already:
  // to see what the dedup set alone costs, the first 20 prompts again, each in a session of its
  // own (nothing shown) and in the long session (everything shown), interleaved.
  const fresh = [];
  const again = [];
  for (let k = 0; k < Math.min(20, SESSION_PROMPTS); k++) {
    fresh.push(ask(`scale-fresh-${k}`, prompts[k]).ms);
    again.push(ask('scale-long', prompts[k]).ms);
  }
  // the session's dedup file: a snapshot line, then one appended line of ids per prompt
  const dedup = (() => {
    try {
      const ids = new Set();
      for (const line of readFileSync(join(env.AGENTCTX_TMPDIR, 'agentctx-scale-long.json'), 'utf8').split(
        '\n',
      )) {
        if (!line) continue;
        const o = JSON.parse(line);
        if (Array.isArray(o.injected)) ids.clear();
        for (const id of o.injected ?? o.add ?? []) ids.add(id);
      }
      return ids.size;
    } catch {
      return 'unknown';
    }
  })();
  const head = times.slice(0, 20);
  const tail = times.slice(-20);
  const nb = median(nodeTimes);
  say('');
  say(`### One session of ${SESSION_PROMPTS} prompts (load average ${load()})`);
  say(
    `prompts 1–20: median ${f1(median(head))} ms (${(median(head) / nb).toFixed(2)}×); prompts ${SESSION_PROMPTS - 19}–${SESSION_PROMPTS}: median ${f1(median(tail))} ms (${(median(tail) / nb).toFixed(2)}×); node -e 0 ${f1(nb)} ms; ${injected} prompts injected; dedup set at the end: ${dedup} ids`,
  );
  say(
    `prompts 1–20 again, interleaved: in fresh sessions median ${f1(median(fresh))} ms; in the long session (its dedup set of ${dedup} ids) median ${f1(median(again))} ms`,
  );
}

const connect = async (cwd, pre = [], withEnv = env) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...pre, BIN, 'mcp'],
    cwd,
    env: withEnv,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-scale', version: '0' });
  await client.connect(transport);
  return { client, transport };
};

async function mcpPart(repo) {
  // ---- 4. the MCP server ----------------------------------------------------------------
  const ownWords = identifiers(0, 3000);
  const queries = Array.from({ length: 200 }, () => `${zipf(DEV)} ${zipf(ownWords)} ${zipf(DEV)}`);
  const spawnTimes = [];
  const nodeSpawn = [];
  for (let k = 0; k < SPAWNS; k++) {
    nodeSpawn.push(timeSync(['-e', '0'], '', env, repo).ms);
    const t0 = performance.now();
    const c = await connect(repo);
    await c.client.callTool({ name: 'ctx_search', arguments: { query: queries[k] } });
    spawnTimes.push(performance.now() - t0);
    await c.client.close();
  }
  const c = await connect(repo);
  const call = [];
  let rss100 = null;
  for (let k = 0; k < 1000; k++) {
    const t0 = performance.now();
    await c.client.callTool({ name: 'ctx_search', arguments: { query: queries[k % queries.length] } });
    call.push(performance.now() - t0);
    if (k === 99) rss100 = memoryOf(c.transport.pid);
  }
  const rss1000 = memoryOf(c.transport.pid);
  await c.client.close();
  const ns = median(nodeSpawn);
  say('');
  say(`### MCP server (load average ${load()})`);
  say(
    `spawn → first ctx_search result: median ${f1(median(spawnTimes))} ms (${(median(spawnTimes) / ns).toFixed(2)}× node -e 0 ${f1(ns)} ms); ctx_search on an open connection: median ${median(call).toFixed(2)} ms, p95 ${quantile(call, 0.95).toFixed(2)} ms; resident memory after 100 calls ${mem(rss100)}, after 1,000 calls ${mem(rss1000)}`,
  );
}

async function eightPart() {
  // ---- 5. eight sessions at once --------------------------------------------------------
  const SESSIONS = 8;
  // with --hold-log, every process of the run logs its write-lock holds
  const holds = HOLD_LOG ? ['-r', join(root, 'scripts', 'lock-holds.cjs')] : [];
  const runEnv = HOLD_LOG ? { ...env, AGENTCTX_LOCK_LOG: HOLD_LOG } : env;
  if (HOLD_LOG) rmSync(HOLD_LOG, { force: true });
  const servers = await Promise.all(repos.slice(0, SESSIONS).map((r) => connect(r, holds, runEnv)));
  const probe = new Database(dbPath, { timeout: 60_000 });
  // each wait: when it began (monotonic clock, comparable with the hold log), how long, the probe
  // thread's run-queue delay meanwhile (runnable, not scheduled), and how late its timer fired
  const waits = [];
  const runQueueMs = () => {
    try {
      return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
    } catch {
      return Number.NaN;
    }
  };
  let stop = false;
  const probeLoop = (async () => {
    let drift = 0;
    while (!stop) {
      const q0 = runQueueMs();
      const t = Number(process.hrtime.bigint()) / 1e6;
      const t0 = performance.now();
      probe.prepare('BEGIN IMMEDIATE').run();
      const ms = performance.now() - t0;
      waits.push({ t, ms, runDelay: runQueueMs() - q0, drift });
      probe.prepare('ROLLBACK').run();
      const s0 = performance.now();
      await new Promise((r) => setTimeout(r, 20));
      drift = performance.now() - s0 - 20;
    }
  })();
  // a consolidation of a project whose watermarks are gone: a first run's work, holding write locks
  const consolidation = timeAsync(
    [...holds, BIN, 'consolidate', '--json', '--rebuild', '--budget-ms', '900000'],
    '',
    runEnv,
    repos[SESSIONS],
  );
  const hookTimes = { prompt: [], stop: [] };
  const mcpTimes = [];
  const deadline = performance.now() + 40_000;
  const session = async (s) => {
    let k = 0;
    const cwd = repos[s];
    while (performance.now() < deadline) {
      const q = `${zipf(DEV)} ${zipf(identifiers(s, 3000))} ${zipf(DEV)}`;
      const t0 = performance.now();
      await servers[s].client.callTool({ name: 'ctx_search', arguments: { query: q } });
      mcpTimes.push(performance.now() - t0);
      const p = await timeAsync(
        [...holds, BIN, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `eight-${s}`,
          cwd,
          transcript_path: '/dev/null',
          hook_event_name: 'UserPromptSubmit',
          prompt: `What did we decide about ${q}?`,
        }),
        runEnv,
        cwd,
      );
      hookTimes.prompt.push(p.ms);
      if (k++ % 3 === 2) {
        const st = await timeAsync(
          [...holds, BIN, 'hook', 'stop'],
          JSON.stringify({ session_id: `eight-${s}`, cwd, hook_event_name: 'Stop' }),
          runEnv,
          cwd,
        );
        hookTimes.stop.push(st.ms);
      }
    }
  };
  await Promise.all(Array.from({ length: SESSIONS }, (_, s) => session(s)));
  const mems = servers.map((sv) => memoryOf(sv.transport.pid));
  const rssTotal = {
    rss: mems.reduce((n, m) => n + m.rss, 0),
    anon: mems.reduce((n, m) => n + m.anon, 0),
    file: mems.reduce((n, m) => n + m.file, 0),
  };
  const cons = await consolidation;
  stop = true;
  await probeLoop;
  probe.close();
  await Promise.all(servers.map((sv) => sv.client.close()));
  const ms = waits.map((w) => w.ms);
  const dist = (xs) =>
    `n ${xs.length}, median ${f1(median(xs))}, p95 ${f1(quantile(xs, 0.95))}, p99 ${f1(quantile(xs, 0.99))}, max ${f1(Math.max(...xs))} ms`;
  say('');
  say(`### ${SESSIONS} sessions at once (40 s; load average ${load()})`);
  say(
    `write-lock waits (probe, BEGIN IMMEDIATE every 20 ms): ${dist(ms)}; over 50 ms: ${ms.filter((w) => w > 50).length}`,
  );
  if (HOLD_LOG) {
    writeFileSync(`${HOLD_LOG}.waits.jsonl`, waits.map((w) => `${JSON.stringify(w)}\n`).join(''));
    // the servers flush their holds when they exit
    await new Promise((r) => setTimeout(r, 500));
    const lines = existsSync(HOLD_LOG) ? attribution(waits, readJsonl(HOLD_LOG)) : ['no holds logged'];
    say(`write-lock wait attribution: ${lines[0]}`);
    for (const l of lines.slice(1)) console.log(l);
  }
  say(`prompt hook wall time: ${dist(hookTimes.prompt)}`);
  say(`Stop hook wall time: ${dist(hookTimes.stop)}`);
  say(`ctx_search round trip: ${dist(mcpTimes)}`);
  say(`consolidation running beside them (--rebuild): ${f1(cons.ms / 1000)} s`);
  say(
    `the ${SESSIONS} MCP servers' resident memory together: ${mem(rssTotal)} (file pages are shared between them)`,
  );
}

try {
  await main();
} finally {
  if (flag('keep') || STORE) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
