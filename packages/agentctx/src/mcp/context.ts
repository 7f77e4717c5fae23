import type { App } from '../app/context.js';

/** What every tool handler gets: the composition root and the Claude Code session, if known. */
export interface ToolContext {
  app: App;
  /** The Claude Code session this server serves (from its environment), for self-accounting. */
  sessionId: string | null;
}

/** Claude Code passes its session id to the processes it spawns. */
export function sessionIdFromEnv(env: Record<string, string | undefined>): string | null {
  const id = env.CLAUDE_CODE_SESSION_ID?.trim();
  return id ? id.slice(0, 200) : null;
}
