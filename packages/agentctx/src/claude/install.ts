import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../storage/atomic-write.js';
import {
  claudeJsonPath,
  findClaudeCli,
  mcpState,
  planRegisterMcp,
  planUnregisterMcp,
  registerWithClaudeCli,
} from './mcp-registration.js';
import {
  installedHooks,
  planInstallHooks,
  planRemoveHooks,
  projectSettingsPath,
  type SettingsPlan,
  userSettingsPath,
} from './settings.js';

type Env = Record<string, string | undefined>;

export interface InstallOptions {
  env: Env;
  /** Write the hooks into `<root>/.claude/settings.json` instead of the user settings. */
  projectRoot?: string | null;
  /** Register the MCP server through `claude mcp add` when a `claude` CLI is on PATH. */
  useClaudeCli: boolean;
}

export interface FileChange {
  path: string;
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
}

export interface McpChange extends FileChange {
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

export function settingsPathFor(opts: { env: Env; projectRoot?: string | null }): string {
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

  if (hooksPlan.changed) writeUserFile(settingsPath, hooksPlan.text, 0o644);

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

export interface UninstallOptions {
  env: Env;
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
  const hooksPlan = planRemoveHooks(settingsText, settingsPath);
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
    : planUnregisterMcp(mcpText, mcpPath);
  if (hooksPlan.changed) writeUserFile(settingsPath, hooksPlan.text, 0o644);
  if (mcpPlan.changed) writeUserFile(mcpPath, mcpPlan.text, 0o600);
  return {
    settings: change(settingsPath, hooksPlan),
    mcp: {
      ...change(mcpPath, mcpPlan),
      method: mcpPlan.changed ? 'file' : 'none',
      ...(keepMcp ? { note: 'kept: the user settings still run agentctx hooks' } : {}),
    },
  };
}
