import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunOutcome, runChild } from './child-run.js';
import { claudeConfigDir } from './claude-detect.js';
import {
  jsonFromText,
  type LlmClient,
  LlmError,
  type LlmUsage,
  retryable,
  type StructuredRequest,
  type StructuredResponse,
} from './client.js';
import { costOf } from './pricing.js';

/**
 * The `claude` CLI as an extraction backend, for users signed in with a subscription: one
 * `claude -p --output-format json` run per call, billed to their plan. The nested session must
 * not feed itself:
 * - `AGENTCTX_DISABLE=1`, so an agentctx hook that still runs is a no-op (and starts no
 *   extraction); `--setting-sources ""` loads no user/project/local settings, so no hooks;
 *   `--strict-mcp-config` with an empty `--mcp-config`, so no MCP servers; `--tools ""`;
 * - it runs in a fresh scratch directory with `--no-session-persistence`, so no transcript is
 *   written, and a transcript folder for the scratch directory is removed afterwards anyway;
 * - a hard timeout kills its whole process group (child-run.ts).
 * The answer comes back through `--json-schema` (Claude Code's StructuredOutput tool) with the
 * record_context schema; the same JSON in the result text is accepted too.
 */

type Env = Record<string, string | undefined>;

interface ClaudeCliOptions {
  /** The `claude` executable. */
  bin: string;
  /** `--model` value (an alias like `haiku`, or a full model name). */
  model: string;
  /** The caller's environment, passed on (minus Claude Code session variables). */
  env: Env;
  timeoutMs?: number;
  maxRetries?: number;
  /** Where scratch directories are made (default: the system temp dir). */
  scratchRoot?: string;
  /** Told about each run (pid, outcome), for the extract log. */
  log?: (message: string) => void;
}

/** Variables of the session that spawned us: the nested run must not think it is inside it. */
const SESSION_VARS = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_ENV_FILE',
  'CLAUDE_CODE_SSE_PORT',
];

function nestedEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SESSION_VARS.includes(k)) out[k] = v;
  out.AGENTCTX_DISABLE = '1';
  out.DISABLE_AUTOUPDATER = '1';
  out.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC ??= '1';
  return out;
}

function claudeArgs(req: StructuredRequest, model: string): string[] {
  const system = `${req.system}\n\nHere the ${req.tool.name} tool is called StructuredOutput: answer by calling StructuredOutput once, with the ${req.tool.name} input.`;
  return [
    '-p',
    '--output-format',
    'json',
    '--model',
    model,
    '--system-prompt',
    system,
    '--json-schema',
    JSON.stringify(req.tool.input_schema),
    '--tools',
    '',
    '--setting-sources',
    '',
    '--strict-mcp-config',
    '--mcp-config',
    '{"mcpServers":{}}',
    '--disable-slash-commands',
    '--no-session-persistence',
  ];
}

/** Claude Code's transcript folder name for a working directory. */
function projectFolderName(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, '-');
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function parseResult(out: RunOutcome, model: string): StructuredResponse {
  let result: Record<string, unknown>;
  try {
    const parsed = JSON.parse(out.stdout.trim()) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    result = parsed as Record<string, unknown>;
  } catch {
    const why = out.stderr.trim().split('\n').pop() ?? '';
    throw new LlmError(
      `claude exited ${out.code ?? out.signal} without a JSON result${why ? `: ${why.slice(0, 300)}` : ''}`,
    );
  }
  if (result.is_error === true || (result.subtype && result.subtype !== 'success')) {
    const status = typeof result.api_error_status === 'number' ? result.api_error_status : undefined;
    const text = typeof result.result === 'string' ? result.result.slice(0, 300) : '';
    throw new LlmError(
      `claude ${String(result.subtype ?? 'error')}${status ? ` ${status}` : ''}: ${text}`,
      status,
    );
  }
  const u = (result.usage ?? {}) as Record<string, unknown>;
  const usage: LlmUsage = {
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_creation_input_tokens: num(u.cache_creation_input_tokens),
    cache_read_input_tokens: num(u.cache_read_input_tokens),
  };
  const output =
    result.structured_output !== undefined && result.structured_output !== null
      ? result.structured_output
      : typeof result.result === 'string'
        ? jsonFromText(result.result)
        : undefined;
  const models = Object.keys((result.modelUsage ?? {}) as Record<string, unknown>);
  const cost =
    typeof result.total_cost_usd === 'number' && Number.isFinite(result.total_cost_usd)
      ? result.total_cost_usd
      : costOf(usage);
  return { output, usage, costUsd: cost, model: models[0] ?? model };
}

export function createClaudeCliClient(opts: ClaudeCliOptions): LlmClient {
  const log = opts.log ?? (() => {});
  return {
    name: 'claude-cli',
    model: opts.model,
    async structured(req: StructuredRequest): Promise<StructuredResponse> {
      const args = claudeArgs(req, opts.model);
      const retries = opts.maxRetries ?? 1;
      for (let attempt = 0; ; attempt++) {
        const root = opts.scratchRoot ?? tmpdir();
        mkdirSync(root, { recursive: true });
        const scratch = realpathSync(mkdtempSync(join(root, 'agentctx-claude-')));
        const started = Date.now();
        let out: RunOutcome;
        try {
          out = await runChild({
            bin: opts.bin,
            args,
            input: req.user,
            cwd: scratch,
            env: nestedEnv(opts.env),
            timeoutMs: opts.timeoutMs ?? 120_000,
          });
        } finally {
          rmSync(scratch, { recursive: true, force: true });
          // --no-session-persistence writes no transcript; remove the folder if a version does
          rmSync(join(claudeConfigDir(opts.env), 'projects', projectFolderName(scratch)), {
            recursive: true,
            force: true,
          });
        }
        const ms = Date.now() - started;
        try {
          if (out.timedOut) {
            log(`claude-cli pid ${out.pid} timed out after ${ms} ms; killed its process group`);
            throw new LlmError(`timeout: claude timed out after ${opts.timeoutMs ?? 120_000} ms`);
          }
          const resp = parseResult(out, opts.model);
          log(`claude-cli pid ${out.pid} answered in ${ms} ms ($${resp.costUsd.toFixed(5)})`);
          return resp;
        } catch (err) {
          if (attempt >= retries || !retryable(err)) throw err;
          log(`claude-cli attempt ${attempt + 1} failed (${(err as Error).message}); retrying`);
          await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
        }
      }
    },
  };
}
