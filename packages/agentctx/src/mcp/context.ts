import type { App } from '../app/context.js';
import { appendLog } from '../app/log.js';
import { errorMessage } from '../shared/errors.js';
import { estimateTokens } from '../shared/tokens.js';
import { addInjectedTokens } from '../storage/sessions-repo.js';
import type { McpSemantic } from './semantic.js';

/** What every tool handler gets: the composition root and the Claude Code session, if known. */
export interface ToolContext {
  app: App;
  /** The Claude Code session this server serves (from its environment), for self-accounting. */
  sessionId: string | null;
  /** The background-loaded embedder (hybrid ctx_search once ready). */
  semantic?: McpSemantic;
}

/** Claude Code passes its session id to the processes it spawns. */
export function sessionIdFromEnv(env: Record<string, string | undefined>): string | null {
  const id = env.CLAUDE_CODE_SESSION_ID?.trim();
  return id ? id.slice(0, 200) : null;
}

/** SPEC §9 self-accounting: add what a tool result costs the context window to the session. */
export function accountResult(ctx: ToolContext, text: string): void {
  if (!ctx.sessionId) return;
  try {
    const { app } = ctx;
    addInjectedTokens(app.db, ctx.sessionId, app.project.id, estimateTokens(text), app.clock().toISOString());
  } catch (err) {
    appendLog(ctx.app.paths.logs, 'mcp', `accounting failed: ${errorMessage(err)}`);
  }
}
