import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigest } from '../../src/core/digest/digest-file.js';
import { Db as Database } from '../../src/database/sqlite.js';
import { isAgentTurn, resultText, toolNames, toolResults } from '../support/agent-requests.js';
import {
  CLAUDE_BIN,
  claudeEnv,
  gitRepo,
  removeHomeAfterBackground,
  runClaude,
  waitFor,
} from '../support/claude.js';
import { runJson } from '../support/cli.js';
import {
  type FakeApi,
  type FakeReply,
  type RecordedRequest,
  startFakeApi,
} from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The whole loop, as a user lives it, with the real Claude Code client against the fake
 * Messages API: `agentctx init` into a throwaway HOME; session 1 (prompt injection, a Bash test
 * run captured by PostToolUse, ctx_search → ctx_get → ctx_record through the MCP server); Stop's
 * detached extraction asks "the model" (the fake, recognised by its record_context tool) and
 * ingests a canned answer; SessionEnd's detached consolidation writes the digest; session 2,
 * `--resume` and `/compact` get that digest at SessionStart. Then the same without an API key
 * for extraction: the rule-based handover reaches the next session.
 *
 * Detached work is awaited by polling the store and the digest file (waitFor), never by sleeping.
 */

const RUN_MARK = 'LOOP-RUN-4e1b';
const CONVENTION_MARK = 'CONV-MARK-a93f';
const OLD_MARK = 'OLD-DECISION-MARK-77c0';
const MODEL_MARK = 'MODEL-DECISION-MARK-2b8d';
const NEW_MARK = 'NEW-DECISION-MARK-e5f1';
const SUPERSEDING_MARK = 'SUPERSEDING-MARK-0d6a';
const HANDOVER_MARK = 'HANDOVER-MARK-c4d2';
const TEST_COMMAND = 'node --test test/cart.test.mjs';
/** Wall-clock limit for one `claude -p` run and for each wait on detached work. */
const RUN_MS = 120_000;
const DETACHED_MS = 60_000;
/**
 * A real model takes seconds to answer the extraction: longer than SessionEnd's consolidation
 * takes to run. The digest must still end up holding what the extraction wrote.
 */
const EXTRACTION_DELAY_MS = 3000;

/** A turn of Claude Code's agent loop (it offers the Bash tool): not title generation, not extraction. */

/** agentctx's extraction request: it offers the record_context tool. */
function isExtraction(req: RecordedRequest): boolean {
  return toolNames(req).includes('record_context');
}

function text(t: string, delayMs?: number): FakeReply {
  return { content: [{ type: 'text', text: t }], ...(delayMs ? { delayMs } : {}) };
}

function withDelay(delayMs: number, reply: FakeReply): FakeReply {
  return { ...reply, delayMs };
}

function use(name: string, input: unknown): FakeReply {
  return { content: [{ type: 'tool_use', name, input }] };
}

/** Requests recorded since index `from` that pass `keep`. */
function since(api: FakeApi, from: number, keep: (r: RecordedRequest) => boolean): RecordedRequest[] {
  return api.requests.slice(from).filter(keep);
}

interface Row {
  id: string;
  type: string;
  title: string;
  body: string;
  confidence: string;
  source: string;
  session_id: string | null;
  superseded_at: string | null;
  superseded_by: string | null;
}

