import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic-write.js';
import {
  claudeJsonPath,
  findClaudeCli,
  mcpState,
  planRegisterMcp,
  planUnregisterMcp,
  registerWithClaudeCli,
} from './mcp-registration.js';
import { installedHooks, planInstallHooks, planRemoveHooks } from './settings.js';
import { projectSettingsPath, type SettingsPlan, userSettingsPath } from './settings-file.js';

type Env = Record<string, string | undefined>;

/**
 * What init found already there and empty (per file, container path → inner text), so that
 * uninstall restores it instead of deleting it. Kept in `~/.agentctx/install-state.json`.
 */
type InstallState = Record<string, Record<string, string>>;

function readState(file: string | undefined): InstallState {
  if (!file) return {};
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as InstallState) : {};
  } catch {
    return {};
  }
}

function writeState(file: string | undefined, state: InstallState): void {
  if (!file) return;
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

function remember(file: string | undefined, path: string, empty: Record<string, string>): void {
  if (!file || Object.keys(empty).length === 0) return;
  const state = readState(file);
  state[path] = { ...empty, ...(state[path] ?? {}) };
  writeState(file, state);
}

function forget(file: string | undefined, path: string): void {
  const state = readState(file);
  if (!file || !(path in state)) return;
  delete state[path];
  writeState(file, state);
}

interface InstallOptions {
  env: Env;
  /** Where to remember containers init found empty (`~/.agentctx/install-state.json`). */
  stateFile?: string;
  /** Write the hooks into `<root>/.claude/settings.json` instead of the user settings. */
  projectRoot?: string | null;
  /** Register the MCP server through `claude mcp add` when a `claude` CLI is on PATH. */
  useClaudeCli: boolean;
}

interface FileChange {
  path: string;
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
}

interface McpChange extends FileChange {
  method: 'file' | 'claude-cli' | 'none';
  note?: string;
}

export interface InstallReport {
  settings: FileChange;
  mcp: McpChange;
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/**
 * Write a user file atomically, keeping its permissions, and writing through a symlink (dotfile
 * managers link settings files) rather than replacing the link.
 */
export function writeUserFile(path: string, text: string, newMode = 0o600): void {
  let target = path;
  let mode = newMode;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
    mode = statSync(target).mode & 0o777;
  } catch {
    // a new file
  }
  writeFileAtomic(target, text, mode);
}

function change(path: string, plan: SettingsPlan): FileChange {
  return { path, changed: plan.changed, added: plan.added, updated: plan.updated, removed: plan.removed };
}

function settingsPathFor(opts: { env: Env; projectRoot?: string | null }): string {
  return opts.projectRoot ? projectSettingsPath(opts.projectRoot) : userSettingsPath(opts.env);
}

/**
 * Register hooks and the MCP server. Both files are read and planned before anything is
 * written, so a malformed file stops the run with nothing changed.
 */
export function installIntoClaude(opts: InstallOptions): InstallReport {
  const settingsPath = settingsPathFor(opts);
  const mcpPath = claudeJsonPath(opts.env);
  const settingsText = readOrNull(settingsPath);
  const mcpText = readOrNull(mcpPath);
  const hooksPlan = planInstallHooks(settingsText, settingsPath);
  const mcpPlan = planRegisterMcp(mcpText, mcpPath);

  if (hooksPlan.changed) {
    remember(opts.stateFile, settingsPath, hooksPlan.emptyBefore);
    writeUserFile(settingsPath, hooksPlan.text, 0o644);
  }
  remember(opts.stateFile, mcpPath, mcpPlan.emptyBefore);

  let mcp: McpChange = { ...change(mcpPath, mcpPlan), method: 'none' };
  if (mcpPlan.changed) {
    const claude =
      opts.useClaudeCli && mcpState(mcpText, mcpPath) === 'absent' ? findClaudeCli(opts.env) : null;
    let note: string | undefined;
    if (claude) {
      const err = registerWithClaudeCli(claude, opts.env);
      if (!err && mcpState(readOrNull(mcpPath), mcpPath) === 'ours') {
        return { settings: change(settingsPath, hooksPlan), mcp: { ...mcp, method: 'claude-cli' } };
      }
      note = `claude mcp add did not register the server (${err ?? 'entry not found afterwards'}); edited the file instead`;
    }
    // Re-plan against the file as it is now (the CLI may have rewritten it).
    const again = planRegisterMcp(readOrNull(mcpPath), mcpPath);
    if (again.changed) writeUserFile(mcpPath, again.text, 0o600);
    mcp = { ...change(mcpPath, again), method: 'file', ...(note ? { note } : {}) };
  }
  return { settings: change(settingsPath, hooksPlan), mcp };
}

interface UninstallOptions {
  env: Env;
  stateFile?: string;
  projectRoot?: string | null;
}

/**
 * Remove what install added: our hook entries (and the containers they alone filled) and
 * `mcpServers.agentctx`. With `projectRoot`, the MCP server stays registered while the user
 * settings still hold agentctx hooks.
 */
export function uninstallFromClaude(opts: UninstallOptions): InstallReport {
  const settingsPath = settingsPathFor(opts);
  const mcpPath = claudeJsonPath(opts.env);
  const settingsText = readOrNull(settingsPath);
  const mcpText = readOrNull(mcpPath);
  const state = readState(opts.stateFile);
  const hooksPlan = planRemoveHooks(settingsText, settingsPath, state[settingsPath] ?? {});
  let keepMcp = false;
  if (opts.projectRoot) {
    const userPath = userSettingsPath(opts.env);
    try {
      keepMcp = Object.keys(installedHooks(readOrNull(userPath), userPath)).length > 0;
    } catch {
      keepMcp = true; // unreadable user settings: do not guess, leave the server registered
    }
  }
  const mcpPlan = keepMcp
    ? { text: mcpText ?? '', changed: false, added: [], updated: [], removed: [] }
    : planUnregisterMcp(mcpText, mcpPath, state[mcpPath] ?? {});
  if (hooksPlan.changed) writeUserFile(settingsPath, hooksPlan.text, 0o644);
  if (mcpPlan.changed) writeUserFile(mcpPath, mcpPlan.text, 0o600);
  forget(opts.stateFile, settingsPath);
  if (!keepMcp) forget(opts.stateFile, mcpPath);
  return {
    settings: change(settingsPath, hooksPlan),
    mcp: {
      ...change(mcpPath, mcpPlan),
      method: mcpPlan.changed ? 'file' : 'none',
      ...(keepMcp ? { note: 'kept: the user settings still run agentctx hooks' } : {}),
    },
  };
}
