import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { toolNames } from '../../support/agent-requests.js';
import { CLAUDE_BIN, claudeBinDir, claudeEnv, gitRepo, runClaude, waitFor } from '../../support/claude.js';
import { BIN, runAgentctx, runJson } from '../../support/cli.js';
import { answer, extractArgs, runAsync, type Workspace, workspace } from '../../support/extract-harness.js';
import {
  type FakeApi,
  type FakeReply,
  type RecordedRequest,
  startFakeApi,
} from '../../support/fake-messages-api.js';
import { tempDir } from '../../support/tmp.js';
import { TranscriptBuilder, workSession } from '../../support/transcript-fixture.js';

/**
 * `llm.backend = claude-cli`: the built `agentctx extract` runs the real `claude` binary in
 * print mode against the fake Messages API. Its answer becomes records; the nested session runs
 * no agentctx hook, leaves no transcript among the user's projects, and is killed (process group
 * and all) when it hangs past the timeout. `auto` picks the backend the situation calls for.
 */

const OUTPUT = {
  decisions: [
    {
      what: 'Use undici as the HTTP client instead of node-fetch.',
      rationale: 'node-fetch is unmaintained.',
      supersedes: null,
      confidence: 'explicit',
    },
  ],
  preferences: [
    { category: 'style', rule: 'Always indent with tabs.', confidence: 'explicit', scope: 'global' },
  ],
  conventions: [],
  active_work: {
    current_task: 'Migrate the HTTP client to undici',
    blockers: [],
    next_steps: ['Migrate src/http/upload.ts'],
    open_questions: [],
  },
  gotchas: [{ pattern: 'undici pools connections in tests', why_it_matters: 'set pipelining to 0' }],
  flush_ok: false,
};

/** A request of the nested extraction session (Claude Code's structured-output tool). */
function isNested(req: RecordedRequest): boolean {
  return toolNames(req).includes('StructuredOutput');
}

/** The session id Claude Code puts in each request's metadata. */
function requestSession(req: RecordedRequest): string | null {
  const meta = req.body.metadata as { user_id?: string } | undefined;
  try {
    return (JSON.parse(meta?.user_id ?? '{}') as { session_id?: string }).session_id ?? null;
  } catch {
    return null;
  }
}

let api: FakeApi;
let delayNested = 0;
/** What the nested session's StructuredOutput call carries (default: OUTPUT). */
let nestedOutput: (req: RecordedRequest) => unknown = () => OUTPUT;

beforeAll(async () => {
  api = await startFakeApi((req) => {
    if (isNested(req)) {
      if (req.raw.includes('"tool_result"')) return { content: [{ type: 'text', text: 'Done.' }] };
      const r: FakeReply = {
        content: [{ type: 'tool_use', name: 'StructuredOutput', input: nestedOutput(req) }],
        usage: { input_tokens: 2000, output_tokens: 400 },
      };
      return delayNested ? { ...r, delayMs: delayNested } : r;
    }
    // agentctx's own background extraction after the control session (API backend)
    if (toolNames(req).includes('record_context')) return answer({ flush_ok: true });
    return { content: [{ type: 'text', text: 'Noted.' }] };
  });
});
afterAll(async () => {
  await api.close();
});

let t: ReturnType<typeof tempDir>;
let ws: Workspace;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  t = tempDir();
  ws = workspace(t.path, api);
  api.requests.length = 0;
  delayNested = 0;
  nestedOutput = () => OUTPUT;
  // the throwaway HOME of the claude helpers, with the real claude on PATH
  const base = claudeEnv(ws.home, api.url, { AGENTCTX_LLM_MAX_RETRIES: '0', AGENTCTX_NO_CLAUDE_CLI: '1' });
  env = { ...base, PATH: `${claudeBinDir(t.path)}:${base.PATH}` };
});
afterEach(() => t.cleanup());

function storeDb(): Database {
  return new Database(join(ws.home, '.agentctx', 'agentctx.db'), { readonly: true });
}

function listProjects(): string[] {
  const root = join(ws.home, '.claude', 'projects');
  const out: string[] = [];
  for (const d of readdirSync(root)) for (const f of readdirSync(join(root, d))) out.push(`${d}/${f}`);
  return out.sort();
}

