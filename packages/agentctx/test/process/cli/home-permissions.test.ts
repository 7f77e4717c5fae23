import { chmodSync, chownSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
let home: string;

beforeEach(() => {
  t = tempDir();
  repo = fakeRepo(t.path, 'shop', 'https://github.com/acme/shop.git');
  env = isolatedEnv(t.path);
  home = env.AGENTCTX_HOME!;
});
afterEach(() => t.cleanup());

function looseHome(mode: number): void {
  mkdirSync(home, { recursive: true });
  chmodSync(home, mode); // explicit: mkdir's mode is cut by the umask
  expect(statSync(home).mode & 0o7777).toBe(mode);
}

interface Status {
  home: { path: string; mode: string; private: boolean };
}

describe('an existing AGENTCTX_HOME with loose permissions', () => {
  it.each(['777', '755', '750', '700'])('is tightened to 0700 when the CLI opens it (was %s)', (octal) => {
    looseHome(Number.parseInt(octal, 8));
    const res = runJson<Status>(['status', '--verbose'], { cwd: repo, env });
    expect(res.code).toBe(0);
    expect(statSync(home).mode & 0o7777).toBe(0o700);
    expect(res.json.home).toEqual({ path: home, mode: '0700', private: true });
    expect(runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout).not.toMatch(/warning/);
  });

  it('is tightened on the hook path too (a prompt hook opens the store)', () => {
    const rec = runJson(['record', '--type', 'decision', '--title', 'Queue', '--body', 'Use SQS.'], {
      cwd: repo,
      env,
    });
    expect(rec.code).toBe(0);
    looseHome(0o777);
    const payload = {
      session_id: 's1',
      cwd: repo,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'which queue do we use?',
    };
    const res = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: repo,
      env,
      input: JSON.stringify(payload),
    });
    expect(res.stdout).toContain('Use SQS');
    expect(res.code).toBe(0);
    expect(statSync(home).mode & 0o7777).toBe(0o700);
  });

  it('tightens the logs, digests and locks folders init creates', () => {
    for (const sub of ['logs', 'digests', 'locks']) {
      mkdirSync(join(home, sub), { recursive: true });
      chmodSync(join(home, sub), 0o777);
    }
    const res = runAgentctx(['init', '--no-claude-cli', '--json'], { cwd: repo, env });
    expect(res.code, res.stderr).toBe(0);
    for (const sub of ['', 'logs', 'digests', 'locks'])
      expect(statSync(join(home, sub)).mode & 0o777, sub).toBe(0o700);
  });

  it('is left alone, and status warns, when it is a shared (sticky) folder', () => {
    looseHome(0o1777);
    const res = runJson<Status>(['status', '--verbose'], { cwd: repo, env });
    expect(res.code).toBe(0);
    expect(statSync(home).mode & 0o7777).toBe(0o1777);
    expect(res.json.home).toEqual({ path: home, mode: '1777', private: false });
    const text = runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout;
    expect(text).toContain(`warning   ${home} is mode 1777: other users can read the store`);
  });

  it.skipIf(process.getuid?.() !== 0)('is left alone, and status warns, when another user owns it', () => {
    looseHome(0o755);
    chownSync(home, 4242, 4242);
    const res = runJson<Status>(['status', '--verbose'], { cwd: repo, env });
    expect(res.code).toBe(0);
    expect(statSync(home).mode & 0o7777).toBe(0o755);
    expect(res.json.home.private).toBe(false);
  });
});
