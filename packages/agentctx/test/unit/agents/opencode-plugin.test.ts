import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENCODE_PLUGIN_SOURCE } from '../../../src/agents/opencode-plugin.js';

/**
 * agentctx's OpenCode plugin module as OpenCode loads it (an ES module file), with no `agentctx`
 * on PATH: every callback still resolves and changes nothing (a missing or failing agentctx
 * never breaks OpenCode). The real OpenCode runs it in test/e2e/opencode-session.test.ts.
 */

let dir: string;
let savedPath: string | undefined;
let savedHome: string | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentctx-opencode-plugin-'));
  savedPath = process.env.PATH;
  savedHome = process.env.AGENTCTX_HOME;
  process.env.PATH = dir; // nothing named agentctx here
  process.env.AGENTCTX_HOME = join(dir, 'home');
});
afterAll(() => {
  process.env.PATH = savedPath;
  process.env.AGENTCTX_HOME = savedHome;
  rmSync(dir, { recursive: true, force: true });
});

describe('the OpenCode plugin module', () => {
  it('loads, exports one plugin, and does nothing when agentctx cannot run', async () => {
    const file = join(dir, 'agentctx.js');
    writeFileSync(file, OPENCODE_PLUGIN_SOURCE);
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    expect(Object.keys(mod)).toEqual(['AgentctxPlugin']);
    const plugin = mod.AgentctxPlugin as (
      ctx: unknown,
    ) => Promise<Record<string, (...a: unknown[]) => Promise<void>>>;
    const hooks = await plugin({
      client: { session: { messages: async () => ({ data: [] }) } },
      directory: dir,
    });
    expect(Object.keys(hooks).sort()).toEqual(
      ['chat.message', 'dispose', 'event', 'experimental.chat.system.transform', 'tool.execute.after'].sort(),
    );
    const system = { system: ['base'] };
    await hooks['experimental.chat.system.transform']!({ sessionID: 's1', model: {} }, system);
    expect(system.system).toEqual(['base']);
    const parts = [{ id: 'prt_1', type: 'text', text: 'hello' }];
    await hooks['chat.message']!({ sessionID: 's1' }, { message: {}, parts });
    expect(parts).toHaveLength(1);
    await hooks['tool.execute.after']!(
      { tool: 'bash', sessionID: 's1', callID: 'c', args: {} },
      { output: 'x' },
    );
    await hooks.event!({ event: { type: 'session.idle', properties: { sessionID: 's1' } } });
    // the session's messages were still written where extraction will look for them
    expect(existsSync(join(dir, 'home', 'opencode-sessions', 's1.jsonl'))).toBe(true);
    // the end at exit: a detached SessionEnd that cannot start still returns at once
    const t0 = Date.now();
    await hooks.dispose!();
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
