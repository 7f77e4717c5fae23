import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COPILOT_HOOKS, CURSOR_HOOKS } from '../../../src/agents/cursor-copilot.js';
import { planFlatInstall, planFlatRemove } from '../../../src/agents/flat-hooks.js';
import { GEMINI, OPENCODE, QWEN } from '../../../src/agents/json-agents.js';
import { planJsonSettingsInstall, planJsonSettingsRemove } from '../../../src/agents/json-settings.js';
import { claudeHooks, file, flatHooks } from '../../support/settings-arbitraries.js';

/**
 * init then uninstall, as pure text plans, over generated settings files: whatever the user's
 * file holds (other hooks, other servers, an agentctx server of their own, empty containers)
 * and however it is laid out (indent, tabs, one line, CRLF, a final newline or not), the
 * install holds our entries, a second install changes nothing, and the removal gives back the
 * original bytes.
 */

describe('JSON settings agents (Qwen Code, Gemini CLI, OpenCode): install then remove', () => {
  for (const agent of [QWEN, GEMINI, OPENCODE]) {
    it(`${agent.label}: byte for byte, idempotent, our entries present`, () => {
      const serversKey = agent.serversKey ?? 'mcpServers';
      fc.assert(
        fc.property(file(claudeHooks, serversKey), (before) => {
          const path = '/x/settings.json';
          const plan = planJsonSettingsInstall(before, path, agent.specs, agent.mcpEntry, serversKey);
          const v = JSON.parse(plan.text) as Record<string, Record<string, unknown>>;
          expect(v[serversKey]?.agentctx).toEqual(agent.mcpEntry);
          for (const spec of agent.specs)
            expect(JSON.stringify(v.hooks?.[spec.event])).toContain(`--agent ${agent.id}`);
          const again = planJsonSettingsInstall(plan.text, path, agent.specs, agent.mcpEntry, serversKey);
          expect(again.changed).toBe(false);
          const removed = planJsonSettingsRemove(plan.text, path, plan.restore, serversKey).text;
          if (before === null || before.trim() === '') expect(removed.trim()).toBe('{}');
          else expect(removed).toBe(before);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('flat hook files (Cursor hooks.json, Copilot CLI hooks): install then remove', () => {
  for (const [label, specs, field] of [
    ['Cursor', CURSOR_HOOKS, 'command'],
    ['Copilot CLI', COPILOT_HOOKS, 'bash'],
  ] as const) {
    it(`${label}: byte for byte, idempotent, our entries present`, () => {
      fc.assert(
        fc.property(
          file(flatHooks, 'mcpServers').filter((t) => t === null || t.trim() === '' || !/"version"/.test(t)),
          fc.boolean(),
          (raw, withVersion) => {
            // a file that already says its version keeps it
            const before =
              raw && withVersion && raw.trim() !== '{}' && raw.trim() !== ''
                ? raw.replace('{', '{"version": 1,')
                : raw;
            const path = '/x/hooks.json';
            const plan = planFlatInstall(before, path, specs, field);
            const v = JSON.parse(plan.text) as {
              version: number;
              hooks: Record<string, Record<string, string>[]>;
            };
            expect(v.version).toBe(1);
            for (const s of specs) expect(v.hooks[s.event]).toContainEqual(s.entry);
            expect(planFlatInstall(plan.text, path, specs, field).changed).toBe(false);
            const removed = planFlatRemove(plan.text, path, plan.restore, field).text;
            if (before === null || before.trim() === '') expect(removed.trim()).toBe('{}');
            else expect(removed).toBe(before);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
