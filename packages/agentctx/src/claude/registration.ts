/**
 * How agentctx is registered with Claude Code: by the plugin (`enabledPlugins["agentctx@…"]` in
 * a settings file), by `agentctx init` (our `agentctx hook …` entries in a settings file), both
 * or neither. `init` reads it to stay out of the plugin's way, `status` and `doctor` to say which
 * is active. While both are present the plugin's hooks stand aside (bin/agentctx.cjs), so the
 * settings-file hooks are the ones that run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../shared/errors.js';
import { getProp, toValue } from './json-text.js';
import { PLUGIN_NAME } from './plugin-files.js';
import { installedHooks } from './settings.js';
import { parseSettings, projectSettingsPath, userSettingsPath } from './settings-file.js';

type Env = Record<string, string | undefined>;

type ActiveRegistration = 'plugin' | 'init' | 'both' | 'none';

interface Registration {
  /** Enabled plugin ids (`agentctx@<marketplace>`) and the settings file enabling each. */
  plugin: { id: string; path: string }[];
  /** Settings files holding `agentctx hook …` entries, with their events. */
  init: { path: string; events: string[] }[];
  active: ActiveRegistration;
  /** Settings files that could not be parsed (left out of the above). */
  unreadable: { path: string; error: string }[];
}

/** The settings files Claude Code reads for this project, user first. */
export function settingsFiles(env: Env, projectRoot: string): string[] {
  return [
    userSettingsPath(env),
    projectSettingsPath(projectRoot),
    join(projectRoot, '.claude', 'settings.local.json'),
  ];
}

function readOrNull(path: string): string | null {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}

/** `agentctx@…` ids under `enabledPlugins` in one settings text, with their true/false. */
function agentctxPluginFlags(text: string | null, path: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  if (text === null) return out;
  const { root } = parseSettings(text, path);
  const node = getProp(root, 'enabledPlugins')?.value;
  if (node?.kind !== 'object') return out;
  for (const p of node.props) {
    const v = toValue(p.value);
    if (p.key.startsWith(`${PLUGIN_NAME}@`) && typeof v === 'boolean') out[p.key] = v;
  }
  return out;
}

export function registration(env: Env, projectRoot: string): Registration {
  const out: Registration = { plugin: [], init: [], active: 'none', unreadable: [] };
  // a project's local file may turn off what the user file turned on: the last word wins
  const pluginState = new Map<string, string | null>();
  for (const path of settingsFiles(env, projectRoot)) {
    const text = readOrNull(path);
    try {
      const events = Object.keys(installedHooks(text, path));
      if (events.length > 0) out.init.push({ path, events });
      for (const [id, on] of Object.entries(agentctxPluginFlags(text, path)))
        pluginState.set(id, on ? path : null);
    } catch (err) {
      out.unreadable.push({ path, error: errorMessage(err) });
    }
  }
  for (const [id, path] of pluginState) if (path) out.plugin.push({ id, path });
  const p = out.plugin.length > 0;
  const i = out.init.length > 0;
  out.active = p && i ? 'both' : p ? 'plugin' : i ? 'init' : 'none';
  return out;
}

/** One line for `status`: which registration runs agentctx's hooks here. */
export function describeRegistration(r: Registration): string {
  const ids = r.plugin.map((p) => p.id).join(', ');
  const files = r.init.map((f) => f.path).join(', ');
  switch (r.active) {
    case 'plugin':
      return `Claude Code plugin ${ids}`;
    case 'init':
      return `agentctx init (hooks in ${files})`;
    case 'both':
      return `agentctx init (hooks in ${files}); the plugin ${ids} is enabled too and its hooks stand aside (run \`agentctx uninstall\` to keep only the plugin)`;
    default:
      return 'not registered: run `agentctx init` (the plugin route, from a clone of agentctx, is in the README)';
  }
}