function setBackend(value: string): void {
  const r = runAgentctx(['config', '--llm-backend', value], { cwd: ws.repo, env });
  expect(r.code, r.stderr).toBe(0);
}

describe.skipIf(!CLAUDE_BIN)('extract with the claude CLI backend (real claude, fake API)', () => {
  it('ingests the answer; no agentctx hook runs inside; no nested transcript is left', async () => {
    // agentctx installed in this HOME: hooks in CLAUDE_CONFIG_DIR/settings.json
    const init = runAgentctx(['init'], { cwd: ws.repo, env });
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(ws.home, '.claude', 'settings.json'), 'utf8')).toContain('agentctx hook');

    // control: an ordinary claude session in this HOME does run the hooks (it gets a sessions row)
    const ctl = gitRepo(join(t.path, 'ctl'), 'git@github.com:acme/ctl.git');
    const control = await runClaude({ cwd: ctl, env, prompt: 'hello from the control session' });
    expect(control.code, control.stderr).toBe(0);
    const controlSession = control.sessionId as string;
    await waitFor(
      () => {
        const db = storeDb();
        try {
          return db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').get(controlSession);
        } finally {
          db.close();
        }
      },
      { what: 'the control session in the store (its hooks ran)' },
    );

    setBackend('claude-cli');
    workSession(new TranscriptBuilder('s-cli', ws.repo)).write(ws.transcript('s-cli'));
    const before = listProjects();
    api.requests.length = 0;

    const r = await runAsync(extractArgs(ws, 's-cli'), { cwd: ws.repo, env, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, any>;
    expect(out.mode).toBe('llm');
    expect(out.cost_usd).toBeGreaterThan(0);

    // records from claude's answer
    const db = storeDb();
    try {
      const rows = db
        .prepare(
          'SELECT type, title, confidence, project_id, source FROM records WHERE session_id = ? ORDER BY rowid',
        )
        .all('s-cli') as {
        type: string;
        title: string;
        confidence: string;
        project_id: string;
        source: string;
      }[];
      expect(rows.map((x) => x.type).sort()).toEqual(['decision', 'discovery', 'handover', 'preference']);
      expect(rows.every((x) => x.source === 'llm_extraction')).toBe(true);
      expect(rows.find((x) => x.type === 'preference')?.project_id).toBe('_global');
      expect(rows.find((x) => x.type === 'decision')?.title).toContain('undici');
      const cost = db
        .prepare('SELECT extraction_cost_usd AS c FROM sessions WHERE session_id = ?')
        .get('s-cli') as {
        c: number;
      };
      expect(cost.c).toBeCloseTo(out.cost_usd, 9);
      const day = db.prepare('SELECT usd FROM extraction_costs').get() as { usd: number };
      expect(day.usd).toBeGreaterThanOrEqual(out.cost_usd);

      // the nested session: its requests carry the extraction prompt and the transcript …
      const nested = api.requests.filter(isNested);
      expect(nested.length).toBeGreaterThanOrEqual(1);
      expect(nested[0]!.raw).toContain('Developer: We are moving the HTTP client to undici');
      expect(JSON.stringify(nested[0]!.body.system)).toContain(
        'You read the transcript of one Claude Code session',
      );
      const nestedSession = requestSession(nested[0]!);
      expect(nestedSession).toMatch(/^[0-9a-f-]{36}$/);
      // … and no agentctx hook ran inside it: no session row (SessionStart/End would write one),
      // no background extraction of it (the Stop hook would send its transcript again)
      expect(db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').get(nestedSession)).toBeUndefined();
      expect(
        db.prepare('SELECT 1 FROM extraction_state WHERE session_id = ?').get(nestedSession),
      ).toBeUndefined();
      expect(api.requests.filter((q) => !isNested(q) && q.raw.includes('HTTP client to undici'))).toEqual([]);
    } finally {
      db.close();
    }
    // … while the control session, same HOME and settings, did get its row (checked above)

    // nothing new among the user's project transcripts, nothing left in the scratch area
    expect(listProjects()).toEqual(before);
    const tmp = join(ws.home, 'tmp');
    expect(readdirSync(tmp).filter((f) => f.startsWith('agentctx-claude-'))).toEqual([]);

    // status reports the backend and the spend
    const status = runJson<Record<string, any>>(['status', '--verbose'], { cwd: ws.repo, env });
    expect(status.json.llm).toMatchObject({ backend: 'claude-cli', active: 'claude-cli' });
    expect(status.json.extraction_cost_usd).toBeGreaterThan(0);
    expect(status.json.daily_cost.cap_reached).toBe(false);
  }, 120_000);

  it('bugfix enrichments pass through the StructuredOutput schema and supersede the stub', async () => {
    setBackend('claude-cli');
    const error = 'src/api/orders.ts:12:5 - error TS2339: Property total does not exist on type Order.';
    const hook = runAgentctx(['hook', 'post-tool-use'], {
      cwd: ws.repo,
      env,
      input: JSON.stringify({
        session_id: 's-cli-bug',
        transcript_path: ws.transcript('s-cli-bug'),
        cwd: ws.repo,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'npm run build' },
        tool_response: { stdout: error, stderr: '', interrupted: false },
      }),
    });
    expect(hook.code, hook.stderr).toBe(0);
    new TranscriptBuilder('s-cli-bug', ws.repo)
      .tool('Bash', { command: 'npm run build' }, error, { isError: true })
      .user('total was renamed to totalCents; use that.')
      .tool('Bash', { command: 'npm run build' }, 'built')
      .write(ws.transcript('s-cli-bug'));
    // the nested model follows the prompt: the stub ids it was shown, cause and fix for each
    nestedOutput = (req) => ({
      ...OUTPUT,
      bugfix_enrichments: [...req.raw.matchAll(/- ([0-9A-HJKMNP-TV-Z]{26}) Error: /g)].map((m) => ({
        stub_id: m[1],
        title: 'Order.total renamed to totalCents',
        cause: 'orders.ts still read order.total.',
        fix: 'Read order.totalCents.',
      })),
    });
    const r = await runAsync(extractArgs(ws, 's-cli-bug'), { cwd: ws.repo, env, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      mode: string;
      written: { bugfix_enrichment: { enriched: unknown[] } };
    };
    expect(out.mode).toBe('llm');
    // the schema claude validates the answer against carries the field, and does not require it
    const nested = api.requests.find(isNested)!;
    const structured = (
      nested.body.tools as { name: string; input_schema: { properties: object; required?: string[] } }[]
    ).find((x) => x.name === 'StructuredOutput')!;
    expect(Object.keys(structured.input_schema.properties)).toContain('bugfix_enrichments');
    expect(structured.input_schema.required ?? []).not.toContain('bugfix_enrichments');
    expect(out.written.bugfix_enrichment.enriched).toHaveLength(1);
    const db = storeDb();
    try {
      const rows = db
        .prepare(
          "SELECT id, title, body, superseded_by, source FROM records WHERE type = 'bugfix' ORDER BY rowid",
        )
        .all() as { id: string; title: string; body: string; superseded_by: string | null; source: string }[];
      expect(rows).toHaveLength(2);
      expect(rows[0]!.superseded_by).toBe(rows[1]!.id);
      expect(rows[1]).toMatchObject({ title: 'Order.total renamed to totalCents', source: 'llm_extraction' });
      expect(rows[1]!.body).toMatch(
        /^Cause: orders\.ts still read order\.total\.\nFix: Read order\.totalCents\./,
      );
    } finally {
      db.close();
    }
  }, 120_000);

  it('the daily cost cap applies: its reported cost counts, then rules; status says the cap was reached', async () => {
    setBackend('claude-cli');
    const cap = runAgentctx(['config', 'set', 'llm.dailyCostCapUsd', '0.000001'], { cwd: ws.repo, env });
    expect(cap.code, cap.stderr).toBe(0);
    workSession(new TranscriptBuilder('s-cap1', ws.repo)).write(ws.transcript('s-cap1'));
    const first = await runAsync(extractArgs(ws, 's-cap1'), { cwd: ws.repo, env, timeoutMs: 90_000 });
    expect(first.code, first.stderr).toBe(0);
    const one = JSON.parse(first.stdout) as Record<string, any>;
    expect(one.mode).toBe('llm');
    expect(one.cost_usd).toBeGreaterThan(0.000001);
    const calls = api.requests.filter(isNested).length;

    workSession(new TranscriptBuilder('s-cap2', ws.repo)).write(ws.transcript('s-cap2'));
    const second = await runAsync(extractArgs(ws, 's-cap2'), { cwd: ws.repo, env, timeoutMs: 90_000 });
    const two = JSON.parse(second.stdout) as Record<string, any>;
    expect(two.mode).toBe('rules');
    expect(two.reason).toMatch(/daily cost cap reached/);
    expect(api.requests.filter(isNested).length).toBe(calls);

    const status = runJson<Record<string, any>>(['status', '--verbose'], { cwd: ws.repo, env });
    expect(status.json.daily_cost).toMatchObject({ cap_usd: 0.000001, cap_reached: true });
    expect(status.json.daily_cost.spent_usd).toBeCloseTo(one.cost_usd, 6);
    const text = runAgentctx(['status', '--verbose'], { cwd: ws.repo, env });
    expect(text.stdout).toContain('cap reached: extraction is rule-based until the next UTC day');
  }, 120_000);

  it('a hang is killed at the timeout with its process group; rules take over', async () => {
    setBackend('claude-cli');
    workSession(new TranscriptBuilder('s-hang', ws.repo)).write(ws.transcript('s-hang'));
    delayNested = 60_000;
    const started = Date.now();
    const r = await runAsync(extractArgs(ws, 's-hang'), {
      cwd: ws.repo,
      env: { ...env, AGENTCTX_LLM_TIMEOUT_MS: '4000' },
      timeoutMs: 60_000,
    });
    const elapsed = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, any>;
    expect(out.mode).toBe('rules');
    expect(out.reason).toMatch(/timeout/);
    expect(elapsed).toBeGreaterThanOrEqual(4000);
    expect(elapsed).toBeLessThan(20_000);
    expect(api.requests.filter(isNested).length).toBeGreaterThanOrEqual(1);

    const log = readFileSync(join(ws.home, '.agentctx', 'logs', 'extract.log'), 'utf8');
    const m = /claude-cli pid (\d+) timed out after (\d+) ms; killed its process group/.exec(log);
    expect(m, log).not.toBeNull();
    const pid = Number(m![1]);
    // the group is gone: no live process left with that process-group id (a member the kill
    // orphaned may show as a zombie until init reaps it)
    const members = () =>
      spawnSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' })
        .stdout.split('\n')
        .map((l) => l.trim().split(/\s+/))
        .filter(([, pgid, stat]) => Number(pgid) === pid && !stat?.startsWith('Z'));
    await waitFor(() => members().length === 0, { timeoutMs: 5000, what: 'the nested group to end' });
    expect(members()).toEqual([]);
    expect(() => process.kill(pid, 0)).toThrow();
    // the rule-based handover was written instead
    const db = storeDb();
    try {
      const h = db
        .prepare("SELECT source FROM records WHERE session_id = ? AND type = 'handover'")
        .get('s-hang') as {
        source: string;
      };
      expect(h.source).toBe('hook_observation');
    } finally {
      db.close();
    }
  }, 60_000);
});

describe.skipIf(!CLAUDE_BIN || !existsSync('/usr/bin/timeout'))('an extract killed outright', () => {
  it('leaves no nested claude behind: coreutils timeout ends it', async () => {
    setBackend('claude-cli');
    workSession(new TranscriptBuilder('s-kill', ws.repo)).write(ws.transcript('s-kill'));
    // Timed for a loaded machine: the nested run's timeout (20 s) leaves room for claude to start
    // and for ps to see it before the backstop fires; its answer (150 s late) comes long after
    // the backstop's end (20 s + 5 s grace + 5 s to SIGKILL), so a group gone within 90 s of the
    // kill was ended by the backstop, not by an answer.
    const TIMEOUT_MS = 20_000;
    delayNested = 150_000;
    const child = spawn(process.execPath, [BIN, ...extractArgs(ws, 's-kill')], {
      cwd: ws.repo,
      env: { ...env, AGENTCTX_LLM_TIMEOUT_MS: String(TIMEOUT_MS) },
      stdio: 'ignore',
    });
    try {
      await waitFor(() => api.requests.some(isNested), { timeoutMs: 60_000, what: 'the nested request' });
      // the nested run: started under timeout by the extract process, in its own process group
      const ps = () =>
        spawnSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' })
          .stdout.split('\n')
          .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
          .filter((m): m is RegExpMatchArray => m !== null)
          .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), args: m[4]! }));
      const leader = ps().find((p) => p.ppid === child.pid && p.args.includes('timeout'));
      expect(leader, JSON.stringify(ps().filter((p) => p.ppid === child.pid))).toBeDefined();
      const group = () => ps().filter((p) => p.pgid === leader!.pid);
      expect(group().length).toBeGreaterThanOrEqual(2); // timeout and claude
      child.kill('SIGKILL'); // no exit handler runs: only the backstop is left
      // our timeout + 5 s of grace, then SIGTERM (and SIGKILL 5 s later at worst)
      await waitFor(() => group().length === 0, { timeoutMs: 90_000, what: 'the nested group to end' });
    } finally {
      child.kill('SIGKILL');
    }
  }, 240_000);
});

