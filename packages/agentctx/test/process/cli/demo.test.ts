import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runAgentctx, spawnCollect } from '../../support/cli.js';
import { startFakeApi } from '../../support/fake-messages-api.js';
import { tempDir } from '../../support/tmp.js';

/**
 * `agentctx demo` runs the built binary's real hooks and MCP server through two scripted
 * sessions. It must work with no key and no network, print what Claude Code received, touch
 * nothing of the user's (HOME here is a sentinel folder that must stay empty) and leave
 * nothing behind unless asked to with --keep.
 */

const DECISION = 'Store money as integer cents, never as floating-point euros';

/** A user's environment: a HOME that must stay untouched, a TMPDIR of our own, no AGENTCTX_HOME. */
function userEnv(root: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  for (const d of ['home', 'tmp']) mkdirSync(join(root, d), { recursive: true });
  return { PATH: process.env.PATH, HOME: join(root, 'home'), TMPDIR: join(root, 'tmp'), ...extra };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('agentctx demo', () => {
  it('shows the digest and the prompt injection, needs no key or network, and leaves nothing behind', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    // a key and an API address in the environment: the demo must not use them
    const api = await startFakeApi();
    cleanups.push(() => void api.close());
    const env = userEnv(t.path, { ANTHROPIC_API_KEY: 'sk-ant-demo-test', ANTHROPIC_BASE_URL: api.url });
    const res = await spawnCollect(process.execPath, [BIN, 'demo'], { cwd: t.path, env, timeoutMs: 120_000 });
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    // session 2's SessionStart: the digest, with its token count, carrying the decision
    const digest = /Claude Code receives the digest, (\d+) tokens:\n([\s\S]*?)\n\s*\d+ {2}You type/.exec(out);
    expect(digest, out).not.toBeNull();
    expect(Number(digest?.[1])).toBeGreaterThan(0);
    expect(digest?.[2]).toContain(DECISION);
    expect(digest?.[2]).toContain('Small commits, each with the test that covers it');
    // the prompt's injection, with its token count, carrying the failing test captured in session 1
    const injection =
      /Claude Code receives context for this prompt, (\d+) tokens:\n([\s\S]*?)\n\n── What happened/.exec(out);
    expect(injection, out).not.toBeNull();
    expect(Number(injection?.[1])).toBeGreaterThan(0);
    expect(injection?.[2]).toMatch(/Tests fail \(1 failed, 1 passed\): node --test test\/money\.test\.js/);
    expect(out).toMatch(/\+ decision\s+explicit\s+mcp_tool\s+Store money as integer cents/);
    expect(out).toMatch(/\+ handover\s+inferred/);
    // piped: no colour
    expect(out).not.toMatch(/\x1b\[/);
    expect(api.requests).toHaveLength(0);
    expect(readdirSync(join(t.path, 'home'))).toEqual([]);
    expect(readdirSync(join(t.path, 'tmp'))).toEqual([]);
  }, 150_000);

  it('--keep DIR leaves a home that agentctx status reads, and refuses a folder that is not empty', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = userEnv(t.path);
    const keep = join(t.path, 'kept');
    const res = runAgentctx(['demo', '--keep', keep, '--json'], { cwd: t.path, env, timeoutMs: 120_000 });
    expect(res.code, res.stderr).toBe(0);
    const json = JSON.parse(res.stdout) as {
      kept: boolean;
      home: string;
      project: string;
      digest: { text: string; tokens: number };
      injection: { text: string; tokens: number };
      records: { type: string; confidence: string; scope: string; title: string }[];
      steps: { session: number; via: string }[];
    };
    expect(json.kept).toBe(true);
    expect(json.home).toBe(join(keep, 'home'));
    expect(json.digest.text).toContain(DECISION);
    expect(json.injection.tokens).toBeGreaterThan(0);
    expect(json.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'decision', confidence: 'explicit', title: DECISION }),
        expect.objectContaining({ type: 'preference', scope: 'global', confidence: 'explicit' }),
        expect.objectContaining({ type: 'discovery', confidence: 'inferred' }),
        expect.objectContaining({ type: 'handover', confidence: 'inferred' }),
      ]),
    );
    expect(json.steps.filter((s) => s.session === 2)).toHaveLength(2);
    expect(existsSync(join(keep, 'home', 'agentctx.db'))).toBe(true);
    // the kept home answers as any home does
    const status = runAgentctx(['status', '--json', '--cwd', json.project], {
      cwd: t.path,
      env: { ...env, AGENTCTX_HOME: json.home },
    });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { counts: Record<string, number> }).counts.decision).toBe(1);
    expect(readdirSync(join(t.path, 'home'))).toEqual([]);

    const full = join(t.path, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep-me'), 'x');
    const refused = runAgentctx(['demo', '--keep', full], { cwd: t.path, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--keep needs a new or empty folder/);
    expect(readdirSync(full)).toEqual(['keep-me']);
  }, 150_000);
});
