import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentClientEnv, ensureAgentClient } from './agent-clients.js';
import { spawnCollect } from './cli.js';

/**
 * Drive the real GitHub Copilot CLI (`@github/copilot`, installed on demand) offline. Its own
 * offline mode (`COPILOT_OFFLINE=true`) with a custom OpenAI-compatible provider
 * (`COPILOT_PROVIDER_BASE_URL`, chat-completions wire API by default) needs no GitHub sign-in
 * and makes no other network call: the fake chat-completions API on 127.0.0.1 is its model.
 * The npm package is a loader for a native binary, which unpacks its JavaScript into a package
 * cache on first run: that cache sits beside the installed client (unpacked once, not per
 * test), while HOME, XDG folders and TMPDIR are throwaway.
 */

export const COPILOT_VERSION = '1.0.102';

export function copilotClient(): { loader: string; pkgCache: string } {
  const loader = ensureAgentClient('@github/copilot', COPILOT_VERSION, 'copilot');
  // node_modules/.cache/agents/copilot-<version>/node_modules/.bin/copilot → …/copilot-<version>
  const pkgCache = join(dirname(loader), '..', '..', 'pkg-cache');
  mkdirSync(pkgCache, { recursive: true });
  return { loader, pkgCache };
}

export function copilotEnv(home: string, apiUrl: string): NodeJS.ProcessEnv {
  return agentClientEnv(home, {
    COPILOT_PKG_CACHE_HOME: copilotClient().pkgCache,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: apiUrl,
    COPILOT_PROVIDER_API_KEY: 'sk-fake',
    COPILOT_MODEL: 'm',
  });
}

/** `copilot -p PROMPT --allow-all-tools` (one non-interactive run), stdin closed. */
export async function runCopilot(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  timeoutMs?: number;
}) {
  const { loader } = copilotClient();
  return spawnCollect(process.execPath, [loader, '-p', opts.prompt, '--allow-all-tools'], {
    cwd: opts.cwd,
    env: opts.env,
    input: '',
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
