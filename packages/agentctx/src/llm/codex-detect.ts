import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Cheap, offline checks for the `codex exec` backend, as claude-detect.ts does for claude: no
 * process is started. "Signed in" means Codex has something to call a model with: its stored
 * credentials (`$CODEX_HOME/auth.json`, written by `codex login`), an API key in the
 * environment, or a model provider of the user's own in config.toml.
 */

type Env = Record<string, string | undefined>;

/** Codex's home: `CODEX_HOME`, else `~/.codex`. */
function codexHomeDir(env: Env): string {
  return env.CODEX_HOME?.trim() || join(env.HOME || env.USERPROFILE || '', '.codex');
}

function configText(env: Env): string {
  try {
    return readFileSync(join(codexHomeDir(env), 'config.toml'), 'utf8');
  } catch {
    return '';
  }
}

/** A top-level `key = "value"` of config.toml (before its first table), or null. */
function topLevelString(text: string, key: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) return null;
    const m = new RegExp(`^\\s*${key}\\s*=\\s*"([^"\\\\]*)"\\s*(#.*)?$`).exec(line);
    if (m) return m[1] ?? null;
  }
  return null;
}

/** How Codex can reach a model (a short phrase for `status`), or null when it cannot. */
export function codexSignIn(env: Env): string | null {
  if (env.CODEX_API_KEY?.trim()) return 'CODEX_API_KEY is set';
  if (env.OPENAI_API_KEY?.trim()) return 'OPENAI_API_KEY is set';
  const auth = join(codexHomeDir(env), 'auth.json');
  if (existsSync(auth)) return `signed in (${auth})`;
  const provider = topLevelString(configText(env), 'model_provider');
  if (provider && provider !== 'openai') return `model provider "${provider}" in config.toml`;
  return null;
}

/** The model Codex will use: AGENTCTX_CODEX_MODEL, else config.toml's `model`, else its default. */
export function codexModel(env: Env): string | null {
  return env.AGENTCTX_CODEX_MODEL?.trim() || topLevelString(configText(env), 'model');
}

/**
 * The MCP servers config.toml declares (`[mcp_servers.<name>]` and its sub-tables), so the
 * nested run can switch each one off: a `-c` override for a name that is not declared would
 * declare a server without a command, which Codex refuses.
 */
export function codexMcpServers(env: Env): string[] {
  const names = new Set<string>();
  for (const line of configText(env).split(/\r?\n/)) {
    const m = /^\s*\[\s*mcp_servers\s*\.\s*(?:"([^"\\]+)"|([A-Za-z0-9_-]+))\s*[.\]]/.exec(line);
    const name = m?.[1] ?? m?.[2];
    if (name) names.add(name);
  }
  return [...names];
}
