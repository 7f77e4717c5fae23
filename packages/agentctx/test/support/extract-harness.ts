import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { resolveProject } from '../../src/app/project.js';
import type { ExtractionOutput } from '../../src/core/extraction/schema.js';
import { type Db, openDb } from '../../src/database/open.js';
import { BIN, isolatedEnv, type RunResult, spawnCollect } from './cli.js';
import { type FakeApi, type FakeReply, type RecordedRequest, startFakeApi } from './fake-messages-api.js';
import { fakeRepo, tempDir } from './tmp.js';

/** What an extraction test works with: the file's fake Messages API and this test's workspace. */
export interface ExtractScene {
  api: FakeApi;
  ws: Workspace;
  /** The test's temporary folder (removed after it). */
  dir: string;
}

/**
 * The set-up the extraction process tests share: one fake Messages API for the file, and a
 * fresh workspace (and an empty request log) for each test, handed to `onEach`.
 */
export function useExtractScene(onEach: (scene: ExtractScene) => void): void {
  let api: FakeApi | undefined;
  let t: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => {
    t = tempDir();
    api!.requests.length = 0;
    onEach({ api: api!, ws: workspace(t.path, api), dir: t.path });
  });
  afterEach(() => t?.cleanup());
}

/** Run the built `agentctx` without blocking this process (the fake API lives in it). */
export async function runAsync(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  const r = await spawnCollect(process.execPath, [BIN, ...args], opts);
  return { ...r, code: r.code ?? -1 };
}

export interface Workspace {
  home: string;
  repo: string;
  projectId: string;
  transcript: (sessionId: string) => string;
  env: (extra?: Record<string, string>) => NodeJS.ProcessEnv;
  db: () => Db;
}

export function workspace(dir: string, api?: FakeApi): Workspace {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const repo = fakeRepo(dir, 'shop', 'git@github.com:acme/shop.git');
  const projects = join(home, '.claude', 'projects', repo.replace(/[/.]/g, '-'));
  mkdirSync(projects, { recursive: true });
  return {
    home,
    repo,
    projectId: resolveProject(repo).id,
    transcript: (id) => join(projects, `${id}.jsonl`),
    env: (extra = {}) =>
      isolatedEnv(home, {
        ...(api ? { ANTHROPIC_API_KEY: 'sk-ant-api03-test-key', ANTHROPIC_BASE_URL: api.url } : {}),
        AGENTCTX_LLM_MAX_RETRIES: '0',
        ...extra,
      }),
    db: () => openDb(join(home, '.agentctx', 'agentctx.db')),
  };
}

export function extractArgs(ws: Workspace, sessionId: string, ...more: string[]): string[] {
  return [
    'extract',
    '--session-id',
    sessionId,
    '--transcript',
    ws.transcript(sessionId),
    '--cwd',
    ws.repo,
    '--json',
    ...more,
  ];
}

/** A model answer that calls record_context with `output`. */
export function answer(
  output: Partial<ExtractionOutput> | Record<string, unknown>,
  usage?: FakeReply['usage'],
): FakeReply {
  const full = {
    decisions: [],
    preferences: [],
    conventions: [],
    active_work: null,
    gotchas: [],
    reinforces: [],
    flush_ok: false,
    ...output,
  };
  return { content: [{ type: 'tool_use', name: 'record_context', input: full }], usage };
}

export function isExtraction(req: RecordedRequest): boolean {
  const tools = req.body.tools as { name?: string }[] | undefined;
  return Array.isArray(tools) && tools.some((t) => t.name === 'record_context');
}

export function userText(req: RecordedRequest): string {
  const messages = req.body.messages as { content: unknown }[];
  const c = messages[0]?.content;
  return typeof c === 'string' ? c : JSON.stringify(c);
}
