import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject } from '../../src/app/project.js';
import { Db as Database } from '../../src/database/sqlite.js';
import { type McpSession, startMcp } from '../process/mcp/client.js';
import { BIN, isolatedEnv, spawnCollect } from '../support/cli.js';
import type { FakeApi } from '../support/fake-messages-api.js';
import { fakeRepo } from '../support/tmp.js';
import { VirtualClock } from './clock.js';

/**
 * The real system the model test drives: one agentctx home, two git repositories (projects A
 * and B) in one temporary folder, the built CLI, hook and MCP processes, the dashboard, and the
 * fake Messages API of the test file. Every process gets the virtual clock.
 */

export type ProjectKey = 'A' | 'B';
export const PROJECTS: readonly ProjectKey[] = ['A', 'B'];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Dashboard {
  child: ChildProcess;
  base: string;
  port: number;
  token: string;
}

const ORIGINS: Record<ProjectKey, string> = {
  A: 'git@github.com:acme/orders-a.git',
  B: 'https://github.com/acme/billing-b.git',
};

/** A repository with something for the profile detection to read. */
function makeRepo(dir: string, key: ProjectKey): string {
  const repo = fakeRepo(dir, `repo-${key.toLowerCase()}`, ORIGINS[key]);
  writeFileSync(
    join(repo, 'package.json'),
    JSON.stringify({ name: `svc-${key.toLowerCase()}`, scripts: { test: 'vitest run', build: 'tsc' } }),
  );
  return repo;
}

export class World {
  readonly home: string;
  readonly agentHome: string;
  readonly tmp: string;
  readonly clock: VirtualClock;
  readonly repo: Record<ProjectKey, string>;
  readonly projectId: Record<ProjectKey, string>;
  private readonly mcps = new Map<ProjectKey, McpSession>();
  private dashboard: Dashboard | null = null;
  private logOffset = 0;
  private readonly pids = new Set<number>();

  /** A world inside `dir`: made fresh, or (`existing`) a copy of another world's folder. */
  constructor(
    readonly dir: string,
    readonly api: FakeApi,
    existing = false,
  ) {
    this.home = join(dir, 'home');
    this.agentHome = join(this.home, '.agentctx');
    this.tmp = join(this.home, 'tmp');
    if (!existing) {
      mkdirSync(this.tmp, { recursive: true });
      mkdirSync(join(this.home, '.claude', 'projects'), { recursive: true });
      makeRepo(dir, 'A');
      makeRepo(dir, 'B');
    }
    this.repo = { A: join(dir, 'repo-a'), B: join(dir, 'repo-b') };
    this.projectId = { A: resolveProject(this.repo.A).id, B: resolveProject(this.repo.B).id };
    this.clock = new VirtualClock(dir);
  }

  get dbPath(): string {
    return join(this.agentHome, 'agentctx.db');
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return isolatedEnv(this.home, {
      ...this.clock.env(),
      ANTHROPIC_API_KEY: 'sk-ant-api03-model-test',
      ANTHROPIC_BASE_URL: this.api.url,
      AGENTCTX_LLM_MAX_RETRIES: '0',
      AGENTCTX_LLM_TIMEOUT_MS: '20000',
      ...extra,
    });
  }

  /** Run `agentctx ARGS` in project `p` (never blocks: the fake API lives in this process). */
  async cli(p: ProjectKey, args: readonly string[], input?: string): Promise<Run> {
    const r = await spawnCollect(process.execPath, [BIN, ...args], {
      cwd: this.repo[p],
      env: this.env(),
      input,
      timeoutMs: 90_000,
    });
    return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  /** `agentctx ARGS --json`, parsed; `json` is null when stdout is not one JSON value. */
  async cliJson(p: ProjectKey, args: readonly string[]): Promise<Run & { json: unknown }> {
    const r = await this.cli(p, [...args, '--json']);
    let json: unknown = null;
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = null;
    }
    return { ...r, json };
  }

  /** Run `agentctx hook EVENT` in project `p` with a payload, as Claude Code would. */
  async hook(p: ProjectKey, event: string, payload: Record<string, unknown>): Promise<Run> {
    return this.cli(p, ['hook', event], JSON.stringify({ cwd: this.repo[p], ...payload }));
  }

