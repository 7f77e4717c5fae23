import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rand } from '../../support/secret-corpus.js';
import { basePayload, type HookWorld, hookWorld, runHook } from './helpers.js';

/**
 * PostToolUse capture goes through the same redaction gate as every other write: the built-in
 * rules and the user's `redact.extraPatterns`, before the command and its error are cut to
 * size and stored.
 */

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

function failingBash(sessionId: string, command: string, stderr: string) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Bash',
    tool_input: { command, description: 'run' },
    tool_response: { stdout: '', stderr, interrupted: false, isImage: false },
    tool_use_id: 'toolu_1',
  });
}

describe('PostToolUse capture and the redaction gate', () => {
  it("applies the user's extra patterns as well as the built-in rules", () => {
    const home = join(w.home, '.agentctx');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ redact: { extraPatterns: ['ACME-[0-9]{6}'] } }),
    );
    const token = `ghp_${rand(36)}`;
    const r = runHook(
      w,
      'post-tool-use',
      failingBash(
        'red1',
        `GH_TOKEN=${token} ./deploy --ticket ACME-748201`,
        'Error: ticket ACME-748201 is closed',
      ),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const rows = w.db().prepare('SELECT title, body FROM records').all() as { title: string; body: string }[];
    w.closeDb();
    expect(rows).toHaveLength(1);
    const text = `${rows[0]!.title}\n${rows[0]!.body}`;
    expect(text).toContain('GH_TOKEN=[REDACTED:github-token]');
    expect(text).toContain('ticket [REDACTED:custom] is closed');
    expect(text).not.toContain('748201');
    expect(text).not.toContain(token.slice(4, 16));
  });

  it('a broken config never breaks the hook: the built-in rules still apply', () => {
    const home = join(w.home, '.agentctx');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{ not json');
    const token = `ghp_${rand(36)}`;
    const r = runHook(
      w,
      'post-tool-use',
      failingBash('red2', `curl -H "Authorization: token ${token}" x`, 'Error: 401'),
    );
    expect(r.code).toBe(0);
    const text = JSON.stringify(w.db().prepare('SELECT title, body FROM records').all());
    w.closeDb();
    expect(text).toContain('[REDACTED:');
    expect(text).not.toContain(token.slice(4, 16));
  });
});
