import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentClientEnv, ensureAgentClient } from './agent-clients.js';
import { spawnCollect } from './cli.js';

/**
 * Drive the real Gemini CLI (`@google/gemini-cli`, installed on demand) offline: a throwaway
 * HOME, XDG folders and TMPDIR, `GOOGLE_GEMINI_BASE_URL` at the fake Gemini API on 127.0.0.1,
 * an API-key login chosen in settings (the base URL alone is refused), the workspace trusted,
 * and this checkout's `agentctx` first on PATH.
 */

export const GEMINI_VERSION = '0.61.0';

export function geminiBin(): string {
  return ensureAgentClient('@google/gemini-cli', GEMINI_VERSION, 'gemini');
}

export function geminiEnv(home: string, apiUrl: string): NodeJS.ProcessEnv {
  return agentClientEnv(home, {
    GEMINI_API_KEY: 'fake-key',
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  });
}

/** The user's own settings before agentctx's init: the API-key login. */
export function writeGeminiSettings(home: string): string {
  const file = join(home, '.gemini', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)}\n`,
  );
  return file;
}

/** `gemini -p PROMPT --yolo -m gemini-2.5-flash` (no router request), stdin closed. */
export async function runGemini(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  timeoutMs?: number;
}) {
  return spawnCollect(geminiBin(), ['-p', opts.prompt, '--yolo', '-m', 'gemini-2.5-flash'], {
    cwd: opts.cwd,
    env: opts.env,
    input: '',
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
