import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentClientEnv, ensureAgentClient } from './agent-clients.js';
import { spawnCollect } from './cli.js';

/**
 * Drive the real OpenCode CLI (`opencode-ai`, installed on demand) offline: a throwaway HOME,
 * XDG folders (its config, data and SQLite store live there) and TMPDIR, a provider in
 * opencode.json pointing at the fake chat-completions API on 127.0.0.1, and this checkout's
 * `agentctx` first on PATH for agentctx's plugin to run.
 */

export const OPENCODE_VERSION = '1.18.33';

export function opencodeBin(): string {
  return ensureAgentClient('opencode-ai', OPENCODE_VERSION, 'opencode');
}

export function opencodeEnv(home: string): NodeJS.ProcessEnv {
  return agentClientEnv(home);
}

/** The user's opencode.json before agentctx's init: the fake provider as the default model. */
export function writeOpencodeConfig(home: string, apiUrl: string): string {
  const file = join(home, 'xdg', 'config', 'opencode', 'opencode.json');
  mkdirSync(dirname(file), { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: 'fake/m',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: apiUrl, apiKey: 'sk-fake' },
        models: { m: { name: 'm' } },
      },
    },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** `opencode run PROMPT` (one turn), stdin closed. */
export async function runOpencode(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  timeoutMs?: number;
}) {
  return spawnCollect(opencodeBin(), ['run', opts.prompt], {
    cwd: opts.cwd,
    env: opts.env,
    input: '',
    timeoutMs: opts.timeoutMs ?? 180_000,
  });
}