describe.skipIf(!CLAUDE_BIN)(
  'backend choice: auto, explicit, off — and status / init say which and why',
  () => {
    function status(e: NodeJS.ProcessEnv): { backend: string; active: string | null; reason: string } {
      const s = runJson<{ llm: { backend: string; active: string | null; reason: string } }>(
        ['status', '--verbose'],
        {
          cwd: ws.repo,
          env: e,
        },
      );
      expect(s.code).toBe(0);
      return s.json.llm;
    }

    it('auto: API with a key; else the claude CLI when on PATH and signed in; else rules', () => {
      const noKey = { ...env };
      delete noKey.ANTHROPIC_API_KEY;

      expect(status(env)).toMatchObject({
        backend: 'auto',
        active: 'api',
        reason: 'auto: ANTHROPIC_API_KEY is set',
      });

      // claude on PATH but never signed in in this HOME
      expect(status(noKey)).toMatchObject({ active: null });
      expect(status(noKey).reason).toMatch(/claude .* is not signed in/);

      // signed in: a credentials file in the config dir (what `claude /login` leaves on Linux)
      writeFileSync(
        join(ws.home, '.claude', '.credentials.json'),
        JSON.stringify({
          claudeAiOauth: { accessToken: 'sk-ant-oat01-fake', refreshToken: 'r', expiresAt: 0 },
        }),
      );
      const signedIn = status(noKey);
      expect(signedIn.active).toBe('claude-cli');
      expect(signedIn.reason).toContain('.credentials.json');
      // or a long-lived token in the environment
      const dir = join(t.path, 'other-home');
      mkdirSync(join(dir, '.claude'), { recursive: true });
      expect(
        status({
          ...noKey,
          HOME: dir,
          CLAUDE_CONFIG_DIR: join(dir, '.claude'),
          CLAUDE_CODE_OAUTH_TOKEN: 'tok',
        }).reason,
      ).toContain('CLAUDE_CODE_OAUTH_TOKEN');

      // no claude on PATH at all
      const bare = { ...noKey, PATH: `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin` };
      expect(status(bare)).toMatchObject({ active: null });
      expect(status(bare).reason).toMatch(/claude is not on PATH/);
    });

    it('config --llm-backend switches it; init prints the choice', () => {
      setBackend('claude-cli');
      expect(status(env)).toMatchObject({ backend: 'claude-cli', active: 'claude-cli' });
      setBackend('api');
      expect(status(env)).toMatchObject({ backend: 'api', active: 'api' });
      setBackend('off');
      expect(status(env)).toMatchObject({ backend: 'off', active: null });
      const bad = runAgentctx(['config', '--llm-backend', 'gpt'], { cwd: ws.repo, env });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      setBackend('auto');
      const init = runAgentctx(['init'], { cwd: ws.repo, env });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain('extraction backend: api: auto: ANTHROPIC_API_KEY is set');
    });
  },
);