/** One query against the store, opened read-only for just this read (other processes write it). */
function query<T = Row>(dbPath: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

interface Project {
  home: ReturnType<typeof tempDir>;
  repo: string;
  env: NodeJS.ProcessEnv;
  projectId: string;
  dbPath: string;
  digests: string;
  logs: string;
}

/** A throwaway HOME holding a git project with one passing node test, and agentctx installed. */
function setUpProject(prefix: string, env: (home: string) => NodeJS.ProcessEnv): Project {
  const home = tempDir(prefix);
  const repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/loop-shop.git');
  writeFileSync(
    join(repo, 'package.json'),
    `${JSON.stringify({ name: 'loop-shop', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  );
  mkdirSync(join(repo, 'test'), { recursive: true });
  writeFileSync(
    join(repo, 'test', 'cart.test.mjs'),
    "import test from 'node:test';\nimport assert from 'node:assert';\ntest('cart total', () => assert.equal(2 + 2, 4));\n",
  );
  const e = env(home.path);
  const init = runJson<{ project: { id: string } }>(['init', '--no-claude-cli'], { cwd: repo, env: e });
  expect(init.code, init.stderr).toBe(0);
  const agentctxHome = join(home.path, '.agentctx');
  return {
    home,
    repo,
    env: e,
    projectId: init.json.project.id,
    dbPath: join(agentctxHome, 'agentctx.db'),
    digests: join(agentctxHome, 'digests'),
    logs: join(agentctxHome, 'logs'),
  };
}

/** Wait for this HOME's detached agentctx children to exit (never kill them), then remove it. */
async function tearDown(p: Project | undefined): Promise<void> {
  if (!p) return;
  await removeHomeAfterBackground(p.home.path);
}

function record(p: Project, type: string, title: string, body: string): string {
  const r = runJson<{ id: string }>(['record', '--type', type, '--title', title, '--body', body], {
    cwd: p.repo,
    env: p.env,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.json.id;
}

/** The transcript Claude Code keeps for a session, under CLAUDE_CONFIG_DIR/projects. */
function transcriptOf(p: Project, sessionId: string): string | null {
  const root = join(p.home.path, '.claude', 'projects');
  for (const dir of readdirSync(root)) {
    const file = join(root, dir, `${sessionId}.jsonl`);
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // not in this folder
    }
  }
  return null;
}

function logText(p: Project, name: string): string {
  try {
    return readFileSync(join(p.logs, `${name}.log`), 'utf8');
  } catch {
    return '';
  }
}

interface TranscriptLine {
  type?: string;
  subtype?: string;
  attachment?: { type?: string; hookName?: string; stdout?: string; content?: unknown };
}

/** The stdout of each run of hook `name` (e.g. "SessionStart:resume") recorded in a transcript. */
function hookRuns(transcript: string, name: string): string[] {
  const out: string[] = [];
  for (const line of transcript.split('\n')) {
    if (!line.includes(name)) continue;
    try {
      const l = JSON.parse(line) as TranscriptLine;
      if (l.attachment?.type === 'hook_success' && l.attachment.hookName === name)
        out.push(String(l.attachment.stdout ?? ''));
    } catch {
      // not a JSON line
    }
  }
  return out;
}

const SESSION_START_LABEL = 'SessionStart hook additional context:';

/** Every SessionStart context in a request's messages, in order (Claude Code labels them). */
function sessionStartContexts(req: RecordedRequest): string[] {
  const texts: string[] = [];
  for (const m of (req.body.messages ?? []) as { content: unknown }[]) {
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content))
      for (const b of m.content as { text?: unknown }[]) if (typeof b.text === 'string') texts.push(b.text);
  }
  const out: string[] = [];
  for (const t of texts) {
    for (const piece of t.split(SESSION_START_LABEL).slice(1)) {
      // the context ends where Claude Code's own sections begin
      out.push(piece.split(/\n\n# Environment\n|\n\nUserPromptSubmit hook additional context:/)[0]!);
    }
  }
  return out;
}

/** The part of a request body around agentctx's SessionStart context, for failure messages. */
function digestContext(raw: string): string {
  const at = raw.indexOf('agentctx');
  return at === -1 ? '(no agentctx context in the request)' : raw.slice(Math.max(0, at - 300), at + 3000);
}

describe.skipIf(!CLAUDE_BIN)('the whole loop with a real claude -p: two sessions, resume, compact', () => {
  let api: FakeApi;
  let p: Project;
  let conventionId: string;
  let oldDecisionId: string;
  let session1: string | null = null;
  let cannedSent = false;
  let chainOpen = true;

  /** The "model" of the extraction: the first answer is canned, later ones find nothing new. */
  function extractionReply(req: RecordedRequest): FakeReply {
    if (!cannedSent && req.raw.includes(RUN_MARK)) {
      cannedSent = true;
      return withDelay(
        EXTRACTION_DELAY_MS,
        use('record_context', {
          decisions: [
            {
              what: `Refund requests are kept in one refunds table, one row per refund (${NEW_MARK}).`,
              rationale: 'The developer wants an audit trail of refunds.',
              supersedes: null,
              confidence: 'explicit',
            },
            {
              what: `Card payments go through Adyen instead of Stripe (${SUPERSEDING_MARK}).`,
              rationale: 'Lower fees for EU cards.',
              supersedes: oldDecisionId,
              confidence: 'explicit',
            },
          ],
          preferences: [],
          conventions: [],
          active_work: {
            current_task: `Write the refunds table migration (${HANDOVER_MARK})`,
            blockers: [],
            next_steps: ['Name the migration file with a UTC timestamp prefix'],
            open_questions: [],
          },
          gotchas: [],
          flush_ok: false,
        }),
      );
    }
    return use('record_context', {
      decisions: [],
      preferences: [],
      conventions: [],
      active_work: null,
      gotchas: [],
      flush_ok: true,
    });
  }

  /** Session 1's agent loop: Bash test run, ToolSearch, ctx_search, ctx_get, ctx_record, answer. */
  function agentReply(req: RecordedRequest): FakeReply {
    // only session 1's own run plays the tool loop (resumed and compacted histories hold RUN_MARK too)
    if (!chainOpen || !req.raw.includes(RUN_MARK)) return text('Noted.');
    const results = toolResults(req);
    switch (results.length) {
      case 0:
        return use('Bash', { command: TEST_COMMAND, description: 'Run the cart tests' });
      case 1:
        return use('ToolSearch', {
          query: 'select:mcp__agentctx__ctx_search,mcp__agentctx__ctx_get,mcp__agentctx__ctx_record',
          max_results: 5,
        });
      case 2:
        return use('mcp__agentctx__ctx_search', { query: 'card payment provider' });
      case 3: {
        const ids = [...resultText(results[2]!).matchAll(/"id":\s*"([^"]+)"/g)].map((m) => m[1]!);
        return use('mcp__agentctx__ctx_get', { ids: ids.slice(0, 1) });
      }
      case 4:
        return use('mcp__agentctx__ctx_record', {
          type: 'decision',
          title: 'Refunds are issued through the job queue',
          body: `Refunds are issued asynchronously by a queued job (${MODEL_MARK}). The API only enqueues them.`,
        });
      default:
        // a real model takes seconds: the async PostToolUse hooks finish meanwhile
        return text('Tests pass; migrations take a UTC timestamp prefix. Done.', 2000);
    }
  }

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (isExtraction(req)) return extractionReply(req);
      if (isAgentTurn(req)) return agentReply(req);
      return text('Noted.');
    });
    p = setUpProject('agentctx-loop-', (home) => claudeEnv(home, api.url));
    conventionId = record(
      p,
      'convention',
      'Name database migration files with a UTC timestamp prefix',
      `Every database migration file is named <UTC timestamp>_<slug>.sql, e.g. 202611301200_add_orders.sql. ${CONVENTION_MARK}`,
    );
    oldDecisionId = record(
      p,
      'decision',
      'Card payments go through the Stripe payment provider',
      `We charge cards with Stripe Checkout; its webhooks confirm each payment. ${OLD_MARK}`,
    );
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await tearDown(p);
  }, 60_000);

  it(
    'session 1: injection, PostToolUse capture, ctx_search → ctx_get → ctx_record, extraction, digest',
    async () => {
      const started = Date.now();
      const run = await runClaude({
        cwd: p.repo,
        env: p.env,
        prompt: `${RUN_MARK}: run the cart tests, then tell me how to name the new database migration file for the refunds table.`,
        allowedTools: ['Bash', 'mcp__agentctx'],
        timeoutMs: RUN_MS,
      });
      chainOpen = false;
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.result?.is_error).toBe(false);
      session1 = run.sessionId;
      expect(session1).toBeTruthy();
      const turns = since(api, 0, (r) => isAgentTurn(r) && r.raw.includes(RUN_MARK));
      expect(turns.length).toBe(6);

      // UserPromptSubmit: the matching convention, with its id, in the first request (not in `system`)
      expect(turns[0]!.raw).toContain(CONVENTION_MARK);
      expect(turns[0]!.raw).toContain(conventionId);
      expect(JSON.stringify(turns[0]!.body.system ?? '')).not.toContain(CONVENTION_MARK);

      // the Bash test run came back to the model
      const bash = toolResults(turns[1]!)[0]!;
      expect(bash.is_error ?? false).toBe(false);
      expect(resultText(bash)).toMatch(/pass 1/);

      // ctx_search: the index (id, title; no body) in turn 4
      const search = toolResults(turns[3]!)[2]!;
      expect(search.is_error ?? false).toBe(false);
      const index = JSON.parse(resultText(search)) as { results: { id: string; title: string }[] };
      expect(index.results[0]).toMatchObject({
        id: oldDecisionId,
        title: 'Card payments go through the Stripe payment provider',
      });
      expect(resultText(search)).not.toContain(OLD_MARK);
      // ctx_get: the body in turn 5
      const got = toolResults(turns[4]!)[3]!;
      expect(got.is_error ?? false).toBe(false);
      expect(resultText(got)).toContain(OLD_MARK);
      // ctx_record: acknowledged in turn 6, in the store with Claude's session id
      const recorded = toolResults(turns[5]!)[4]!;
      expect(recorded.is_error ?? false, resultText(recorded)).toBe(false);
      const modelRows = query(p.dbPath, 'SELECT * FROM records WHERE body LIKE ?', `%${MODEL_MARK}%`);
      expect(modelRows).toHaveLength(1);
      expect(modelRows[0]).toMatchObject({
        type: 'decision',
        source: 'mcp_tool',
        confidence: 'explicit',
        session_id: session1,
      });

      // PostToolUse (async hook): the test run is a pass/fail discovery of this session
      const discovery = await waitFor(
        () =>
          query(
            p.dbPath,
            `SELECT * FROM records WHERE project_id = ? AND type = 'discovery' AND source = 'hook_observation'
             AND superseded_at IS NULL AND title LIKE ?`,
            p.projectId,
            `%${TEST_COMMAND}%`,
          )[0],
        { timeoutMs: DETACHED_MS, what: 'the PostToolUse test-run discovery' },
      );
      expect(discovery.title).toMatch(/^Tests pass \(0 failed, 1 passed\)/);
      expect(discovery.session_id).toBe(session1);

      // Stop → detached extraction: one request offering record_context, listing the existing
      // decision's id so the model can supersede it, carrying the session's transcript
      const extraction = await waitFor(() => api.requests.find(isExtraction), {
        timeoutMs: DETACHED_MS,
        what: 'the extraction request (record_context)',
      });
      expect(extraction.raw).toContain(oldDecisionId);
      expect(extraction.raw).toContain(RUN_MARK);
      expect((extraction.body.tool_choice as { name?: string } | undefined)?.name).toBe('record_context');

      // … and its answer ingested: a new decision, the superseding one, a handover
      const ingested = await waitFor(
        () => {
          const rows = query(
            p.dbPath,
            `SELECT * FROM records WHERE project_id = ? AND source = 'llm_extraction' AND superseded_at IS NULL`,
            p.projectId,
          );
          return rows.length >= 3 ? rows : null;
        },
        { timeoutMs: DETACHED_MS, what: 'the extraction to ingest the canned answer' },
      );
      const byMark = (m: string) => ingested.find((r) => r.title.includes(m) || r.body.includes(m));
      expect(byMark(NEW_MARK)).toMatchObject({
        type: 'decision',
        confidence: 'explicit',
        session_id: session1,
      });
      expect(byMark(HANDOVER_MARK)).toMatchObject({ type: 'handover', session_id: session1 });
      const superseding = byMark(SUPERSEDING_MARK);
      expect(superseding).toMatchObject({ type: 'decision', session_id: session1 });
      const old = query(p.dbPath, 'SELECT * FROM records WHERE id = ?', oldDecisionId)[0]!;
      expect(old.superseded_at).not.toBeNull();
      expect(old.superseded_by).toBe(superseding!.id);

      // SessionEnd → detached consolidation: the digest holds the new decisions and the handover
      const digest = await waitFor(
        () => {
          const d = readDigest(p.digests, p.projectId);
          return d?.text.includes(NEW_MARK) && d.text.includes(HANDOVER_MARK) ? d : null;
        },
        { timeoutMs: DETACHED_MS, what: 'a digest holding the extracted decision and handover' },
      ).catch((err: Error) => {
        const d = readDigest(p.digests, p.projectId);
        throw new Error(
          `${err.message}\ndigest now:\n${d?.text ?? '(none)'}\nconsolidate.log:\n${logText(p, 'consolidate')}\nextract.log:\n${logText(p, 'extract')}\nhooks.log:\n${logText(p, 'hooks')}`,
        );
      });
      expect(digest.text).toContain(SUPERSEDING_MARK);
      expect(digest.text).toContain(MODEL_MARK);
      expect(digest.text).not.toContain(OLD_MARK);
      console.log(`[whole-loop] session 1 and its detached work: ${Date.now() - started} ms`);
    },
    RUN_MS + 4 * DETACHED_MS,
  );

  it(
    'session 2: the SessionStart digest holds the new decision and the handover, not the superseded one',
    async () => {
      expect(session1).toBeTruthy();
      const started = Date.now();
      const before = api.requests.length;
      const run = await runClaude({
        cwd: p.repo,
        env: p.env,
        prompt: 'Good morning. Where are we?',
        timeoutMs: RUN_MS,
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.sessionId).toBeTruthy();
      expect(run.sessionId).not.toBe(session1);
      const turns = since(api, before, isAgentTurn);
      expect(turns.length).toBeGreaterThan(0);
      const contexts = sessionStartContexts(turns[0]!);
      expect(contexts, digestContext(turns[0]!.raw)).toHaveLength(1);
      const digest = contexts[0]!;
      const missing = [NEW_MARK, SUPERSEDING_MARK, HANDOVER_MARK, MODEL_MARK].filter(
        (m) => !digest.includes(m),
      );
      expect(missing, digest).toEqual([]);
      expect(digest).toContain('Name database migration files with a UTC timestamp prefix');
      expect(digest).not.toContain(OLD_MARK);
      expect(digest).not.toContain('Card payments go through the Stripe payment provider');
      // nothing brings the superseded decision back later in the session either
      for (const t of turns) expect(t.raw).not.toContain(OLD_MARK);
      expect(JSON.stringify(turns[0]!.body.system ?? '')).not.toContain(NEW_MARK);
      console.log(`[whole-loop] session 2: ${Date.now() - started} ms`);
    },
    RUN_MS + DETACHED_MS,
  );

  it(
    '--resume of session 1 fires SessionStart(resume) with the digest again',
    async () => {
      expect(session1).toBeTruthy();
      const started = Date.now();
      const before = api.requests.length;
      const run = await runClaude({
        cwd: p.repo,
        env: p.env,
        resume: session1 ?? undefined,
        prompt: 'Thanks.',
        timeoutMs: RUN_MS,
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.sessionId).toBe(session1);
      const turns = since(api, before, isAgentTurn);
      expect(turns.length).toBeGreaterThan(0);
      // the history holds session 1's startup context (written before extraction: without the
      // extracted decision); the resume context after it brings the digest
      const contexts = sessionStartContexts(turns[0]!);
      expect(contexts.length).toBeGreaterThanOrEqual(2);
      expect(contexts[0]).not.toContain(NEW_MARK);
      const resumed = contexts.at(-1)!;
      for (const mark of [NEW_MARK, SUPERSEDING_MARK, HANDOVER_MARK]) expect(resumed).toContain(mark);
      expect(resumed).not.toContain(OLD_MARK);
      const fired = hookRuns(transcriptOf(p, session1 as string) ?? '', 'SessionStart:resume');
      expect(fired.some((h) => h.includes(NEW_MARK))).toBe(true);
      console.log(`[whole-loop] resume: ${Date.now() - started} ms`);
    },
    RUN_MS + DETACHED_MS,
  );

  it(
    '/compact of session 1 fires PreCompact and SessionStart(compact) with the digest again',
    async () => {
      expect(session1).toBeTruthy();
      const started = Date.now();
      const transcriptBefore = transcriptOf(p, session1 as string) ?? '';
      const run = await runClaude({
        cwd: p.repo,
        env: p.env,
        resume: session1 ?? undefined,
        prompt: '/compact',
        timeoutMs: RUN_MS,
      });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const added = (transcriptOf(p, session1 as string) ?? '').slice(transcriptBefore.length);
      const lines = added
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TranscriptLine);
      const boundary = lines.findIndex((l) => l.type === 'system' && l.subtype === 'compact_boundary');
      expect(boundary).toBeGreaterThanOrEqual(0);
      const after = lines.slice(boundary);
      // the hook ran with source=compact and printed the digest …
      const fired = hookRuns(after.map((l) => JSON.stringify(l)).join('\n'), 'SessionStart:compact');
      expect(fired.length).toBe(1);
      expect(fired[0]).toContain(NEW_MARK);
      // … and Claude Code keeps it as context for the compacted conversation
      const kept = after.filter(
        (l) =>
          l.attachment?.type === 'hook_additional_context' && JSON.stringify(l.attachment).includes(NEW_MARK),
      );
      expect(kept.length).toBe(1);
      expect(JSON.stringify(kept[0])).toContain(HANDOVER_MARK);

      // PreCompact's detached `extract --precompact` runs, and its rule-built snapshot leaves the
      // richer handover the model wrote for this same session in place
      await waitFor(
        () =>
          logText(p, 'extract').includes(`extract ${session1}: precompact handover not written`)
            ? true
            : undefined,
        { timeoutMs: DETACHED_MS, what: 'the PreCompact snapshot run' },
      );
      const heads = query(
        p.dbPath,
        `SELECT * FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL`,
        p.projectId,
      );
      expect(heads).toHaveLength(1);
      expect(heads[0]!.source).toBe('llm_extraction');
      expect(heads[0]!.body).toContain(HANDOVER_MARK);

      // the next request of the compacted session carries the compact-time digest
      const before = api.requests.length;
      const next = await runClaude({
        cwd: p.repo,
        env: p.env,
        resume: session1 ?? undefined,
        prompt: 'What now?',
        timeoutMs: RUN_MS,
      });
      expect(next.code, `${next.stdout}\n${next.stderr}`).toBe(0);
      const turn = since(api, before, isAgentTurn)[0]!;
      expect(turn.raw).toContain('This session is being continued from a previous conversation');
      const contexts = sessionStartContexts(turn);
      // (the compact-time and resume-time digests are identical text here and the request holds
      // one copy; that SessionStart(compact) fired is checked above)
      expect(
        contexts.filter((c) => c.includes(NEW_MARK)).length,
        JSON.stringify(contexts).slice(0, 3000),
      ).toBeGreaterThanOrEqual(1);
      console.log(`[whole-loop] compact and the turn after: ${Date.now() - started} ms`);
    },
    RUN_MS * 2 + DETACHED_MS,
  );
});

describe.skipIf(!CLAUDE_BIN)(
  'the whole loop without an API key for extraction: rules leave the handover',
  () => {
    const NOKEY_MARK = 'NOKEY-RUN-91d7';
    let api: FakeApi;
    let p: Project;
    let first: string | null = null;

    beforeAll(async () => {
      let chainOpen = true;
      api = await startFakeApi((req) => {
        if (isExtraction(req)) return use('record_context', { flush_ok: true });
        if (!isAgentTurn(req) || !chainOpen || !req.raw.includes(NOKEY_MARK)) return text('Noted.');
        if (toolResults(req).length === 0)
          return use('Bash', { command: TEST_COMMAND, description: 'Run the cart tests' });
        chainOpen = false;
        return text('The cart tests pass; the rounding fix is next.', 2000);
      });
      // Claude Code signs in to the fake with a bearer token (ANTHROPIC_AUTH_TOKEN) instead of an
      // API key. Hooks inherit that environment, so agentctx's extraction sees no
      // ANTHROPIC_API_KEY (and no `claude` on this PATH for its CLI backend): rules only.
      p = setUpProject('agentctx-loop-nokey-', (home) => {
        const env = claudeEnv(home, api.url, { ANTHROPIC_AUTH_TOKEN: 'sk-test-bearer' });
        delete env.ANTHROPIC_API_KEY;
        return env;
      });
    }, 60_000);

    afterAll(async () => {
      await api?.close();
      await tearDown(p);
    }, 60_000);

    it(
      'session 1 ends with a rule-built handover in the store and the digest; no model is asked',
      async () => {
        const started = Date.now();
        const run = await runClaude({
          cwd: p.repo,
          env: p.env,
          prompt: `${NOKEY_MARK}: run the cart tests, then fix the checkout rounding bug.`,
          allowedTools: ['Bash'],
          timeoutMs: RUN_MS,
        });
        expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
        expect(run.result?.is_error).toBe(false);
        first = run.sessionId;
        expect(since(api, 0, (r) => isAgentTurn(r) && r.raw.includes(NOKEY_MARK)).length).toBe(2);
        const handover = await waitFor(
          () =>
            query(
              p.dbPath,
              `SELECT * FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL`,
              p.projectId,
            )[0],
          { timeoutMs: DETACHED_MS, what: 'the rule-based handover' },
        );
        expect(handover).toMatchObject({
          source: 'hook_observation',
          confidence: 'inferred',
          session_id: first,
        });
        expect(handover.body).toContain(NOKEY_MARK);
        expect(handover.body).toContain(TEST_COMMAND);
        expect(logText(p, 'extract')).toContain(`extract ${first}: rules only (no ANTHROPIC_API_KEY)`);
        const digest = await waitFor(
          () => {
            const d = readDigest(p.digests, p.projectId);
            return d?.text.includes(NOKEY_MARK) ? d : null;
          },
          { timeoutMs: DETACHED_MS, what: 'a digest holding the rule-based handover' },
        ).catch((err: Error) => {
          throw new Error(
            `${err.message}\ndigest now:\n${readDigest(p.digests, p.projectId)?.text ?? '(none)'}\nconsolidate.log:\n${logText(p, 'consolidate')}\nextract.log:\n${logText(p, 'extract')}`,
          );
        });
        expect(digest.text).toContain('Where the last session left off');
        // no request ever offered record_context: extraction never reached a model
        expect(api.requests.some(isExtraction)).toBe(false);
        console.log(`[whole-loop] no-key session 1 and its detached work: ${Date.now() - started} ms`);
      },
      RUN_MS + 2 * DETACHED_MS,
    );

    it(
      'session 2 gets the rule-based handover at SessionStart',
      async () => {
        expect(first).toBeTruthy();
        const started = Date.now();
        const before = api.requests.length;
        const run = await runClaude({
          cwd: p.repo,
          env: p.env,
          prompt: 'Where did we stop?',
          timeoutMs: RUN_MS,
        });
        expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
        expect(run.sessionId).not.toBe(first);
        const turns = since(api, before, isAgentTurn);
        expect(turns.length).toBeGreaterThan(0);
        const contexts = sessionStartContexts(turns[0]!);
        expect(contexts, digestContext(turns[0]!.raw)).toHaveLength(1);
        expect(contexts[0]).toContain('Where the last session left off');
        expect(contexts[0]).toContain(NOKEY_MARK);
        expect(contexts[0]).toContain('summarised automatically): (unconfirmed)');
        expect(api.requests.some(isExtraction)).toBe(false);
        console.log(`[whole-loop] no-key session 2: ${Date.now() - started} ms`);
      },
      RUN_MS + DETACHED_MS,
    );
  },
);
