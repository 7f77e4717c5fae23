import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anySecret, survivingPieces } from '../../support/secret-arbitraries.js';
import { rand } from '../../support/secret-corpus.js';
import { type HookWorld, hookWorld, promptPayload, runHook } from '../hooks/helpers.js';
import { type McpSession, startMcp } from './client.js';

/**
 * Issue 24 #5 over a real MCP client: what the agent writes through ctx_record / ctx_supersede
 * (often a secret it just saw in tool output) passes the redaction gate. The tool result says
 * what was redacted; ctx_get, ctx_search and the prompt injection never give a secret back.
 */

let w: HookWorld;
let mcp: McpSession;

beforeAll(async () => {
  w = hookWorld('git@github.com:acme/vault.git', 'vault');
  mcp = await startMcp(w.repo, { ...w.env, CLAUDE_CODE_SESSION_ID: 'sess-redact' });
});
afterAll(async () => {
  await mcp?.close();
  w?.cleanup();
});

async function get(ids: string[]): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const res = await mcp.call('ctx_get', { ids: ids.slice(i, i + 10) });
    expect(res.isError, res.text).toBe(false);
    parts.push(res.text);
  }
  return parts.join('\n');
}

describe('ctx_record and ctx_supersede pass the redaction gate', () => {
  it('reports kinds and counts, never the values, and ctx_get returns placeholders', async () => {
    const key = `sk-ant-api03-${rand(80)}`;
    const stripe = `sk_live_${rand(40)}`;
    const res = await mcp.call('ctx_record', {
      type: 'discovery',
      title: `Billing keys zqbill ${stripe}`,
      body: `The billing worker reads ANTHROPIC_API_KEY=${key} and the token: MY_SERVICE_KEY: 53528877665544332211.`,
    });
    expect(res.isError, res.text).toBe(false);
    expect(res.json.redacted).toMatchObject({
      count: 3,
      kinds: { 'stripe-key': 1, 'anthropic-key': 1, secret: 1 },
      fields: ['title', 'body'],
    });
    expect(String((res.json.redacted as { note: string }).note)).toMatch(/^redacted 3 secrets \(/);
    expect(res.text).not.toContain(key.slice(0, 20));
    expect(res.text).not.toContain(stripe.slice(0, 16));

    const out = [
      await get([res.json.id as string]),
      (await mcp.call('ctx_search', { query: 'billing zqbill' })).text,
    ];
    expect(out[0]).toContain('[REDACTED:anthropic-key]');
    for (const text of out) {
      expect(text).not.toContain(key.slice(13, 30));
      expect(text).not.toContain(stripe.slice(8, 24));
      expect(text).not.toContain('53528877665544332211');
    }

    const pw = rand(20);
    const sup = await mcp.call('ctx_supersede', {
      old_id: res.json.id,
      new_body: `Keys moved to the vault; vault login uses VAULT_TOKEN=${pw}.`,
      rationale: 'rotated',
    });
    expect(sup.isError, sup.text).toBe(false);
    expect(sup.json.redacted).toMatchObject({ count: 1, kinds: { secret: 1 } });
    expect(await get([sup.json.new_id as string])).not.toContain(pw);
  });

  it('lets no generated secret of any family back out of ctx_get, ctx_search or the prompt injection', async () => {
    const samples = fc
      .sample(anySecret, { numRuns: 80, seed: 24052 })
      .filter((s) => s.text.trim() && [...s.text].length <= 2000);
    const ids: string[] = [];
    for (const [i, s] of samples.entries()) {
      const res = await mcp.call('ctx_record', {
        type: 'discovery',
        title: `zqvault generated sample ${i}`,
        body: s.text,
      });
      expect(res.isError, res.text).toBe(false);
      expect(res.json.redacted, s.text).toBeDefined();
      ids.push(res.json.id as string);
    }
    const search = await mcp.call('ctx_search', { query: 'zqvault generated sample', limit: 15 });
    // the prompt hook injects what matches a prompt into the model's context on every turn
    const injected = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'sess-inject', 'zqvault generated sample deploy token key'),
    );
    expect(injected.context).toContain('zqvault generated sample');
    const out = [await get(ids), search.text, injected.stdout].join('\n');
    for (const s of samples) for (const v of s.secrets) expect(survivingPieces(v, out), s.text).toEqual([]);
  });
});
