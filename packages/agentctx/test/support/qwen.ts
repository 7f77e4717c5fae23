import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentClientEnv, ensureAgentClient, nodeAtLeast } from './agent-clients.js';
import { spawnCollect } from './cli.js';

/**
 * Drive the real Qwen Code CLI (`@qwen-code/qwen-code`, installed on demand) offline: a
 * throwaway HOME, XDG folders and TMPDIR, the OpenAI-compatible provider pointed at the fake
 * chat-completions API on 127.0.0.1, and this checkout's `agentctx` first on PATH. Qwen needs
 * Node 22; agentctx (and its hooks) keep running on the Node that runs the tests.
 */

export const QWEN_VERSION = '0.24.4';

export function qwenClient(): { node: string; cli: string } {
  const bin = ensureAgentClient('@qwen-code/qwen-code', QWEN_VERSION, 'qwen');
  const cli = join(dirname(bin), '..', '@qwen-code', 'qwen-code', 'cli-entry.js');
  return { node: nodeAtLeast(22), cli };
}

export function qwenEnv(home: string, apiUrl: string): NodeJS.ProcessEnv {
  return agentClientEnv(home, {
    OPENAI_API_KEY: 'sk-fake',
    OPENAI_BASE_URL: apiUrl,
    OPENAI_MODEL: 'm',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
  });
}

/**
 * The user's own settings before agentctx's init: no background memory request after each
 * turn (it would reach the fake API as an extra request), and the `$version` Qwen adds on its
 * first run (so the file holds only what the user and agentctx wrote).
 */
export function writeQwenSettings(home: string): string {
  const file = join(home, '.qwen', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ memory: { enableManagedAutoMemory: false }, $version: 4 }, null, 2)}\n`,
  );
  return file;
}

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** `qwen -p PROMPT --yolo` (one non-interactive turn, every tool allowed), stdin closed. */
export async function runQwen(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  timeoutMs?: number;
}) {
  const { node, cli } = qwenClient();
  return spawnCollect(node, [cli, '-p', opts.prompt, '--yolo'], {
    cwd: opts.cwd,
    env: opts.env,
    input: '',
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
