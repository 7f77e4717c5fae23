import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeUserFile } from '../claude/install.js';
import { type FlatHookSpec, type FlatRestore, planFlatInstall, planFlatRemove } from './flat-hooks.js';
import { missingDirs, readState, writeState } from './json-install.js';
import { isEmptyObjectText, planJsonSettingsInstall, planJsonSettingsRemove } from './json-settings.js';

type Env = Record<string, string | undefined>;

/**
 * Cursor and Copilot CLI: their hook files and their MCP files. Cursor cannot run here (its
 * CLI is not on npm): its files are as its documentation gives them.
 *
 * Cursor (`~/.cursor/hooks.json`, `{"version": 1, "hooks": {"<event>": [{"command"}]}}`):
 * sessionStart can return `additional_context`; nothing else injects (beforeSubmitPrompt can
 * only allow or block a prompt). afterShellExecution and afterFileEdit carry what capture needs.
 * Its agent transcripts' format is not documented, so Stop extracts nothing.
 *
 * Copilot CLI (measured with 1.0.102, offline against a custom provider): every *.json in
 * `~/.copilot/hooks/` (`COPILOT_HOME` moves the folder), `{"version": 1, "hooks": {"<event>":
 * [{"type": "command", "bash", "timeoutSec"}]}}`, loaded without folder trust, `copilot -p`
 * included. sessionStart and userPromptSubmitted inject; postToolUse and postToolUseFailure
 * capture; agentStop names the session's events.jsonl, from which Stop extracts; sessionEnd.
 * subagentStart is left out: its payload names the agent, not its task, and a subagent's own
 * userPromptSubmitted already carries the task (measured), which the prompt hook answers.
 */

const home = (env: Env) => env.HOME || homedir();
const cursorDir = (env: Env) => join(home(env), '.cursor');
const copilotDir = (env: Env) => env.COPILOT_HOME || join(home(env), '.copilot');

const cursorCmd = (slug: string) => `agentctx hook ${slug} --agent cursor`;
export const CURSOR_HOOKS: readonly FlatHookSpec[] = [
  { event: 'sessionStart', entry: { command: cursorCmd('session-start') } },
  { event: 'afterShellExecution', entry: { command: cursorCmd('post-tool-use') } },
  { event: 'afterFileEdit', entry: { command: cursorCmd('post-tool-use') } },
  { event: 'stop', entry: { command: cursorCmd('stop') } },
  { event: 'sessionEnd', entry: { command: cursorCmd('session-end') } },
];

const copilotEntry = (slug: string, timeoutSec: number) => ({
  type: 'command',
  bash: `agentctx hook ${slug} --agent copilot`,
  timeoutSec,
});
export const COPILOT_HOOKS: readonly FlatHookSpec[] = [
  { event: 'sessionStart', entry: copilotEntry('session-start', 10) },
  { event: 'userPromptSubmitted', entry: copilotEntry('user-prompt-submit', 10) },
  { event: 'postToolUse', entry: copilotEntry('post-tool-use', 30) },
  { event: 'postToolUseFailure', entry: copilotEntry('post-tool-use', 30) },
  { event: 'agentStop', entry: copilotEntry('stop', 10) },
  { event: 'sessionEnd', entry: copilotEntry('session-end', 10) },
];

export interface HookFileAgent {
  id: 'cursor' | 'copilot';
  label: string;
  bin: string;
  home: (env: Env) => string;
  hooksPath: (env: Env) => string;
  /** The field of an entry holding its command. */
  field: string;
  specs: readonly FlatHookSpec[];
  mcpPath: (env: Env) => string;
  mcpEntry: Record<string, unknown>;
}

export const CURSOR: HookFileAgent = {
  id: 'cursor',
  label: 'Cursor',
  bin: 'cursor-agent',
  home: cursorDir,
  hooksPath: (env) => join(cursorDir(env), 'hooks.json'),
  field: 'command',
  specs: CURSOR_HOOKS,
  mcpPath: (env) => join(cursorDir(env), 'mcp.json'),
  mcpEntry: { command: 'agentctx', args: ['mcp'], env: { AGENTCTX_AGENT: 'cursor' } },
};

export const COPILOT: HookFileAgent = {
  id: 'copilot',
  label: 'Copilot CLI',
  bin: 'copilot',
  home: copilotDir,
  // a file of its own: Copilot CLI reads every *.json in its hooks folder
  hooksPath: (env) => join(copilotDir(env), 'hooks', 'agentctx.json'),
  field: 'bash',
  specs: COPILOT_HOOKS,
  mcpPath: (env) => join(copilotDir(env), 'mcp-config.json'),
  mcpEntry: {
    type: 'local',
    command: 'agentctx',
    args: ['mcp'],
    env: { AGENTCTX_AGENT: 'copilot' },
    tools: ['*'],
  },
};

