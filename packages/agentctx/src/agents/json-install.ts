import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeUserFile } from '../claude/install.js';
import { installedHooks } from '../claude/settings.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { ensurePrivateDir } from '../files/private-dir.js';
import type { JsonSettingsAgent } from './json-agents.js';
import {
  isEmptyObjectText,
  type JsonSettingsRestore,
  planJsonSettingsInstall,
  planJsonSettingsRemove,
} from './json-settings.js';

type Env = Record<string, string | undefined>;

/**
 * `agentctx init --agent qwen|gemini` and its uninstall: our hooks and MCP server in the agent's
 * settings file, planned before anything is written (a malformed file stops the run with
 * nothing changed), and what uninstall needs to give the file back byte for byte kept in
 * `<agentctx home>/agents-install-state.json`, by file.
 */
interface FileState {
  /** The file did not exist: uninstall deletes it when nothing else is left in it. */
  created?: boolean;
  /** The file held only whitespace (parsed as `{}`): that text comes back. */
  blank?: string;
  /** Folders init created for the file, deepest last (removed again when left empty). */
  dirs?: string[];
  restore?: JsonSettingsRestore;
}

export function readState(file: string): Record<string, FileState> {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, FileState>) : {};
  } catch {
    return {};
  }
}

export function writeState(file: string, state: Record<string, FileState>): void {
  ensurePrivateDir(dirname(file));
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

const readOrNull = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);

/** The folders `mkdir -p` would create for `dir`, outermost first. */
export function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    out.unshift(d);
    if (dirname(d) === d) break;
  }
  return out;
}

export interface JsonAgentInstallReport {
  agent: string;
  path: string;
  changed: boolean;
  hooks: { added: string[]; updated: string[] };
  mcp: 'added' | 'updated' | 'unchanged';
}

export function installJsonAgent(
  agent: JsonSettingsAgent,
  env: Env,
  stateFile: string,
): JsonAgentInstallReport {
  const path = agent.settingsPath(env);
  const current = readOrNull(path);
  const plan = planJsonSettingsInstall(current, path, agent.specs, agent.mcpEntry, agent.serversKey);
  if (plan.changed) {
    const state = readState(stateFile);
    const prior = state[path];
    // a second init keeps what the first one found: that is the text uninstall gives back
    if (!prior) {
      const dirs = missingDirs(dirname(path));
      state[path] = {
        ...(current === null ? { created: true, dirs } : {}),
        ...(current !== null && current.trim() === '' ? { blank: current } : {}),
        restore: plan.restore,
      };
      writeState(stateFile, state);
    }
    mkdirSync(dirname(path), { recursive: true });
    writeUserFile(path, plan.text, 0o644);
  }
  return {
    agent: agent.id,
    path,
    changed: plan.changed,
    hooks: { added: plan.hooksAdded, updated: plan.hooksUpdated },
    mcp: plan.mcp,
  };
}

export interface JsonAgentUninstallReport {
  agent: string;
  path: string;
  changed: boolean;
  hooksRemoved: string[];
  mcpRemoved: boolean;
  deleted: boolean;
}

export function uninstallJsonAgent(
  agent: JsonSettingsAgent,
  env: Env,
  stateFile: string,
): JsonAgentUninstallReport {
  const path = agent.settingsPath(env);
  const current = readOrNull(path);
  const state = readState(stateFile);
  const mine = state[path] ?? {};
  const none = { agent: agent.id, path, changed: false, hooksRemoved: [], mcpRemoved: false, deleted: false };
  if (current === null) return none;
  const plan = planJsonSettingsRemove(current, path, mine.restore, agent.serversKey);
  let text = plan.text;
  const changed = text !== current;
  let deleted = false;
  if (changed && isEmptyObjectText(text) && mine.created) {
    rmSync(path, { force: true });
    deleted = true;
    for (const d of [...(mine.dirs ?? [])].reverse()) {
      try {
        if (statSync(d).isDirectory()) rmdirSync(d); // only when empty: anything the agent wrote stays
      } catch {
        break;
      }
    }
  } else if (changed) {
    if (isEmptyObjectText(text) && mine.blank !== undefined) text = mine.blank;
    writeUserFile(path, text, 0o644);
  }
  if (path in state) {
    delete state[path];
    writeState(stateFile, state);
  }
  return { ...none, changed, hooksRemoved: plan.hooksRemoved, mcpRemoved: plan.mcpRemoved, deleted };
}

/** Our hook commands in the agent's settings, by event (status, doctor, uninstall --agent all). */
export function jsonAgentHooks(agent: JsonSettingsAgent, env: Env): Record<string, string[]> {
  const path = agent.settingsPath(env);
  try {
    return installedHooks(readOrNull(path), path);
  } catch {
    return {};
  }
}
