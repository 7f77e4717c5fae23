import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Cheap, offline checks for the `claude` CLI backend: is the binary on PATH, and is the user
 * signed in. No process is started and nothing goes over the network; "signed in" means
 * Claude Code has credentials it can use:
 * - `CLAUDE_CODE_OAUTH_TOKEN` (a long-lived token from `claude setup-token`) or
 *   `ANTHROPIC_AUTH_TOKEN` in the environment;
 * - a cloud provider switched on (`CLAUDE_CODE_USE_BEDROCK` / `_VERTEX` / `_FOUNDRY`);
 * - `<config dir>/.credentials.json` holding an OAuth token (Linux, Windows);
 * - `oauthAccount` in Claude Code's global state file (`~/.claude.json`, or `.claude.json`
 *   in `CLAUDE_CONFIG_DIR`): macOS keeps the token itself in the keychain, which we don't read.
 * `ANTHROPIC_API_KEY` also signs the CLI in, but then the API backend is chosen first.
 */

type Env = Record<string, string | undefined>;

function home(env: Env): string {
  return env.HOME || env.USERPROFILE || '';
}

export function claudeConfigDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR?.trim() || join(home(env), '.claude');
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    if (!existsSync(path)) return null;
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function on(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** How the claude CLI is signed in (a short phrase for `status`), or null when it is not. */
export function claudeSignIn(env: Env): string | null {
  if (env.CLAUDE_CODE_OAUTH_TOKEN?.trim()) return 'CLAUDE_CODE_OAUTH_TOKEN is set';
  if (env.ANTHROPIC_AUTH_TOKEN?.trim()) return 'ANTHROPIC_AUTH_TOKEN is set';
  for (const p of ['BEDROCK', 'VERTEX', 'FOUNDRY'])
    if (on(env[`CLAUDE_CODE_USE_${p}`])) return `CLAUDE_CODE_USE_${p} is set`;
  const dir = claudeConfigDir(env);
  const creds = readJson(join(dir, '.credentials.json'));
  const oauth = creds?.claudeAiOauth as Record<string, unknown> | undefined;
  if (oauth && (typeof oauth.accessToken === 'string' || typeof oauth.refreshToken === 'string'))
    return `signed in (${join(dir, '.credentials.json')})`;
  const state = env.CLAUDE_CONFIG_DIR?.trim() ? join(dir, '.claude.json') : join(home(env), '.claude.json');
  const account = readJson(state)?.oauthAccount;
  if (account && typeof account === 'object') return `signed in (oauthAccount in ${state})`;
  return null;
}
