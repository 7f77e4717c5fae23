import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

const HOOKS = [
  'session-start',
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-tool-use',
  'session-end',
  'cwd-changed',
  'subagent-start',
];

let w: HookWorld;
beforeAll(() => {
  w = hookWorld();
  w.add({
    title: 'Payments go through the ledger service',
    body: 'All payment writes call the ledger service; never write balances directly.',
  });
  w.closeDb();
});
afterAll(() => w.cleanup());

/** stdout must be empty or one JSON object naming the right event. */
function expectValidOutput(stdout: string) {
  if (stdout.trim() === '') return;
  const v = JSON.parse(stdout) as {
    hookSpecificOutput?: { hookEventName?: unknown; additionalContext?: unknown };
  };
  expect(typeof v.hookSpecificOutput?.hookEventName).toBe('string');
  expect(typeof v.hookSpecificOutput?.additionalContext).toBe('string');
}

describe('the hook runner never breaks a session', () => {
  const bad: [string, string][] = [
    ['empty stdin', ''],
    ['garbage', 'this is not json {{{'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    ['truncated JSON', '{"session_id":"s","prompt":"pay'],
    [
      'wrong types',
      JSON.stringify({
        session_id: 42,
        cwd: ['x'],
        prompt: { a: 1 },
        source: 7,
        tool_input: 'x',
        tool_name: null,
      }),
    ],
    [
      'missing cwd',
      JSON.stringify({
        session_id: 'nocwd',
        prompt: 'payment ledger service writes',
        hook_event_name: 'UserPromptSubmit',
      }),
    ],
    ['relative cwd', JSON.stringify({ session_id: 'relcwd', cwd: '../..', prompt: 'ledger payments' })],
    [
      'cwd that does not exist',
      JSON.stringify({
        session_id: 'gone',
        cwd: '/nonexistent/dir/xyz',
        prompt: 'ledger payments',
        new_cwd: '/nonexistent',
      }),
    ],
    ['binary bytes', '\u0000\u0001\u00ff\ufffd{'],
  ];
  for (const hook of HOOKS) {
    it(`${hook}: exits 0 with empty or valid output on bad payloads`, () => {
      for (const [, input] of bad) {
        const r = runHook(w, hook, input, { env: { AGENTCTX_BACKGROUND_DEADLINE_MS: '3000' } });
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expectValidOutput(r.stdout);
      }
    });
  }

  it('survives a huge payload (12 MB) and a huge prompt', () => {
    const huge = JSON.stringify(promptPayload(w, 'huge', `ledger ${'x'.repeat(12 * 1024 * 1024)}`));
    const r = runHook(w, 'user-prompt-submit', huge);
    expect(r.code).toBe(0);
    expectValidOutput(r.stdout);
    const big = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'big', `payment ledger ${'word '.repeat(50_000)}`),
    );
    expect(big.code).toBe(0);
    expectValidOutput(big.stdout);
  });

  it('an unknown hook name or none at all exits 0 silently and logs it', () => {
    for (const args of [['hook', 'no-such-hook'], ['hook']]) {
      const r = runHook(w, args[1] ?? '', '{}');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    const log = readFileSync(join(w.home, '.agentctx', 'logs', 'hooks.log'), 'utf8');
    expect(log).toContain('unknown hook "no-such-hook"');
  });

  it('a corrupt store is logged, never shown to the session', () => {
    const other = hookWorld('git@github.com:acme/broken.git', 'broken');
    try {
      mkdirSync(join(other.home, '.agentctx'), { recursive: true });
      writeFileSync(other.dbPath, 'this is not a sqlite database, just text '.repeat(200));
      const r = runHook(other, 'user-prompt-submit', promptPayload(other, 's1', 'payment ledger service'));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      const log = readFileSync(join(other.home, '.agentctx', 'logs', 'hooks.log'), 'utf8');
      expect(log).toMatch(/user-prompt-submit: .*(not a database|file is not)/i);
    } finally {
      other.cleanup();
    }
  });

  it('AGENTCTX_DISABLE=1 makes every hook a no-op', () => {
    const env = { AGENTCTX_DISABLE: '1' };
    const p = runHook(w, 'user-prompt-submit', promptPayload(w, 'dis1', 'payment ledger service writes'), {
      env,
    });
    expect(p.code).toBe(0);
    expect(p.stdout).toBe('');
    expect(existsSync(w.statePath('dis1'))).toBe(false);
    const c = runHook(
      w,
      'cwd-changed',
      basePayload(w, 'dis2', 'CwdChanged', { old_cwd: w.repo, new_cwd: w.home }),
      { env },
    );
    expect(c.stdout).toBe('');
    expect(existsSync(w.statePath('dis2'))).toBe(false);
    const before = w.db().prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number };
    w.closeDb();
    const t = runHook(
      w,
      'post-tool-use',
      basePayload(w, 'dis3', 'PostToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'npm run build' },
        tool_response: { stdout: '', stderr: 'TypeError: x is not a function', interrupted: false },
      }),
      { env },
    );
    expect(t.code).toBe(0);
    const after = w.db().prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number };
    w.closeDb();
    expect(after.n).toBe(before.n);
    // the same prompt without the switch does inject
    const on = runHook(w, 'user-prompt-submit', promptPayload(w, 'dis1', 'payment ledger service writes'));
    expect(on.context).toContain('Payments go through the ledger service');
  });
});
