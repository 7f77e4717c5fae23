import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentctxBinDir, findUp } from './claude.js';
import { isolatedEnv, spawnCollect } from './cli.js';

/**
 * Drive the real Codex CLI (`@openai/codex`) offline: a throwaway HOME, CODEX_HOME and TMPDIR,
 * a custom model provider pointing at the fake Responses API on 127.0.0.1, and this checkout's
 * `agentctx` first on PATH so the hooks `agentctx init --agent codex` registers run it.
 */

/** The `codex` binary of the devDependency, or null when it is not installed. */
export const CODEX_BIN: string | null = findUp(join('node_modules', '.bin', 'codex'));

/** The environment of a hermetic Codex run (HOME, CODEX_HOME, TMPDIR, AGENTCTX_HOME inside `home`). */
export function codexEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const path = [
    agentctxBinDir(home),
    codexBinDir(home),
    dirname(process.execPath),
    '/usr/local/bin',
    '/usr/bin',
    '/bin',
  ].join(':');
  const tmp = join(home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  mkdirSync(join(home, '.codex'), { recursive: true });
  return isolatedEnv(home, {
    PATH: path,
    CODEX_HOME: join(home, '.codex'),
    TMPDIR: tmp,
    FAKE_OPENAI_KEY: 'sk-fake',
    ...extra,
  });
}

/**
 * config.toml for the fake provider (written before `agentctx init`, which adds its own
 * entries to it). `trusted` folders run with workspace writes.
 */
export function writeCodexConfig(codexHome: string, apiUrl: string, trusted: string[] = []): string {
  const lines = [
    'model = "gpt-5"',
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${apiUrl}"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    ...trusted.flatMap((p) => ['', `[projects.${JSON.stringify(p)}]`, 'trust_level = "trusted"']),
    '',
  ];
  const file = join(codexHome, 'config.toml');
  writeFileSync(file, lines.join('\n'));
  return file;
}

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `codex exec PROMPT` (one turn) with stdin closed; `resume` continues the last session. */
export async function runCodexExec(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  resume?: boolean;
  extraArgs?: string[];
  timeoutMs?: number;
}): Promise<CodexRun> {
  if (!CODEX_BIN) throw new Error('node_modules/.bin/codex is not installed');
  const args = ['exec', ...(opts.resume ? ['resume', '--last'] : []), '--skip-git-repo-check'];
  args.push(...(opts.extraArgs ?? []), opts.prompt);
  return spawnCollect(CODEX_BIN, args, {
    cwd: opts.cwd,
    env: opts.env,
    input: '',
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
}

/** Every rollout file under `$CODEX_HOME/sessions`, oldest first. */
export function rolloutFiles(codexHome: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(name)) out.push(p);
    }
  };
  walk(join(codexHome, 'sessions'));
  return out.sort();
}

/** A folder holding a `codex` symlink to the real client, for code that looks it up on PATH. */
export function codexBinDir(parent: string): string {
  if (!CODEX_BIN) throw new Error('node_modules/.bin/codex is not installed');
  const dir = join(parent, 'codex-bin');
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'codex');
  if (!existsSync(link)) symlinkSync(CODEX_BIN, link);
  return dir;
}