interface HookFileState {
  created?: boolean;
  /** The file held only whitespace (read as `{}`): that text comes back. */
  blank?: string;
  dirs?: string[];
  flat?: FlatRestore;
  json?: { empty: Record<string, string>; replacedMcp?: string };
}

const readOrNull = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);

/** `dirs`: the folders missing before init wrote anything (both files share a folder). */
function remember(
  stateFile: string,
  path: string,
  current: string | null,
  dirs: string[],
  extra: HookFileState,
): void {
  const state = readState(stateFile) as Record<string, HookFileState>;
  if (state[path]) return; // a second init keeps what the first one found
  state[path] = {
    ...(current === null ? { created: true, dirs } : {}),
    ...(current !== null && current.trim() === '' ? { blank: current } : {}),
    ...extra,
  };
  writeState(stateFile, state as never);
}

function forget(stateFile: string, path: string): HookFileState {
  const state = readState(stateFile) as Record<string, HookFileState>;
  const mine = state[path] ?? {};
  if (path in state) {
    delete state[path];
    writeState(stateFile, state as never);
  }
  return mine;
}

/** A file that was blank before init is blank again once nothing else is left in it. */
function restored(text: string, mine: HookFileState): string {
  return isEmptyObjectText(text) && mine.blank !== undefined ? mine.blank : text;
}

function removeCreated(path: string, mine: HookFileState): void {
  rmSync(path, { force: true });
  for (const d of [...(mine.dirs ?? [])].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      break;
    }
  }
}

export interface HookFileReport {
  agent: string;
  hooks: { path: string; changed: boolean; events: string[] };
  mcp: { path: string; changed: boolean };
}

/** Both files planned before either is written: a malformed one stops init with nothing changed. */
export function installHookFileAgent(agent: HookFileAgent, env: Env, stateFile: string): HookFileReport {
  const hooksPath = agent.hooksPath(env);
  const mcpPath = agent.mcpPath(env);
  const hooksText = readOrNull(hooksPath);
  const mcpText = readOrNull(mcpPath);
  const hooks = planFlatInstall(hooksText, hooksPath, agent.specs, agent.field);
  const mcp = planJsonSettingsInstall(mcpText, mcpPath, [], agent.mcpEntry);
  const hooksDirs = missingDirs(dirname(hooksPath));
  const mcpDirs = missingDirs(dirname(mcpPath));
  if (hooks.changed) {
    remember(stateFile, hooksPath, hooksText, hooksDirs, { flat: hooks.restore });
    mkdirSync(dirname(hooksPath), { recursive: true });
    writeUserFile(hooksPath, hooks.text, 0o644);
  }
  if (mcp.changed) {
    remember(stateFile, mcpPath, mcpText, mcpDirs, { json: mcp.restore });
    mkdirSync(dirname(mcpPath), { recursive: true });
    writeUserFile(mcpPath, mcp.text, 0o600);
  }
  return {
    agent: agent.id,
    hooks: { path: hooksPath, changed: hooks.changed, events: hooks.added },
    mcp: { path: mcpPath, changed: mcp.changed },
  };
}

export function uninstallHookFileAgent(agent: HookFileAgent, env: Env, stateFile: string): HookFileReport {
  const hooksPath = agent.hooksPath(env);
  const mcpPath = agent.mcpPath(env);
  const report: HookFileReport = {
    agent: agent.id,
    hooks: { path: hooksPath, changed: false, events: [] },
    mcp: { path: mcpPath, changed: false },
  };
  const hooksText = readOrNull(hooksPath);
  const hooksState = forget(stateFile, hooksPath);
  if (hooksText !== null) {
    const plan = planFlatRemove(hooksText, hooksPath, hooksState.flat, agent.field);
    if (plan.text !== hooksText) {
      report.hooks = { path: hooksPath, changed: true, events: plan.removed };
      if (hooksState.created && isEmptyObjectText(plan.text)) removeCreated(hooksPath, hooksState);
      else writeUserFile(hooksPath, restored(plan.text, hooksState), 0o644);
    }
  }
  const mcpText = readOrNull(mcpPath);
  const mcpState = forget(stateFile, mcpPath);
  if (mcpText !== null) {
    const plan = planJsonSettingsRemove(mcpText, mcpPath, mcpState.json);
    if (plan.text !== mcpText) {
      report.mcp = { path: mcpPath, changed: true };
      if (mcpState.created && isEmptyObjectText(plan.text)) removeCreated(mcpPath, mcpState);
      else writeUserFile(mcpPath, restored(plan.text, mcpState), 0o600);
    }
  }
  return report;
}
