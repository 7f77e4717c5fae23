import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeUserFile } from '../claude/install.js';
import { AgentctxError } from '../shared/errors.js';
import { missingDirs, readState, writeState } from './json-install.js';
import { OPENCODE_PLUGIN_MARK, OPENCODE_PLUGIN_SOURCE, opencodePluginPath } from './opencode-plugin.js';

type Env = Record<string, string | undefined>;

/**
 * agentctx's plugin module in OpenCode's config folder: written whole by init (a file there by
 * that name that is not ours is refused, never overwritten), deleted by uninstall only while it
 * is still ours; a `plugin/` folder init created goes too when left empty.
 */
export interface PluginChange {
  path: string;
  status: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';
}

const isOurs = (text: string) => text.startsWith(OPENCODE_PLUGIN_MARK);

export function installOpencodePlugin(env: Env, stateFile: string): PluginChange {
  const path = opencodePluginPath(env);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (current === OPENCODE_PLUGIN_SOURCE) return { path, status: 'unchanged' };
  if (current !== null && !isOurs(current))
    throw new AgentctxError(
      'usage',
      `${path} exists and is not agentctx's plugin; move it away and run agentctx init --agent opencode again`,
    );
  const state = readState(stateFile);
  if (!state[path]) {
    state[path] = { created: true, dirs: missingDirs(dirname(path)) };
    writeState(stateFile, state);
  }
  mkdirSync(dirname(path), { recursive: true });
  writeUserFile(path, OPENCODE_PLUGIN_SOURCE, 0o644);
  return { path, status: current === null ? 'added' : 'updated' };
}

export function uninstallOpencodePlugin(env: Env, stateFile: string): PluginChange {
  const path = opencodePluginPath(env);
  const state = readState(stateFile);
  const dirs = state[path]?.dirs ?? [];
  if (path in state) {
    delete state[path];
    writeState(stateFile, state);
  }
  if (!existsSync(path) || !isOurs(readFileSync(path, 'utf8'))) return { path, status: 'absent' };
  rmSync(path, { force: true });
  for (const d of [...dirs].reverse()) {
    try {
      rmdirSync(d); // only when empty: the user's own plugins stay
    } catch {
      break;
    }
  }
  return { path, status: 'removed' };
}
