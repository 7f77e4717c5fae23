import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_CONTEXT_CHARS, claudeCodeAdapter } from '../../../../src/hooks/agents/claude-code.js';
import { CODEX_CONTEXT_BYTES, codexAdapter, patchedFiles } from '../../../../src/hooks/agents/codex.js';
import { fitToCap, utf8Bytes } from '../../../../src/hooks/agents/fit.js';
import { HOOK_NAMES } from '../../../../src/hooks/event.js';
import { hookAgentOf } from '../../../../src/shared/agents.js';

/** Texts with many lines of mixed width: ASCII, accents, CJK, emoji (4 bytes, 2 code units). */
const wideText = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.constantFrom('台北的账本服务'.repeat(60), '🧾'.repeat(700), 'é'.repeat(3000), 'x'.repeat(12_000)),
    ),
    { maxLength: 40 },
  )
  .map((lines) => lines.join('\n'));

describe('fitToCap', () => {
  it('returns a prefix of the text, within the cap, keeping every line that fits', () => {
    fc.assert(
      fc.property(wideText, fc.integer({ min: 1, max: 20_000 }), (text, cap) => {
        const out = fitToCap(text, utf8Bytes, cap);
        expect(utf8Bytes(out)).toBeLessThanOrEqual(cap);
        expect(text.startsWith(out)).toBe(true);
        // no lone surrogate at the cut
        expect(/[\uD800-\uDBFF]$/.test(out)).toBe(false);
        if (utf8Bytes(text) <= cap) expect(out).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('each agent keeps its cap by construction', () => {
  it('Codex: one hookSpecificOutput object, additionalContext at most 10,000 UTF-8 bytes (2,500 Codex tokens)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_NAMES), wideText, (name, text) => {
        const out = codexAdapter.render(name, { additionalContext: text });
        if (out === '') return;
        const v = JSON.parse(out) as {
          hookSpecificOutput: { hookEventName: string; additionalContext: string };
        };
        expect(Object.keys(v)).toEqual(['hookSpecificOutput']);
        expect(typeof v.hookSpecificOutput.hookEventName).toBe('string');
        const ctx = v.hookSpecificOutput.additionalContext;
        expect(ctx.length).toBeGreaterThan(0);
        // Codex's own measure: ceil(bytes / 4) tokens against its 2,500-token default
        expect(Math.ceil(utf8Bytes(ctx) / 4)).toBeLessThanOrEqual(2_500);
        expect(text.startsWith(ctx)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(CODEX_CONTEXT_BYTES).toBe(10_000);
  });

  it('Claude Code: additionalContext at most 10,000 characters', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_NAMES), wideText, (name, text) => {
        const out = claudeCodeAdapter.render(name, { additionalContext: text });
        if (out === '') return;
        const ctx = (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } })
          .hookSpecificOutput.additionalContext;
        expect(ctx.length).toBeLessThanOrEqual(CLAUDE_CODE_CONTEXT_CHARS);
      }),
      { numRuns: 200 },
    );
  });

  it('nothing to say prints nothing', () => {
    for (const a of [codexAdapter, claudeCodeAdapter]) {
      expect(a.render('stop', null)).toBe('');
      expect(a.render('stop', { additionalContext: '' })).toBe('');
    }
  });
});

describe('payloads into the one typed event', () => {
  const base = { session_id: 's1', transcript_path: '/t.jsonl', cwd: '/repo', hook_event_name: 'X' };

  it("Codex never takes Claude Code's session variables (a Codex started inside a Claude session inherits them)", () => {
    const env = { CLAUDE_CODE_SESSION_ID: 'claude-session', CLAUDE_PROJECT_DIR: '/claude/project' };
    const codex = codexAdapter.toEvent('stop', {}, env, '/proc/cwd');
    expect(codex.sessionId).toBe('');
    expect(codex.cwd).toBe('/proc/cwd');
    const claude = claudeCodeAdapter.toEvent('stop', {}, env, '/proc/cwd');
    expect(claude.sessionId).toBe('claude-session');
    expect(claude.cwd).toBe('/claude/project');
  });

  it("Codex's shell call arrives as Bash with its output string; a patch becomes an edit of its file", () => {
    const shell = codexAdapter.toEvent(
      'post-tool-use',
      { ...base, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: 'Error: x' },
      {},
      '/',
    );
    expect(shell).toMatchObject({ kind: 'post-tool-use', toolName: 'Bash', toolResponse: 'Error: x' });
    const patch = codexAdapter.toEvent(
      'post-tool-use',
      {
        ...base,
        tool_name: 'apply_patch',
        tool_input: { command: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch' },
      },
      {},
      '/',
    );
    expect(patch).toMatchObject({ toolName: 'Edit', toolInput: { file_path: 'src/a.ts' } });
    expect(
      patchedFiles({ input: '*** Add File: b.ts\n+x\n*** Update File: c.ts\n*** Move to: d.ts' }),
    ).toEqual(['b.ts', 'c.ts', 'd.ts']);
  });

  it('the agent comes from --agent on the command line, else AGENTCTX_AGENT, else Claude Code', () => {
    expect(hookAgentOf(['session-start', '--agent', 'codex'], {})).toBe('codex');
    expect(hookAgentOf(['session-start', '--agent=codex'], {})).toBe('codex');
    expect(hookAgentOf(['session-start'], { AGENTCTX_AGENT: 'codex' })).toBe('codex');
    expect(hookAgentOf(['session-start'], {})).toBe('claude-code');
    expect(hookAgentOf(['session-start', '--agent', 'nope'], {})).toBe('claude-code');
  });
});
