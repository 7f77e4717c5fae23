import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { HookSpec } from '../claude/settings-hook-entries.js';
import { OPENCODE_MCP_ENTRY, opencodeConfigDir, opencodeConfigPath } from './opencode-plugin.js';

type Env = Record<string, string | undefined>;

/**
 * The agents whose hooks and MCP servers live in one JSON settings file shaped like Claude
 * Code's (`hooks.<Event>[{matcher?, hooks:[{type, command, timeout}]}]`, `mcpServers`).
 */
export interface JsonSettingsAgent {
  id: 'qwen' | 'gemini' | 'opencode';
  label: string;
  /** The agent's own folder (its presence means the agent is on this machine). */
  home(env: Env): string;
  settingsPath(env: Env): string;
  /** The executable's name on PATH. */
  bin: string;
  specs: readonly HookSpec[];
  mcpEntry: Record<string, unknown>;
  /** The object holding MCP servers (`mcpServers`; OpenCode's is `mcp`). */
  serversKey?: string;
}

const userHome = (env: Env) => env.HOME || homedir();

/** `~/.qwen`, or `QWEN_HOME` (a leading `~` and relative paths resolved as Qwen Code does). */
function qwenHome(env: Env): string {
  const v = env.QWEN_HOME;
  if (!v) return join(userHome(env), '.qwen');
  if (v === '~' || v.startsWith('~/')) return join(userHome(env), v.slice(1));
  return isAbsolute(v) ? v : resolve(v);
}

/**
 * Qwen Code 0.24.4. Timeouts in seconds. A failing tool fires PostToolUseFailure, not
 * PostToolUse. SubagentStart is left out: its payload is Qwen's, and agentctx's subagent
 * handler reads the task from Claude Code's transcripts. `trust: true` lets `qwen -p` call the
 * tools without a prompt; `alwaysLoadTools` offers them directly instead of behind Qwen's
 * tool_search bridge, as Claude Code does.
 */
export const QWEN: JsonSettingsAgent = {
  id: 'qwen',
  label: 'Qwen Code',
  home: qwenHome,
  settingsPath: (env) => join(qwenHome(env), 'settings.json'),
  bin: 'qwen',
  specs: [
    { event: 'SessionStart', slug: 'session-start', timeout: 10, agent: 'qwen' },
    { event: 'UserPromptSubmit', slug: 'user-prompt-submit', timeout: 10, agent: 'qwen' },
    { event: 'PostToolUse', slug: 'post-tool-use', timeout: 30, matcher: '*', agent: 'qwen' },
    { event: 'PostToolUseFailure', slug: 'post-tool-use', timeout: 30, matcher: '*', agent: 'qwen' },
    { event: 'PreCompact', slug: 'pre-compact', timeout: 15, agent: 'qwen' },
    { event: 'Stop', slug: 'stop', timeout: 10, agent: 'qwen' },
    { event: 'SessionEnd', slug: 'session-end', timeout: 10, agent: 'qwen' },
  ],
  mcpEntry: {
    command: 'agentctx',
    args: ['mcp'],
    env: { AGENTCTX_AGENT: 'qwen' },
    trust: true,
    alwaysLoadTools: true,
  },
};

/** `~/.gemini`, under `GEMINI_CLI_HOME` when set (Gemini CLI's own override of the home folder). */
function geminiHome(env: Env): string {
  return join(env.GEMINI_CLI_HOME || userHome(env), '.gemini');
}

/**
 * Gemini CLI 0.61.0. Timeouts in milliseconds. BeforeAgent carries the prompt, AfterTool the
 * tool call, AfterAgent ends a turn (agentctx's Stop). PreCompress is left out: it fires
 * (trigger "auto") before every model request, not only before a compression.
 */
export const GEMINI: JsonSettingsAgent = {
  id: 'gemini',
  label: 'Gemini CLI',
  home: geminiHome,
  settingsPath: (env) => join(geminiHome(env), 'settings.json'),
  bin: 'gemini',
  specs: [
    { event: 'SessionStart', slug: 'session-start', timeout: 10_000, agent: 'gemini' },
    { event: 'BeforeAgent', slug: 'user-prompt-submit', timeout: 10_000, agent: 'gemini' },
    { event: 'AfterTool', slug: 'post-tool-use', timeout: 30_000, matcher: '*', agent: 'gemini' },
    { event: 'AfterAgent', slug: 'stop', timeout: 10_000, agent: 'gemini' },
    { event: 'SessionEnd', slug: 'session-end', timeout: 10_000, agent: 'gemini' },
  ],
  mcpEntry: { command: 'agentctx', args: ['mcp'], env: { AGENTCTX_AGENT: 'gemini' }, trust: true },
};

/**
 * OpenCode 1.18.33: no hook commands (agentctx's plugin module calls them; see
 * opencode-plugin.ts), so only `mcp.agentctx` goes into opencode.json.
 */
export const OPENCODE: JsonSettingsAgent = {
  id: 'opencode',
  label: 'OpenCode',
  home: opencodeConfigDir,
  settingsPath: opencodeConfigPath,
  bin: 'opencode',
  specs: [],
  mcpEntry: OPENCODE_MCP_ENTRY,
  serversKey: 'mcp',
};
