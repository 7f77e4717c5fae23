import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunOutcome, runChild } from './child-run.js';
import {
  jsonFromText,
  type LlmClient,
  LlmError,
  type LlmUsage,
  retryable,
  type StructuredRequest,
  type StructuredResponse,
} from './client.js';
import { codexMcpServers } from './codex-detect.js';
import { strictSchema, withoutNullOptionals } from './strict-schema.js';

/**
 * `codex exec` as an extraction backend, for Codex users with no Anthropic key and no `claude`:
 * one non-interactive run per call, through whatever Codex is signed in with. The nested run
 * must not feed itself nor touch anything:
 * - `AGENTCTX_DISABLE=1`, so an agentctx hook or server that still starts is a no-op; and Codex
 *   itself runs no hooks (`--disable hooks`), no plugins, apps or subagents, and none of the MCP
 *   servers config.toml declares (`-c mcp_servers.<name>.enabled=false` each);
 * - no tool: the shell, images, web search, goals and subagents switched off (what stays,
 *   measured, is request_user_input, which `codex exec` refuses to run), and the read-only
 *   sandbox besides, in an empty scratch folder; `--ephemeral`, so no rollout is written among
 *   the user's sessions;
 * - the answer comes back through `--output-schema` (the record_context schema in OpenAI's
 *   strict form, strict-schema.ts) as the last message, written to a file with `-o`; token
 *   usage is read from the `--json` event stream.
 * Cost: what Codex is signed in with pays (a ChatGPT plan, or the user's key); agentctx does not
 * price it, so runs record 0.
 */

type Env = Record<string, string | undefined>;

interface CodexCliOptions {
  bin: string;
  /** `-m`, when the user chose one for extraction (else Codex's own default model). */
  model: string | null;
  env: Env;
  timeoutMs?: number;
  maxRetries?: number;
  scratchRoot?: string;
  log?: (message: string) => void;
}

function nestedEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.AGENTCTX_DISABLE = '1';
  return out;
}

function codexArgs(opts: CodexCliOptions, scratch: string): string[] {
  // `-c` takes a dotted path of bare keys (a quoted one is refused: measured)
  const off = codexMcpServers(opts.env)
    .filter((n) => /^[A-Za-z0-9_-]+$/.test(n))
    .flatMap((n) => ['-c', `mcp_servers.${n}.enabled=false`]);
  return [
    'exec',
    '--json',
    '--ephemeral',
    '--skip-git-repo-check',
    '--sandbox',
    'read-only',
    '--color',
    'never',
    '-C',
    scratch,
    '--output-schema',
    join(scratch, 'schema.json'),
    '-o',
    join(scratch, 'answer.txt'),
    ...['hooks', 'plugins', 'apps', 'shell_tool', 'view_image', 'multi_agent', 'goals'].flatMap((f) => [
      '--disable',
      f,
    ]),
    '-c',
    'web_search="disabled"',

    ...off,
    ...(opts.model ? ['-m', opts.model] : []),
    '-',
  ];
}

function prompt(req: StructuredRequest): string {
  return `${req.system}\n\nAnswer with the ${req.tool.name} input as one JSON object in the output schema given, and nothing else. There are no tools to call.\n\n${req.user}`;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Token usage summed over the `turn.completed` events of `--json`. */
function usageOf(stdout: string): LlmUsage {
  const usage: LlmUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  for (const line of stdout.split('\n')) {
    if (!line.includes('"usage"')) continue;
    try {
      const ev = JSON.parse(line) as { type?: string; usage?: Record<string, unknown> };
      if (ev.type !== 'turn.completed' || !ev.usage) continue;
      const cached = num(ev.usage.cached_input_tokens);
      usage.input_tokens += num(ev.usage.input_tokens) - cached;
      usage.cache_read_input_tokens += cached;
      usage.output_tokens += num(ev.usage.output_tokens);
    } catch {
      // not an event line
    }
  }
  return usage;
}

/** The error Codex reported (`{"type":"error"}` / `turn.failed` events), else its stderr's last line. */
function failure(out: RunOutcome): string {
  for (const line of out.stdout.split('\n').reverse()) {
    try {
      const ev = JSON.parse(line) as { type?: string; message?: string; error?: { message?: string } };
      if (ev.type === 'error' || ev.type === 'turn.failed') return ev.message ?? ev.error?.message ?? line;
    } catch {
      // not an event line
    }
  }
  return out.stderr.trim().split('\n').pop() ?? '';
}

function parseAnswer(out: RunOutcome, answerPath: string, schema: Record<string, unknown>, model: string) {
  let text = '';
  try {
    text = readFileSync(answerPath, 'utf8');
  } catch {
    text = '';
  }
  if (out.code !== 0 || !text.trim()) {
    const why = failure(out).slice(0, 300);
    throw new LlmError(`codex exited ${out.code ?? out.signal} without an answer${why ? `: ${why}` : ''}`);
  }
  const raw = jsonFromText(text);
  return {
    output: raw === undefined ? undefined : withoutNullOptionals(raw, schema),
    usage: usageOf(out.stdout),
    costUsd: 0,
    model,
  } satisfies StructuredResponse;
}

export function createCodexCliClient(opts: CodexCliOptions): LlmClient {
  const log = opts.log ?? (() => {});
  const model = opts.model ?? 'codex default';
  return {
    name: 'codex-cli',
    model,
    async structured(req: StructuredRequest): Promise<StructuredResponse> {
      const retries = opts.maxRetries ?? 1;
      for (let attempt = 0; ; attempt++) {
        const root = opts.scratchRoot ?? tmpdir();
        mkdirSync(root, { recursive: true });
        const scratch = realpathSync(mkdtempSync(join(root, 'agentctx-codex-')));
        const started = Date.now();
        let out: RunOutcome;
        const answerPath = join(scratch, 'answer.txt');
        let resp: StructuredResponse | undefined;
        let error: unknown;
        try {
          writeFileSync(join(scratch, 'schema.json'), JSON.stringify(strictSchema(req.tool.input_schema)));
          out = await runChild({
            bin: opts.bin,
            args: codexArgs(opts, scratch),
            input: prompt(req),
            cwd: scratch,
            env: nestedEnv(opts.env),
            timeoutMs: opts.timeoutMs ?? 120_000,
          });
          const ms = Date.now() - started;
          if (out.timedOut) {
            log(`codex-cli pid ${out.pid} timed out after ${ms} ms; killed its process group`);
            throw new LlmError(`timeout: codex timed out after ${opts.timeoutMs ?? 120_000} ms`);
          }
          resp = parseAnswer(out, answerPath, req.tool.input_schema, model);
          log(`codex-cli pid ${out.pid} answered in ${ms} ms`);
        } catch (err) {
          error = err;
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
        if (resp) return resp;
        if (attempt >= retries || !retryable(error)) throw error;
        log(`codex-cli attempt ${attempt + 1} failed (${(error as Error).message}); retrying`);
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      }
    },
  };
}
