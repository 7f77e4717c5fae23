import './mcp/zod-jitless.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApp } from './app/context.js';
import { appendLog } from './app/log.js';
import { guardChannel } from './mcp/channel.js';
import type { ToolContext } from './mcp/context.js';
import { accountResult, sessionIdFromEnv } from './mcp/context.js';
import { startSemantic } from './mcp/semantic.js';
import { createMcpServer } from './mcp/server.js';
import { errorMessage } from './shared/errors.js';

/**
 * `agentctx mcp`: the stdio MCP server Claude Code spawns for one session, with the project as
 * its working directory. stdout carries protocol messages only, so anything that would print
 * through `console` goes to stderr instead.
 */
for (const level of ['log', 'info', 'debug', 'warn', 'trace'] as const) {
  console[level] = (...args: unknown[]) => console.error(...args);
}

const app = createApp({ cwd: process.cwd() });
const logFailure = (what: string) => (err: unknown) => {
  appendLog(app.paths.logs, 'mcp', `${what}: ${errorMessage(err)}`);
  process.stderr.write(`agentctx mcp: ${what}: ${errorMessage(err)}\n`);
};
process.on('uncaughtException', logFailure('uncaught exception'));
process.on('unhandledRejection', logFailure('unhandled rejection'));

const ctx: ToolContext = { app, sessionId: sessionIdFromEnv(app.env) };
const server = createMcpServer(ctx);
const transport = guardChannel(new StdioServerTransport(), (text) => accountResult(ctx, text));
let closed = false;
const shutdown = () => {
  if (closed) return;
  closed = true;
  try {
    app.close();
  } catch {
    // closing is best effort
  }
  process.exit(0);
};
transport.onclose = shutdown;
process.stdin.on('end', shutdown);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

server.connect(transport).then(() => {
  // Open (and migrate) the store while the client is still handshaking.
  setImmediate(() => {
    try {
      void app.db;
    } catch (err) {
      logFailure('cannot open the store')(err);
      return;
    }
    // then the embedder, in the background: ctx_search is keyword-only until it is ready
    ctx.semantic = startSemantic(app);
  });
}, logFailure('cannot start'));
