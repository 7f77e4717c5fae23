import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/database/open.js';
import { waitFor } from './claude.js';
import { runAgentctx } from './cli.js';
import type { ChatReply, ChatScript, FakeChatApi, RecordedChatRequest } from './fake-chat-api.js';
import { toolNames } from './fake-chat-api.js';
import { fakeRepo, tempDir } from './tmp.js';

/**
 * The one session the agent e2e tests (Qwen Code, Gemini CLI, OpenCode) run in each agent's
 * real client: the records it starts with, the turn the fake model plays (ctx_search through
 * the agent's MCP client, then a failing shell command, then the answer), and the checks
 * after it (the capture and the handover in the store, uninstall's byte-exact round trip).
 */

export const SESSION = {
  decision: 'Payments go through the ledger service',
  // recorded after the digest was written: only the prompt's search can bring it
  convention: 'Settlement scripts live in scripts/settle and run with node',
  prompt: 'How do payment writes reach the ledger service? Check the settlement script too.',
  answer:
    'Payments keep going through the ledger service; the settlement script is missing and must be restored.',
  command: 'node settle-missing.js',
  query: 'ledger service',
} as const;

/** The decision, a consolidation (so it is in the digest), then the convention (not in it). */
function seedSessionStore(repo: string, env: NodeJS.ProcessEnv): void {
  const record = (type: string, title: string, body: string) => {
    const r = runAgentctx(['record', '--type', type, '--title', title, '--body', body], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
  };
  record('decision', SESSION.decision, 'All payment writes call the ledger service.');
  const cons = runAgentctx(['consolidate'], { cwd: repo, env, timeoutMs: 60_000 });
  expect(cons.code, cons.stderr).toBe(0);
  record('convention', SESSION.convention, 'Every settlement script sits in scripts/settle/.');
}

/** The three moves of the turn, by how many tool results the request already carries. */
export function sessionMove<T>(done: number, search: () => T, shell: () => T, answer: () => T): T {
  if (done === 0) return search();
  if (done === 1) return shell();
  return answer();
}

/** Chat-completions requests that offer tools (the turn's, not the title's). */
export const chatTurns = (api: FakeChatApi) => api.requests.filter((r) => toolNames(r).length > 0);

function toolResults(r: RecordedChatRequest): number {
  const messages = Array.isArray(r.body.messages) ? (r.body.messages as { role?: string }[]) : [];
  return messages.filter((m) => m.role === 'tool').length;
}

/** The turn for an agent speaking chat completions: its search and shell tools' names. */
export function chatSessionScript(
  tools: { search: string; shell: string },
  answer: (req: RecordedChatRequest) => string = () => SESSION.answer,
): ChatScript {
  return (req): ChatReply => {
    if (toolNames(req).length === 0) return { type: 'text', text: 'ok' };
    return sessionMove<ChatReply>(
      toolResults(req),
      () => ({ type: 'tool_calls', calls: [{ name: tools.search, arguments: { query: SESSION.query } }] }),
      () => ({
        type: 'tool_calls',
        calls: [{ name: tools.shell, arguments: { command: SESSION.command, description: 'settle' } }],
      }),
      () => ({ type: 'text', text: answer(req) }),
    );
  };
}

interface StoredRow {
  type: string;
  title: string;
  body: string;
  agent: string;
}

/**
 * After the turn: the failing command captured as a bugfix and a handover extracted from the
 * agent's own transcript, both marked with the agent's name.
 */
export async function expectCaptureAndHandover(env: NodeJS.ProcessEnv, agent: string, after: string) {
  const db = resolvePaths(env as Record<string, string>).db;
  const rows = await waitFor(
    () => {
      if (!existsSync(db)) return false;
      const d = openDb(db);
      try {
        const r = d
          .prepare('SELECT type, title, body, agent FROM records ORDER BY recorded_at')
          .all() as StoredRow[];
        return r.some((x) => x.type === 'handover') ? r : false;
      } finally {
        d.close();
      }
    },
    { timeoutMs: 60_000, what: `the handover extracted after ${after}` },
  );
  const bugfix = rows.find((r) => r.type === 'bugfix');
  expect(bugfix?.body).toContain(SESSION.command);
  const handover = rows.find((r) => r.type === 'handover')!;
  // provenance: both were written for the agent's session, and say so
  expect(bugfix?.agent).toBe(agent);
  expect(handover.agent).toBe(agent);
  expect(`${handover.title}\n${handover.body}`).toMatch(/ledger service|settle/);
  return db;
}

/** `uninstall --agent NAME` gives the agent's settings file back as it was before init. */
export function expectUninstallRestores(agent: string, w: AgentSessionWorld<unknown>): void {
  const r = runAgentctx(['uninstall', '--agent', agent], { cwd: w.repo, env: w.env });
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(w.settingsFile, 'utf8')).toBe(w.settingsBefore);
}

/** One agent's session world, filled in by the suite's beforeAll. */
export interface AgentSessionWorld<Api> {
  api: Api;
  home: ReturnType<typeof tempDir>;
  repo: string;
  env: NodeJS.ProcessEnv;
  /** The user's settings file as it was before init (uninstall must give it back). */
  settingsFile: string;
  settingsBefore: string;
  run: { code: number | null; stdout: string; stderr: string };
}

/**
 * The suite's setup and teardown: the client installed (outside the session's timeout), the
 * fake API, a throwaway home with a repository, the user's settings, `agentctx init --agent`,
 * the seeded store, then the one session. Returns the world its tests read once it ran.
 */
export function agentSessionSuite<Api extends { url: string; close: () => Promise<void> }>(opts: {
  agent: string;
  install: () => void;
  startApi: () => Promise<Api>;
  env: (home: string, apiUrl: string) => NodeJS.ProcessEnv;
  /** Writes the user's settings before init; returns the file. */
  settings: (home: string, apiUrl: string) => string;
  run: (cwd: string, env: NodeJS.ProcessEnv) => Promise<AgentSessionWorld<Api>['run']>;
}): AgentSessionWorld<Api> {
  const w = {} as AgentSessionWorld<Api>;
  beforeAll(async () => {
    opts.install();
    w.api = await opts.startApi();
    w.home = tempDir(`agentctx-${opts.agent}-`);
    w.repo = fakeRepo(w.home.path, 'shop', 'git@github.com:acme/shop.git');
    w.env = opts.env(w.home.path, w.api.url);
    w.settingsFile = opts.settings(w.home.path, w.api.url);
    w.settingsBefore = readFileSync(w.settingsFile, 'utf8');
    const init = runAgentctx(['init', '--agent', opts.agent], { cwd: w.repo, env: w.env });
    expect(init.code, init.stderr).toBe(0);
    seedSessionStore(w.repo, w.env);
    w.run = await opts.run(w.repo, w.env);
  }, 900_000);
  afterAll(async () => {
    await w.api?.close();
    w.home?.cleanup();
  });
  return w;
}