  /** The project's MCP client (one server per project, kept across steps). */
  async mcp(p: ProjectKey): Promise<McpSession> {
    let s = this.mcps.get(p);
    if (!s) {
      s = await startMcp(this.repo[p], this.env());
      this.mcps.set(p, s);
    }
    return s;
  }

  async closeMcp(): Promise<void> {
    const all = [...this.mcps.values()];
    this.mcps.clear();
    await Promise.all(all.map((s) => s.close().catch(() => {})));
  }

  /** The dashboard (`agentctx ui`), started in project A on a free port. */
  async ui(): Promise<Dashboard> {
    if (this.dashboard) return this.dashboard;
    const child = spawn(process.execPath, [BIN, 'ui', '--port', '0', '--no-open', '--json'], {
      cwd: this.repo.A,
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // the URL it prints carries the token every request needs (?token=…)
    const [url, token] = await new Promise<[string, string]>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`dashboard did not start: ${err}`)), 30_000);
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString('utf8');
        const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve([m[1]!, m[2]!]);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`dashboard exited ${code}: ${err}`));
      });
    });
    this.dashboard = { child, base: url, port: Number(url.split(':').pop()), token };
    return this.dashboard;
  }

  /** A dashboard API call; `json` is the parsed answer. */
  async uiCall(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const d = await this.ui();
    const res = await fetch(`${d.base}/api${path}`, {
      method,
      headers:
        method === 'POST'
          ? { 'content-type': 'application/json', 'x-agentctx-token': d.token }
          : { 'x-agentctx-token': d.token },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }

  async stopUi(): Promise<void> {
    const d = this.dashboard;
    this.dashboard = null;
    if (!d || d.child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        d.child.kill('SIGKILL');
        resolve();
      }, 5000);
      d.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      d.child.kill('SIGTERM');
    });
  }

  /**
   * Wait for the background jobs the hooks started (`logs/hooks.log` names their pids), so the
   * next step meets a settled store. A job still running after `waitMs` is killed (its group).
   */
  async settle(waitMs = 60_000): Promise<void> {
    const log = join(this.agentHome, 'logs', 'hooks.log');
    if (existsSync(log)) {
      const text = readFileSync(log, 'utf8');
      for (const m of text.slice(this.logOffset).matchAll(/spawned agentctx \S+ pid=(\d+)/g))
        this.pids.add(Number(m[1]));
      this.logOffset = text.length;
    }
    const until = Date.now() + waitMs;
    for (const pid of [...this.pids]) {
      while (running(pid) && Date.now() < until) await sleep(40);
      if (running(pid)) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      this.pids.delete(pid);
    }
  }

  /** Read the store directly (ground truth for the checks), read-only, closed after. */
  read<T>(fn: (db: Database) => T): T {
    if (!existsSync(this.dbPath)) return fn(emptyDb());
    const db = new Database(this.dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  /** Write the store directly (only to delete derived data, as a user may). */
  write(fn: (db: Database) => void): void {
    if (!existsSync(this.dbPath)) return;
    const db = new Database(this.dbPath, { fileMustExist: true });
    db.pragma('busy_timeout = 10000');
    try {
      fn(db);
    } finally {
      db.close();
    }
  }

  async close(): Promise<void> {
    await this.closeMcp();
    await this.stopUi();
    await this.settle(20_000);
  }
}

let empty: Database | null = null;
/** An in-memory store with the tables the checks read, for a world where nothing ran yet. */
function emptyDb(): Database {
  if (!empty) {
    empty = new Database(':memory:');
    empty.exec(`CREATE TABLE records (id TEXT, project_id TEXT, type TEXT, title TEXT, body TEXT, scope TEXT,
      pinned INT, confidence TEXT, reinforce_count INT, valid_from TEXT, recorded_at TEXT, superseded_at TEXT,
      superseded_by TEXT, access_count INT, last_accessed TEXT, score REAL, claudemd_drift_score REAL,
      source TEXT, session_id TEXT, pending_embedding INT);
      CREATE TABLE sessions (session_id TEXT, project_id TEXT, started_at TEXT, ended_at TEXT,
      tokens_injected INT, extraction_cost_usd REAL);`);
  }
  return empty;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // a zombie (exited, not yet reaped by an init that may never reap it) is done
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return !existsSync('/proc/self'); // without /proc, assume it still runs
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
