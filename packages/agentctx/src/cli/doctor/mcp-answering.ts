import { existsSync, readFileSync } from 'node:fs';
import { COPILOT, CURSOR } from '../../agents/cursor-copilot.js';
import { GEMINI, OPENCODE, QWEN } from '../../agents/json-agents.js';
import type { App } from '../../app/context.js';
import { codexConfigPath } from '../../codex/hooks-file.js';
import { CODEX_PLUGIN_SERVER } from '../../codex/plugin-files.js';
import { enabledCodexPlugin } from '../../codex/plugin-install.js';
import { AGENT_LABELS, type HookAgent } from '../../shared/agents.js';
import { errorMessage } from '../../shared/errors.js';
import { startMcpClient } from '../mcp-stdio-client.js';
import { readJson } from './agents-checks.js';
import { type Check, fail, ok } from './check.js';

type Env = Record<string, string | undefined>;

/**
 * "MCP answering" per agent (issue 30 #5): the MCP server command each agent has registered
 * for agentctx, started as that agent would start it (its command, arguments and environment
 * entries), asked `initialize` and `tools/list` within a short timeout. Only `doctor` and
 * `status --verbose` ask: it starts one process per agent.
 */

/** A registered server command. `inherit`: the only variables passed on (Codex); else all. */
interface McpCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  inherit?: string[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function stringMap(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** `{command, args, env}` under `servers.agentctx` (Qwen, Gemini, Cursor, Copilot). */
function jsonEntry(path: string, key = 'mcpServers'): McpCommand | null {
  const servers = readJson(path)?.[key] as Record<string, unknown> | undefined;
  const e = servers?.agentctx as Record<string, unknown> | undefined;
  if (!e || typeof e.command !== 'string') return null;
  return { command: e.command, args: strings(e.args), env: stringMap(e.env) };
}

/** OpenCode's `mcp.agentctx`: the command and its arguments in one list, `environment`. */
function opencodeEntry(path: string): McpCommand | null {
  const e = (readJson(path)?.mcp as Record<string, unknown> | undefined)?.agentctx as
    | Record<string, unknown>
    | undefined;
  const argv = strings(e?.command);
  if (!e || argv.length === 0) return null;
  return { command: argv[0]!, args: argv.slice(1), env: stringMap(e.environment) };
}

/** A TOML basic string or an array of them, as JSON reads them (what init writes). */
function tomlValue(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw.trim());
  } catch {
    return undefined;
  }
}

/**
 * Codex's `[mcp_servers.agentctx]` table: command, args, an inline `env` table, `env_vars`.
 * Codex starts the server with HOME, PATH and TMPDIR (measured) plus the `env_vars` it lists.
 */
function codexEntry(path: string): McpCommand | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*\[\s*mcp_servers\s*\.\s*"?agentctx"?\s*\]\s*$/.test(l));
  if (start < 0) {
    // the Codex plugin declares its own server (codex-mcp.json), started the same way
    if (enabledCodexPlugin(text) === null) return null;
    const { command, args, env, env_vars } = CODEX_PLUGIN_SERVER;
    return { command, args: [...args], env: { ...env }, inherit: ['HOME', 'PATH', 'TMPDIR', ...env_vars] };
  }
  const fields: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*([A-Za-z_]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (m) fields[m[1]!] = m[2]!;
  }
  const command = tomlValue(fields.command);
  if (typeof command !== 'string') return null;
  const env: Record<string, string> = {};
  for (const m of (fields.env ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("(?:[^"\\]|\\.)*")/g)) {
    const v = tomlValue(m[2]);
    if (typeof v === 'string') env[m[1]!] = v;
  }
  return {
    command,
    args: strings(tomlValue(fields.args)),
    env,
    inherit: ['HOME', 'PATH', 'TMPDIR', ...strings(tomlValue(fields.env_vars))],
  };
}

/** Each agent with an agentctx MCP server registered, and its command. */
function registeredCommands(env: Env): { agent: HookAgent; entry: McpCommand }[] {
  const found: [HookAgent, McpCommand | null][] = [
    ['codex', codexEntry(codexConfigPath(env))],
    ['qwen', jsonEntry(QWEN.settingsPath(env))],
    ['gemini', jsonEntry(GEMINI.settingsPath(env))],
    ['opencode', opencodeEntry(OPENCODE.settingsPath(env))],
    ['cursor', jsonEntry(CURSOR.mcpPath(env))],
    ['copilot', jsonEntry(COPILOT.mcpPath(env))],
  ];
  return found
    .filter((f): f is [HookAgent, McpCommand] => f[1] !== null)
    .map(([agent, entry]) => ({ agent, entry }));
}

const ANSWER_TIMEOUT_MS = 5_000;

/** Start the command as the agent would and ask initialize and tools/list. */
async function answers(
  entry: McpCommand,
  cwd: string,
  env: Env,
): Promise<{ ok: true; tools: number; ms: number } | { ok: false; error: string }> {
  const base = entry.inherit ? Object.fromEntries(entry.inherit.map((k) => [k, env[k]])) : env;
  const started = performance.now();
  try {
    const client = await startMcpClient({
      command: entry.command,
      args: entry.args,
      cwd,
      env: { ...base, ...entry.env },
      timeoutMs: ANSWER_TIMEOUT_MS,
    });
    try {
      const tools = await client.listTools();
      if (tools.length === 0) return { ok: false, error: 'it answered with no tools' };
      return { ok: true, tools: tools.length, ms: Math.round(performance.now() - started) };
    } finally {
      await client.close();
    }
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}

type Probe = { agent: HookAgent; entry: McpCommand; res: Awaited<ReturnType<typeof answers>> };

/** Every registered agent's server, started at once. */
function probeAll(a: App): Promise<Probe[]> {
  return Promise.all(
    registeredCommands(a.env).map(async (r) => ({
      ...r,
      res: await answers(r.entry, a.project.root, a.env),
    })),
  );
}

/** Whether each registered agent's MCP server answers, in words: for status --verbose. */
export async function mcpAnswering(a: App): Promise<Map<HookAgent, string>> {
  const out = new Map<HookAgent, string>();
  for (const p of await probeAll(a))
    out.set(
      p.agent,
      p.res.ok ? `MCP answering (${p.res.tools} tools, ${p.res.ms} ms)` : `MCP not answering: ${p.res.error}`,
    );
  return out;
}

/** doctor: one check per agent whose registered MCP server command was started. */
export async function mcpAnsweringChecks(a: App): Promise<Check[]> {
  return (await probeAll(a)).map(({ agent, entry, res }) => {
    const label = AGENT_LABELS[agent];
    const command = [entry.command, ...entry.args].join(' ');
    return res.ok
      ? ok(`${agent}-mcp`, `${agent} mcp`, `${label}: MCP server answers (${res.tools} tools, ${res.ms} ms)`)
      : fail(
          `${agent}-mcp`,
          `${agent} mcp`,
          `${label}: the MCP server it starts (${command}) does not answer: ${res.error}`,
          `run agentctx init --agent ${agent} (it rewrites the entry), or fix the command in its settings`,
          { command },
        );
  });
}
