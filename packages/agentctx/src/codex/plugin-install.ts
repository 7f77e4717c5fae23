import { tableHeaders } from './toml-text.js';

/** The plugin's name: `agentctx@<marketplace>` once Codex installed it. */
export const CODEX_PLUGIN_NAME = 'agentctx';

/**
 * Is agentctx's Codex plugin enabled? `codex plugin add agentctx@<marketplace>` writes
 * `[plugins."agentctx@<marketplace>"]` with `enabled = true` into config.toml; the plugin id
 * of the first such table, or null.
 */
export function enabledCodexPlugin(configText: string): string | null {
  const headers = tableHeaders(configText);
  for (const h of headers) {
    const [table, id] = h.path;
    if (h.array || h.path.length !== 2 || table !== 'plugins' || !id?.startsWith(`${CODEX_PLUGIN_NAME}@`))
      continue;
    const body = configText.slice(h.start, h.end).split(/\r?\n/).slice(1);
    if (body.some((l) => /^\s*enabled\s*=\s*true\s*(#.*)?$/.test(l))) return id;
  }
  return null;
}
