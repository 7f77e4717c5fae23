import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #16: removing the npm package before `agentctx uninstall` left every session's hooks
 * failing with "agentctx: not found"; `$TMPDIR/agentctx-<session>.json` outlived `--purge`; a
 * piped "y" was refused without saying that `--yes` is the way.
 */

let tmp: ReturnType<typeof tempDir>;
let home: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  tmp = tempDir('agentctx-uninstall-');
  home = join(tmp.path, 'home');
  mkdirSync(home);
  repo = fakeRepo(tmp.path, 'app', 'git@github.com:example/app.git');
  env = isolatedEnv(home, { AGENTCTX_NO_CLAUDE_CLI: '1' });
});
afterEach(() => tmp.cleanup());

/** Run a registered hook command the way Claude Code does: through the shell, payload on stdin. */
function runHookCommand(command: string, path: string) {
  const payload = JSON.stringify({
    session_id: 's-gone',
    cwd: repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  return spawnSync('sh', ['-c', command], {
    cwd: repo,
    env: { ...env, PATH: path },
    input: payload,
    encoding: 'utf8',
  });
}

describe('agentctx uninstall', () => {
  it('the hooks init registers exit 0 quietly when the binary is gone, and still run when it is there', () => {
    expect(runJson(['init'], { cwd: repo, env }).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    const commands: string[] = Object.values(
      settings.hooks as Record<string, { hooks: { command: string }[] }[]>,
    ).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
    expect(commands.length).toBeGreaterThan(5);
    // the package removed: no agentctx anywhere on PATH
    const bare = dirname(spawnSync('sh', ['-c', 'command -v sh'], { encoding: 'utf8' }).stdout.trim());
    for (const c of commands) {
      const r = runHookCommand(c, bare);
      expect({ c, code: r.status, out: r.stdout, err: r.stderr }).toEqual({ c, code: 0, out: '', err: '' });
    }
    // installed: a shim named agentctx on PATH runs the real CLI, and SessionStart answers
    const bin = join(tmp.path, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'agentctx'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'agentctx'), 0o755);
    const start = commands.find((c) => c.startsWith('agentctx hook session-start'))!;
    const r = runHookCommand(start, `${bin}:${bare}`);
    expect(r.status).toBe(0);
    expect(r.stdout.trim() === '' || JSON.parse(r.stdout).hookSpecificOutput !== undefined).toBe(true);
  });

  it('--purge removes the session files in the temp folder, only ours', () => {
    expect(runJson(['init'], { cwd: repo, env }).code).toBe(0);
    const dir = env.AGENTCTX_TMPDIR!;
    mkdirSync(dir, { recursive: true });
    const ours = ['agentctx-s1.json', 'agentctx-abc_DEF-9.json'].map((n) => join(dir, n));
    for (const p of ours) writeFileSync(p, '{}');
    const other = join(dir, 'agentctx-notes.txt');
    const foreign = join(dir, 'other-s1.json');
    writeFileSync(other, 'x');
    writeFileSync(foreign, '{}');
    const target = join(tmp.path, 'keep-me.json');
    writeFileSync(target, '{}');
    symlinkSync(target, join(dir, 'agentctx-link.json'));
    const res = runJson<{ session_files_removed: number }>(['uninstall', '--purge', '--yes'], {
      cwd: repo,
      env,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.session_files_removed).toBe(2);
    for (const p of ours) expect(existsSync(p)).toBe(false);
    for (const p of [other, foreign, target]) expect(existsSync(p)).toBe(true);
  });

  it('a "y" piped in is refused, saying --yes is the way; nothing changes', () => {
    expect(runJson(['init'], { cwd: repo, env }).code).toBe(0);
    const res = runAgentctx(['uninstall', '--purge'], { cwd: repo, env, input: 'y\n' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('piped in');
    expect(res.stderr).toContain('pass --yes to confirm');
    expect(existsSync(join(home, '.agentctx', 'agentctx.db'))).toBe(true);
  });
});
