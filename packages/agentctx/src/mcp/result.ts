import { readIncognito } from '../app/incognito.js';
import { appendLog } from '../app/log.js';
import { SqliteError } from '../database/sqlite.js';
import { damagedStore, isDamagedStore } from '../database/store-error.js';
import { AgentctxError, errorMessage } from '../shared/errors.js';
import { callContext, type ToolContext } from './context.js';
import type { ToolDef, ToolResult } from './protocol.js';
import { checkObject, type Infer, objectSchema, type Shape } from './schema.js';

/**
 * The MCP boundary: every tool answers with one JSON text block. A failure is the structured
 * `{error, degraded?}` of CONTRACTS.md §mcp-errors with `isError: true`; nothing raw reaches the
 * channel.
 */

export type Json = Record<string, unknown>;

interface ToolError extends Json {
  error: string;
  degraded?: string;
  code?: string;
}

/** A domain or store failure as the structured error object (`storePath` names a damaged store). */
export function toToolError(thrown: unknown, storePath = 'agentctx.db'): ToolError {
  const err = isDamagedStore(thrown) ? damagedStore(storePath, thrown) : thrown;
  if (err instanceof AgentctxError) {
    const { degraded, ...details } = err.details as Json;
    const out: ToolError = { error: err.message, code: err.code, ...details };
    if (typeof degraded === 'string') out.degraded = degraded;
    return out;
  }
  const message = errorMessage(err);
  // classified by type and SQLite's result code, never by the wording of a message
  if (err instanceof SqliteError) {
    if (err.code.startsWith('SQLITE_BUSY') || err.code.startsWith('SQLITE_LOCKED'))
      return { error: 'the store is busy; try again', code: 'busy', degraded: 'store-busy' };
    return { error: `the store is unavailable: ${message}`, code: 'store_unavailable', degraded: 'no-store' };
  }
  return { error: `internal error: ${message}`, code: 'internal' };
}

function textResult(payload: Json, isError: boolean): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(payload) }] };
  if (isError) result.isError = true;
  return result;
}

interface ToolSpec<S extends Shape> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  annotations?: Record<string, boolean>;
  /** Stores what the agent passes (ctx_record, ctx_supersede): refused in an incognito session. */
  writes?: boolean;
  run: (args: Infer<S>, ctx: ToolContext) => Json | Promise<Json>;
}

/** Is the session this server serves the incognito one (app/incognito.ts)? */
export function incognitoSession(ctx: ToolContext): boolean {
  if (!ctx.sessionId) return false;
  try {
    return readIncognito(ctx.app.paths)?.session === ctx.sessionId;
  } catch {
    return false;
  }
}

/** Add one tool to the server's list; its handler checks its arguments and never throws. */
export function registerTool<S extends Shape>(tools: ToolDef[], ctx: ToolContext, spec: ToolSpec<S>): void {
  const handler = async (raw: unknown, meta?: Record<string, unknown>): Promise<ToolResult> => {
    const call = callContext(ctx, meta);
    const checked = checkObject(spec.inputSchema, raw);
    if (!checked.ok) {
      return textResult(
        {
          error: `Invalid arguments for tool ${spec.name}: ${checked.problems.join('; ')}`,
          code: 'invalid_input',
        },
        true,
      );
    }
    const args = checked.value;
    let result: ToolResult;
    try {
      void ctx.app.db; // opened once, lazily; a store that cannot open is its own error
    } catch (err) {
      appendLog(ctx.app.paths.logs, 'mcp', `cannot open the store: ${errorMessage(err)}`);
      return textResult(
        isDamagedStore(err)
          ? toToolError(err, ctx.app.paths.db)
          : {
              error: `the store is unavailable: ${errorMessage(err)}`,
              code: 'store_unavailable',
              degraded: 'no-store',
            },
        true,
      );
    }
    if (spec.writes && incognitoSession(call))
      return textResult(
        {
          error:
            'this session is incognito: agentctx stores nothing from it (agentctx incognito off, or a new session, ends it)',
          code: 'incognito',
        },
        true,
      );
    try {
      result = textResult(await spec.run(args, call), false);
    } catch (err) {
      const payload = toToolError(err, ctx.app.paths.db);
      if (!(err instanceof AgentctxError)) {
        appendLog(ctx.app.paths.logs, 'mcp', `${spec.name} failed: ${errorMessage(err)}`);
      }
      result = textResult(payload, true);
    }
    return result;
  };
  tools.push({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: objectSchema(spec.inputSchema),
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
    call: handler,
  });
}
