import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, runAgentctx } from '../../support/cli.js';
import { type HookWorld, hookWorld, runHook } from './helpers.js';

/**
 * One store for every agent: a Qwen Code session's handover (extracted from Qwen's own chat
 * file, as its Stop hook asks) opens the next Gemini CLI session, naming the agent that left
 * off; and plain `init` names the other agents it finds without touching them.
 */

let w: HookWorld;
beforeAll(() => {
  w = hookWorld('git@github.com:acme/cross.git', 'cross');
}, 60_000);
afterAll(() => w.cleanup());

describe('a handover written in one agent opens the next session in another', () => {
  it('Qwen Code → Gemini CLI', () => {
    const transcript = join(w.home, 'qwen-chat.jsonl');
    copyFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'agents', 'qwen-0.24.4-chat.jsonl'), transcript);
    const ex = runAgentctx(
      ['extract', '--session-id', 'qwen-sess-1', '--transcript', transcript, '--agent', 'qwen', '--json'],
      {
        cwd: w.repo,
        env: { ...w.env, AGENTCTX_NO_CLAUDE_CLI: '1', ANTHROPIC_API_KEY: '' },
        timeoutMs: 60_000,
      },
    );
    expect(ex.code, ex.stderr).toBe(0);
    expect((JSON.parse(ex.stdout) as { mode: string }).mode).toBe('rules');
    const r = runHook(
      w,
      'session-start',
      { session_id: 'gemini-sess-1', cwd: w.repo, hook_event_name: 'SessionStart', source: 'startup' },
      { args: ['--agent', 'gemini'] },
    );
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput?.hookEventName).toBe('SessionStart');
    expect(r.context).toMatch(/Task \(Qwen Code, /);
  });
});

describe("agents.isolate keeps an agent's records to itself (decision 0113)", () => {
  it('through real hook processes, config and status', () => {
    const mine = w.add({ title: 'Codex scratch rule zebrafish', body: 'zebrafish policy from codex' });
    w.closeDb();
    const db = w.db();
    db.prepare("UPDATE records SET agent = 'codex' WHERE id = ?").run(mine.id);
    w.add({ title: 'Shared rule zebrafish', body: 'zebrafish policy from claude code' });
    w.closeDb();
    const set = runAgentctx(['config', 'set', 'agents.isolate', 'codex'], { cwd: w.repo, env: w.env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/"isolate": \[\s*"codex"\s*\]/);
    const bad = runAgentctx(['config', 'set', 'agents.isolate', 'codx'], { cwd: w.repo, env: w.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown agent "codx"');
    const prompt = (agent: string, session: string) =>
      runHook(
        w,
        'user-prompt-submit',
        {
          session_id: session,
          cwd: w.repo,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'zebrafish policy?',
        },
        { args: ['--agent', agent] },
      );
    const start = (agent: string, session: string) =>
      runHook(
        w,
        'session-start',
        { session_id: session, cwd: w.repo, hook_event_name: 'SessionStart', source: 'startup' },
        { args: ['--agent', agent] },
      );
    const claude = prompt('claude-code', 'iso-claude');
    expect(claude.code).toBe(0);
    expect(claude.context).toContain('Shared rule zebrafish');
    expect(claude.context).not.toContain('Codex scratch rule');
    const codex = prompt('codex', 'iso-codex');
    expect(codex.context).toContain('Codex scratch rule zebrafish');
    expect(codex.context).not.toContain('Shared rule');
    const codexStart = start('codex', 'iso-codex-2');
    expect(codexStart.code).toBe(0);
    expect(codexStart.context).toContain('Codex scratch rule zebrafish');
    expect(codexStart.context).not.toContain('Shared rule');
    const claudeStart = start('claude-code', 'iso-claude-2');
    expect(claudeStart.context).not.toContain('Codex scratch rule');
    const status = runAgentctx(['status'], { cwd: w.repo, env: w.env });
    expect(status.stdout).toContain(
      'scope     Codex: own records only, kept from the other agents (agents.isolate)',
    );
    const verbose = runAgentctx(['status', '--verbose'], { cwd: w.repo, env: w.env });
    expect(verbose.stdout).toMatch(/agent\s+Codex: .*its records kept to itself \(agents\.isolate\)/);
    const off = runAgentctx(['config', 'set', 'agents.isolate', ''], { cwd: w.repo, env: w.env });
    expect(off.code, off.stderr).toBe(0);
    expect(prompt('claude-code', 'iso-claude-3').context).toContain('Codex scratch rule zebrafish');
  });
});

describe('plain init', () => {
  it('names the other agents it finds and leaves their files alone', () => {
    mkdirSync(join(w.home, '.qwen'), { recursive: true });
    mkdirSync(join(w.home, '.gemini'), { recursive: true });
    const r = runAgentctx(['init', '--no-claude-cli'], { cwd: w.repo, env: w.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'also found: Qwen Code (agentctx init --agent qwen registers agentctx there too)',
    );
    expect(r.stdout).toContain(
      'also found: Gemini CLI (agentctx init --agent gemini registers agentctx there too)',
    );
    expect(existsSync(join(w.home, '.qwen', 'settings.json'))).toBe(false);
    expect(existsSync(join(w.home, '.gemini', 'settings.json'))).toBe(false);
    const un = runAgentctx(['uninstall'], { cwd: w.repo, env: w.env });
    expect(un.code, un.stderr).toBe(0);
  });
});
