import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_HOOK_SPECS } from '../../src/codex/hooks-file.js';
import { type HookWorld, hookWorld, runHookAsync } from '../process/hooks/helpers.js';
import { reapBackground } from '../support/tmp.js';

/**
 * The Codex adapter under whatever stdin arrives: `agentctx hook <event> --agent codex` for
 * every event init registers in Codex, fed fast-check's arbitrary JSON, payloads shaped like
 * Codex's with fields of any type, and bytes that are not JSON. It must exit 0 and print
 * nothing, or one object Codex reads — `hookSpecificOutput` with the event's name and an
 * additionalContext within Codex's 2,500-token cap (ceil(UTF-8 bytes / 4)). The store holds
 * records long and wide enough (CJK, emoji) that an unfitted injection would pass the cap.
 */

const RUNS = Number(process.env.AGENTCTX_CODEX_FUZZ_RUNS ?? 60);
const EVENTS = CODEX_HOOK_SPECS.map((s) => ({ slug: s.slug, name: s.event }));

let w: HookWorld;
beforeAll(() => {
  w = hookWorld('git@github.com:acme/codex-fuzz.git', 'codexfuzz');
  for (const [i, unit] of ['账本服务的支付规则', '🧾💸', 'ledger payments rule '].entries())
    for (const j of [1, 2, 3])
      w.add({
        title: `Ledger payments rule ${i}-${j} ${unit.repeat(4)}`,
        body: `Payments go through the ledger. ${unit.repeat(Math.floor(1900 / unit.length))}`,
      });
  w.closeDb();
});
afterAll(() => {
  if (w) reapBackground(w.home);
  w?.cleanup();
});

const anyValue = fc.oneof(fc.json(), fc.string(), fc.integer(), fc.constant(null));

function payload(): fc.Arbitrary<string> {
  const shaped = fc
    .record(
      {
        session_id: fc.oneof(fc.uuid(), anyValue),
        turn_id: anyValue,
        transcript_path: fc.oneof(fc.constant('/nonexistent/rollout.jsonl'), anyValue),
        cwd: fc.oneof(fc.constant('__REPO__'), fc.constantFrom('/', '/nonexistent', '', '../..'), anyValue),
        hook_event_name: fc.oneof(fc.constantFrom(...EVENTS.map((e) => e.name)), anyValue),
        model: anyValue,
        permission_mode: anyValue,
        source: fc.oneof(fc.constantFrom('startup', 'resume'), anyValue),
        prompt: fc.oneof(fc.constant('ledger payments rule 账本 🧾'), fc.string(), anyValue),
        tool_name: fc.oneof(fc.constantFrom('Bash', 'apply_patch', 'mcp__agentctx__ctx_search'), anyValue),
        tool_input: fc.oneof(fc.record({ command: fc.oneof(fc.string(), anyValue) }), anyValue),
        tool_response: anyValue,
        tool_use_id: anyValue,
        stop_hook_active: anyValue,
        last_assistant_message: anyValue,
        agent_id: anyValue,
        agent_type: anyValue,
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o).replaceAll('"__REPO__"', JSON.stringify(w.repo)));
  return fc.oneof(
    shaped,
    fc.json(),
    fc.string(),
    fc.constant(''),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  );
}

describe('Codex hooks under any payload', () => {
  it('exit 0 and print nothing or valid Codex output under its cap', async () => {
    let outputs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...EVENTS), payload(), async (event, input) => {
        const r = await runHookAsync(w, event.slug, input, ['--agent', 'codex']);
        expect(r.code).toBe(0);
        if (r.stdout === '') return;
        const v = JSON.parse(r.stdout) as Record<string, unknown>;
        expect(Object.keys(v)).toEqual(['hookSpecificOutput']);
        const out = v.hookSpecificOutput as { hookEventName: unknown; additionalContext: unknown };
        expect(out.hookEventName).toBe(event.name);
        expect(typeof out.additionalContext).toBe('string');
        const bytes = Buffer.byteLength(out.additionalContext as string, 'utf8');
        expect(bytes).toBeGreaterThan(0);
        expect(Math.ceil(bytes / 4)).toBeLessThanOrEqual(2_500);
        outputs++;
      }),
      { numRuns: RUNS },
    );
    // the property saw real injections, not only empty answers
    expect(outputs).toBeGreaterThan(0);
  }, 600_000);
});
