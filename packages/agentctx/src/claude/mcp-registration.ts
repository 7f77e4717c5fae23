import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findOnPath } from '../files/find-on-path.js';
import { AgentctxError } from '../shared/errors.js';
import {
  appendMember,
  applyEdit,
  getProp,
  type JsonObject,
  removeMember,
  replaceValue,
  toValue,
} from './json-text.js';
import { parseSettings, type SettingsPlan } from './settings-file.js';

type Env = Record<string, string | undefined>;

const MCP_SERVER_NAME = 'agentctx';

/** The user-scope registration agentctx wants in `~/.claude.json`. */
export const MCP_ENTRY = { type: 'stdio', command: 'agentctx', args: ['mcp'] } as const;

/**
 * Where Claude Code keeps its user-scope state (and `mcpServers`): `$CLAUDE_CONFIG_DIR/.claude.json`
 * when that variable is set, else `~/.claude.json` (observed with claude 2.1.x).
 */
export function claudeJsonPath(env: Env): string {
  return env.CLAUDE_CONFIG_DIR
    ? join(env.CLAUDE_CONFIG_DIR, '.claude.json')
    : join(env.HOME || homedir(), '.claude.json');
}

/** Is an existing `mcpServers.agentctx` value already what we want? (`claude mcp add` adds `env: {}`.) */
function isOurMcpEntry(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const envOk =
    v.env === undefined || (typeof v.env === 'object' && v.env !== null && Object.keys(v.env).length === 0);
  const typeOk = v.type === undefined || v.type === 'stdio';
  return (
    typeOk &&
    envOk &&
    v.command === MCP_ENTRY.command &&
    JSON.stringify(v.args) === JSON.stringify(MCP_ENTRY.args) &&
    Object.keys(v).every((k) => ['type', 'command', 'args', 'env'].includes(k))
  );
}

function servers(root: JsonObject, path: string): JsonObject | undefined {
  const node = getProp(root, 'mcpServers')?.value;
  if (!node) return undefined;
  if (node.kind !== 'object')
    throw new AgentctxError(
      'malformed_settings',
      `"mcpServers" in ${path} is not an object; fix it and run again`,
      {
        path,
      },
    );
  return node;
}

/** Current state of our registration in the text of `~/.claude.json`. */
export function mcpState(text: string | null, path: string): 'absent' | 'ours' | 'different' {
  if (text === null) return 'absent';
  const { root } = parseSettings(text, path);
  const s = servers(root, path);
  const entry = s ? getProp(s, MCP_SERVER_NAME) : undefined;
  if (!entry) return 'absent';
  return isOurMcpEntry(toValue(entry.value)) ? 'ours' : 'different';
}

/** Add (or correct) `mcpServers.agentctx`, touching nothing else. */
export function planRegisterMcp(
  current: string | null,
  path: string,
): SettingsPlan & { emptyBefore: Record<string, string> } {
  const { text: start, root } = parseSettings(current, path);
  let text = start;
  const s = servers(root, path);
  const emptyBefore: Record<string, string> =
    s && s.props.length === 0 ? { mcpServers: start.slice(s.start + 1, s.end - 1) } : {};
  const entry = s ? getProp(s, MCP_SERVER_NAME) : undefined;
  const value = { ...MCP_ENTRY, args: [...MCP_ENTRY.args] };
  if (entry && isOurMcpEntry(toValue(entry.value))) {
    return { text: current ?? '', changed: false, added: [], updated: [], removed: [], emptyBefore };
  }
  if (entry) text = applyEdit(text, replaceValue(text, entry.value, value));
  else if (s) text = applyEdit(text, appendMember(text, s, value, MCP_SERVER_NAME));
  else text = applyEdit(text, appendMember(text, root, { [MCP_SERVER_NAME]: value }, 'mcpServers'));
  if ((current === null || current.trim() === '') && !text.endsWith('\n')) text += '\n';
  return {
    text,
    changed: text !== (current ?? ''),
    added: entry ? [] : [`mcpServers.${MCP_SERVER_NAME}`],
    updated: entry ? [`mcpServers.${MCP_SERVER_NAME}`] : [],
    removed: [],
    emptyBefore,
  };
}

/**
 * Remove `mcpServers.agentctx`; `mcpServers` goes too when that leaves it empty, unless `keep`
 * holds its original (empty) inner text from before init.
 */
export function planUnregisterMcp(
  current: string | null,
  path: string,
  keep: Record<string, string> = {},
): SettingsPlan {
  const none = { text: current ?? '', changed: false, added: [], updated: [], removed: [] };
  if (current === null || current.trim() === '') return none;
  const { root } = parseSettings(current, path);
  const s = servers(root, path);
  if (!s) return none;
  const idx = s.props.findIndex((p) => p.key === MCP_SERVER_NAME);
  if (idx < 0) return none;
  const kept = keep.mcpServers;
  const text =
    s.props.length === 1 && kept !== undefined
      ? applyEdit(current, { start: s.start + 1, end: s.end - 1, text: kept })
      : s.props.length === 1
        ? applyEdit(
            current,
            removeMember(current, root, root.props.lastIndexOf(getProp(root, 'mcpServers')!)),
          )
        : applyEdit(current, removeMember(current, s, idx));
  return { text, changed: true, added: [], updated: [], removed: [`mcpServers.${MCP_SERVER_NAME}`] };
}

/** The `claude` executable on PATH, found with file checks only (no shell). */
export function findClaudeCli(env: Env): string | null {
  return findOnPath('claude', env);
}

/** `claude mcp add --scope user agentctx -- agentctx mcp`; returns an error text or null. */
export function registerWithClaudeCli(claude: string, env: Env): string | null {
  const res = spawnSync(
    claude,
    ['mcp', 'add', '--scope', 'user', MCP_SERVER_NAME, '--', MCP_ENTRY.command, ...MCP_ENTRY.args],
    { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (res.error) return res.error.message;
  if (res.status !== 0)
    return (res.stderr || res.stdout || `exit ${res.status}`).trim().split('\n')[0] ?? 'failed';
  return null;
}
