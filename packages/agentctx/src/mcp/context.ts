import { hookScope } from '../app/agent-scope.js';
import type { App } from '../app/context.js';
import { readIncognito } from '../app/incognito.js';
import { degradation, degradedMarker, type RungMarker } from '../app/ladder.js';
import { appendLog } from '../app/log.js';
import { keepingDfCache } from '../core/retrieval/query.js';
import { addInjectedTokens } from '../database/sessions-repo.js';
import type { WriterFilter } from '../database/writer-filter.js';
import { agentSessionFromEnv, agentSessionFromMeta, type HookAgent, hookAgentOf } from '../shared/agents.js';
import { errorMessage } from '../shared/errors.js';
import { estimateTokens } from '../shared/tokens.js';
import type { McpSemantic } from './semantic.js';

/** What every tool handler gets: the composition root and the agent's session, if known. */
export interface ToolContext {
  app: App;
  /**
   * The session this server serves, as its agent names it (shared/agents.ts: from the
   * environment, or per call for Codex): for incognito, provenance and self-accounting.
   */
  sessionId: string | null;
  /** The agent the server was registered for (`AGENTCTX_AGENT`; Claude Code when unset). */
  agent?: HookAgent;
  /** The background-loaded embedder (hybrid ctx_search once ready). */
  semantic?: McpSemantic;
  /** The last reading of the degradation ladder (ladderMarker). */
  ladder?: { at: number; marker: RungMarker | undefined };
}

/** How long a reading of the ladder serves (it checks files: config, model, credentials). */
const LADDER_TTL_MS = 10_000;

/**
 * The `degraded` marker of CONTRACTS.md §ladder that retrieval results carry below rung 1
 * (app/ladder.ts), read at most every LADDER_TTL_MS. A search that fell further (like-search,
 * pinned-only) reports its own rung instead.
 */
export function ladderMarker(ctx: ToolContext): RungMarker | undefined {
  const now = Date.now();
  if (!ctx.ladder || now - ctx.ladder.at > LADDER_TTL_MS) {
    const { app } = ctx;
    let marker: RungMarker | undefined;
    try {
      marker = degradedMarker(
        degradation({ db: app.db, config: app.config, paths: app.paths, env: app.env, now: app.clock() }),
      );
    } catch (err) {
      appendLog(app.paths.logs, 'mcp', `degradation check failed: ${errorMessage(err)}`);
    }
    ctx.ladder = { at: now, marker };
  }
  return ctx.ladder.marker;
}

/** The agent this server serves and its session from the environment (mcp-entry.ts). */
export function serverContext(app: App): ToolContext {
  const agent = hookAgentOf([], app.env);
  return { app, agent, sessionId: agentSessionFromEnv(agent, app.env) };
}

/** The context of one tool call: the session its request names, where the agent names it there. */
export function callContext(ctx: ToolContext, meta: Record<string, unknown> | undefined): ToolContext {
  const id = agentSessionFromMeta(ctx.agent ?? hookAgentOf([], ctx.app.env), meta);
  return id && id !== ctx.sessionId ? { ...ctx, sessionId: id } : ctx;
}

/**
 * Whose records this server's agent may be shown (app/agent-scope.ts): read per call, so a
 * change to `agents.isolate` reaches running sessions. The agent is the one the server was
 * registered for (`AGENTCTX_AGENT`; Claude Code's registration sets none).
 */
export function mcpWriters(ctx: ToolContext): WriterFilter | undefined {
  return hookScope(ctx.app.paths.config, hookAgentOf([], ctx.app.env)).writers;
}

/** CONTRACTS.md §accounting: add what a tool result costs the context window to the session. */
export function accountResult(server: ToolContext, text: string, meta?: Record<string, unknown>): void {
  const ctx = callContext(server, meta);
  if (!ctx.sessionId) return;
  try {
    // an incognito session leaves no trace, its token count included
    if (readIncognito(ctx.app.paths)?.session === ctx.sessionId) return;
    const { app } = ctx;
    const sessionId = ctx.sessionId;
    keepingDfCache(app.db, () =>
      addInjectedTokens(app.db, sessionId, app.project.id, estimateTokens(text), app.clock().toISOString()),
    );
  } catch (err) {
    appendLog(ctx.app.paths.logs, 'mcp', `accounting failed: ${errorMessage(err)}`);
  }
}
