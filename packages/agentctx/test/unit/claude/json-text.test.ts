import { describe, expect, it } from 'vitest';
import { parseJsonTree, toValue } from '../../../src/claude/json-text.js';
import { MCP_ENTRY, planRegisterMcp, planUnregisterMcp } from '../../../src/claude/mcp-registration.js';
import { installedHooks, planInstallHooks, planRemoveHooks } from '../../../src/claude/settings.js';
import { HOOK_SPECS } from '../../../src/claude/settings-hook-entries.js';

/** A small seeded generator, so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 2 ? 4 : 7));
  if (k === 0) return Math.round(r() * 1e6) / 100;
  if (k === 1) return ['x', 'é "q"', 'a\\b', '', 'agentctx hook stop'][Math.floor(r() * 5)];
  if (k === 2) return [true, false, null][Math.floor(r() * 3)];
  if (k === 3) return `s${Math.floor(r() * 100)}`;
  if (k === 4) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 4); i > 0; i--) o[`k${Math.floor(r() * 50)}`] = randomValue(r, depth + 1);
  return o;
}

/** Serialise with one of several human layouts. */
function layout(value: unknown, r: () => number): string {
  const style = Math.floor(r() * 4);
  if (style === 0) return `${JSON.stringify(value, null, 2)}\n`;
  if (style === 1) return JSON.stringify(value, null, '\t');
  if (style === 2) return JSON.stringify(value);
  return `${JSON.stringify(value, null, 4).replace(/\n/g, '\r\n')}\r\n`;
}

describe('surgical JSON edits', () => {
  it('parses exactly what JSON.parse parses, with positions', () => {
    const text = '{ "a": [1, {"b": "c\\"d"}], "e": -1.5e3, "f": null }';
    const tree = parseJsonTree(text);
    expect(toValue(tree)).toEqual(JSON.parse(text));
    if (tree.kind !== 'object') throw new Error('object expected');
    expect(text.slice(tree.props[1]!.value.start, tree.props[1]!.value.end)).toBe('-1.5e3');
    for (const bad of ['{', '{"a":}', '[1,]', '{"a":1,}', '{"a" 1}', '01', '"\n"', '{} x', "{'a':1}"]) {
      expect(() => parseJsonTree(bad), bad).toThrow(/line \d+, column \d+/);
      expect(() => JSON.parse(bad), bad).toThrow();
    }
  });

  it('install → install → remove gives back the original bytes for 300 random settings files', () => {
    const r = rng(20261202);
    for (let n = 0; n < 300; n++) {
      const doc = randomValue(r, 0);
      const settings: Record<string, unknown> =
        doc && typeof doc === 'object' && !Array.isArray(doc) ? { ...(doc as object) } : { other: doc };
      if (r() < 0.6) {
        settings.hooks = {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit' }] }],
          ...(r() < 0.5 ? { Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] } : {}),
        };
      }
      const text = layout(settings, r);
      const a = planInstallHooks(text, 'settings.json');
      expect(a.changed).toBe(true);
      const installed = JSON.parse(a.text);
      for (const [key, value] of Object.entries(settings)) {
        if (key !== 'hooks') expect(installed[key]).toEqual(value);
      }
      expect(Object.keys(installedHooks(a.text, 'settings.json'))).toHaveLength(
        new Set(HOOK_SPECS.map((s) => s.event)).size,
      );
      const b = planInstallHooks(a.text, 'settings.json');
      expect(b.changed).toBe(false);
      expect(b.text).toBe(a.text);
      const c = planRemoveHooks(a.text, 'settings.json');
      expect(c.text, `case ${n}:\n${text}`).toBe(text);

      const m = planRegisterMcp(text, '.claude.json');
      expect(JSON.parse(m.text).mcpServers.agentctx).toEqual(MCP_ENTRY);
      expect(planRegisterMcp(m.text, '.claude.json').changed).toBe(false);
      expect(planUnregisterMcp(m.text, '.claude.json').text).toBe(text);
    }
  });

  it('keeps other MCP servers and replaces a foreign agentctx entry in place', () => {
    const text =
      '{\n  "mcpServers": {\n    "agentctx": { "command": "old-agentctx", "args": [] },\n    "gh": {}\n  }\n}\n';
    const plan = planRegisterMcp(text, '.claude.json');
    expect(plan.updated).toEqual(['mcpServers.agentctx']);
    const v = JSON.parse(plan.text);
    expect(Object.keys(v.mcpServers)).toEqual(['agentctx', 'gh']);
    expect(v.mcpServers.agentctx).toEqual(MCP_ENTRY);
    const removed = planUnregisterMcp(plan.text, '.claude.json');
    expect(JSON.parse(removed.text)).toEqual({ mcpServers: { gh: {} } });
  });

  it('does not touch hooks that merely mention agentctx', () => {
    const text = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo "run agentctx hook stop later"' }] }] },
    });
    const removed = planRemoveHooks(text, 'settings.json');
    expect(removed.changed).toBe(false);
    expect(removed.text).toBe(text);
  });
});
