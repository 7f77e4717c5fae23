import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentctx, runJson } from '../../support/cli.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

/**
 * An incognito session with the real hook processes: `agentctx incognito` arms it for the next
 * session (or `--session ID`, as the plugin's /agentctx:incognito passes it), every hook of that
 * session does nothing — no context in, no capture out, no journal — other sessions are
 * untouched, `status` shows it, and the next session to start switches it off.
 */

const PROMPT = 'How do I name the database migration file?';
const MARK = 'INCOG-MARK-5c';

describe('agentctx incognito', () => {
  let world: HookWorld;
  const status = () =>
    runJson<{ incognito: { session: string | null } | null }>(['status', '--verbose'], {
      cwd: world.repo,
      env: world.env,
    }).json.incognito;
  const failingBash = (session: string) =>
    basePayload(world, session, 'PostToolUseFailure', {
      tool_name: 'Bash',
      tool_input: { command: 'npm run gizmo' },
      tool_use_id: `t-${session}`,
      error: `Error: gizmo exploded in ${session}`,
    });
  const bugfixes = (session: string) =>
    (
      world
        .db()
        .prepare(`SELECT count(*) AS n FROM records WHERE type = 'bugfix' AND title LIKE ?`)
        .get(`%gizmo exploded in ${session}%`) as { n: number }
    ).n;

  beforeAll(() => {
    world = hookWorld();
    world.add({
      type: 'convention',
      title: 'Name database migration files with a UTC timestamp prefix',
      body: `Every migration file is named <UTC timestamp>_<slug>.sql. ${MARK}`,
    });
    world.closeDb();
  });
  afterAll(() => world?.cleanup());

  it('from the shell: the next session captures and injects nothing; the one after switches it off', () => {
    const on = runAgentctx(['incognito'], { cwd: world.repo, env: world.env });
    expect(on.code, on.stderr).toBe(0);
    expect(status()).toMatchObject({ session: null });
    // a session already running before it was armed is not affected
    expect(runHook(world, 'user-prompt-submit', promptPayload(world, 'running', PROMPT)).context).toContain(
      MARK,
    );

    const start = runHook(
      world,
      'session-start',
      basePayload(world, 'quiet', 'SessionStart', { source: 'startup' }),
    );
    expect(start.code).toBe(0);
    expect(start.stdout).toBe('');
    expect(status()).toMatchObject({ session: 'quiet' });
    const prompt = runHook(world, 'user-prompt-submit', promptPayload(world, 'quiet', PROMPT));
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toBe('');
    expect(runHook(world, 'post-tool-use', failingBash('quiet')).code).toBe(0);
    expect(runHook(world, 'stop', basePayload(world, 'quiet', 'Stop')).code).toBe(0);
    expect(
      runHook(world, 'session-end', basePayload(world, 'quiet', 'SessionEnd', { reason: 'other' })).code,
    ).toBe(0);
    expect(existsSync(world.journalPath('quiet'))).toBe(false);
    expect(existsSync(world.statePath('quiet'))).toBe(false);
    // the same capture in an ordinary session does land (the check above can fail)
    runHook(world, 'post-tool-use', failingBash('running'));
    expect(bugfixes('running')).toBe(1);
    expect(bugfixes('quiet')).toBe(0);
    world.closeDb();

    // the next session starts: incognito is off, and that session gets its context
    const next = runHook(
      world,
      'session-start',
      basePayload(world, 'after', 'SessionStart', { source: 'startup' }),
    );
    expect(next.code).toBe(0);
    expect(status()).toBeNull();
    expect(runHook(world, 'user-prompt-submit', promptPayload(world, 'after', PROMPT)).context).toContain(
      MARK,
    );
  });

  it('from inside Claude Code (--session): this session from now on, until the next session starts', () => {
    const on = runJson<{ incognito: { session: string } }>(['incognito', '--session', 'inside-1'], {
      cwd: world.repo,
      env: world.env,
    });
    expect(on.code, on.stderr).toBe(0);
    expect(on.json.incognito.session).toBe('inside-1');
    const text = runAgentctx(['status', '--verbose'], { cwd: world.repo, env: world.env }).stdout;
    expect(text).toMatch(/incognito on for session inside-1/);
    expect(runHook(world, 'user-prompt-submit', promptPayload(world, 'inside-1', PROMPT)).stdout).toBe('');
    // compaction inside the incognito session keeps it incognito
    const compact = runHook(
      world,
      'session-start',
      basePayload(world, 'inside-1', 'SessionStart', { source: 'compact' }),
    );
    expect(compact.stdout).toBe('');
    expect(status()).toMatchObject({ session: 'inside-1' });
    runHook(world, 'session-start', basePayload(world, 'inside-2', 'SessionStart', { source: 'startup' }));
    expect(status()).toBeNull();
    expect(runHook(world, 'user-prompt-submit', promptPayload(world, 'inside-1', PROMPT)).context).toContain(
      MARK,
    );
  });

  it('off cancels; bad input is a clear usage error that changes nothing', () => {
    runAgentctx(['incognito'], { cwd: world.repo, env: world.env });
    const off = runAgentctx(['incognito', 'off'], { cwd: world.repo, env: world.env });
    expect(off.code).toBe(0);
    expect(status()).toBeNull();
    for (const args of [
      ['incognito', 'maybe'],
      ['incognito', '--session', '../x'],
      ['incognito', 'off', '--session', 'a'],
    ]) {
      const r = runAgentctx(args, { cwd: world.repo, env: world.env });
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(/incognito|--session/);
      expect(status()).toBeNull();
    }
  });
});
