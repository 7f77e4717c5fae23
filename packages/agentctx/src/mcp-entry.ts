import { createApp } from './app/context.js';
import { appendLog } from './app/log.js';
import type { ToolContext } from './mcp/context.js';
import { accountResult, ladderMarker, serverContext } from './mcp/context.js';
import { createProtocol, serveStdio } from './mcp/protocol.js';
import { startSemantic } from './mcp/semantic.js';
import { createTools, SERVER_INFO } from './mcp/server.js';
import { errorMessage } from './shared/errors.js';

/**
 * `agentctx mcp`: the stdio MCP server an agent spawns for one session, with the project as
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

const ctx: ToolContext = serverContext(app);
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
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// a client that went away: nothing more can be said
process.stdout.on('error', shutdown);

const tools = createTools(ctx);
serveStdio(
  (send) =>
    createProtocol({
      info: SERVER_INFO,
      tools,
      send,
      onIgnored: (why) => process.stderr.write(`agentctx mcp: ignored ${why}\n`),
      // CONTRACTS.md §accounting: every tool result, success or failure
      onToolResult: (result, meta) => accountResult(ctx, result.content.map((c) => c.text).join(''), meta),
    }),
  process.stdin,
  process.stdout,
  shutdown,
);

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
  // and the degradation ladder every result reports (config, model and package checks), while
  // the client is still busy with the handshake
  ladderMarker(ctx);
});
