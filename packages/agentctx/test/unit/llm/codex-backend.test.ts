import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExtractionOutput } from '../../../src/core/extraction/schema.js';
import { RECORD_CONTEXT_TOOL } from '../../../src/core/extraction/tool-schema.js';
import { codexMcpServers, codexModel, codexSignIn } from '../../../src/llm/codex-detect.js';
import { decideBackend, selectLlm } from '../../../src/llm/select.js';
import { strictSchema, withoutNullOptionals } from '../../../src/llm/strict-schema.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir('agentctx-codex-backend-');
});
afterAll(() => t.cleanup());

/** A folder holding executables named `names` (never run: only looked up on PATH). */
function binDir(names: string[]): string {
  const dir = join(t.path, `bin-${names.join('-') || 'none'}`);
  mkdirSync(dir, { recursive: true });
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\nexit 1\n');
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
}

const on = { enabled: true, backend: 'auto' as const, model: 'claude-haiku-4-5' };

describe('the codex exec backend in the decision', () => {
  it('auto: key, then a signed-in claude, then codex that can reach a model, else rules', () => {
    const cases = fc.record({
      key: fc.boolean(),
      claude: fc.boolean(),
      claudeSigned: fc.boolean(),
      codex: fc.boolean(),
      codexAuth: fc.constantFrom('none', 'auth.json', 'OPENAI_API_KEY', 'provider'),
    });
    fc.assert(
      fc.property(cases, (c) => {
        const home = join(t.path, `h-${c.codexAuth}`);
        mkdirSync(join(home, '.codex'), { recursive: true });
        if (c.codexAuth === 'auth.json') writeFileSync(join(home, '.codex', 'auth.json'), '{}');
        if (c.codexAuth === 'provider')
          writeFileSync(join(home, '.codex', 'config.toml'), 'model = "gpt-5"\nmodel_provider = "mine"\n');
        const env = {
          HOME: home,
          CODEX_HOME: join(home, '.codex'),
          PATH: binDir([...(c.claude ? ['claude'] : []), ...(c.codex ? ['codex'] : [])]),
          ...(c.key ? { ANTHROPIC_API_KEY: 'k' } : {}),
          ...(c.claudeSigned ? { CLAUDE_CODE_OAUTH_TOKEN: 't' } : {}),
          ...(c.codexAuth === 'OPENAI_API_KEY' ? { OPENAI_API_KEY: 'sk' } : {}),
        };
        const d = decideBackend(on, env);
        const expected = c.key
          ? 'api'
          : c.claude && c.claudeSigned
            ? 'claude-cli'
            : c.codex && c.codexAuth !== 'none'
              ? 'codex-cli'
              : null;
        expect(d.active).toBe(expected);
        if (expected === 'codex-cli') expect(d.codexBin).toBe(join(env.PATH, 'codex'));
        // without codex, the reasons are the ones agentctx always gave
        if (expected === null && !c.claude)
          expect(d.reason).toBe('auto: no ANTHROPIC_API_KEY and claude is not on PATH; rule-based capture');
      }),
      { seed: 151, numRuns: 120 },
    );
  });

  it('llm.backend = codex-cli: codex when it is on PATH, else rules with the reason', () => {
    const cfg = { ...on, backend: 'codex-cli' as const };
    const without = selectLlm(cfg, { PATH: binDir([]), ANTHROPIC_API_KEY: 'k' });
    expect(without.client).toBeNull();
    expect(without.reason).toBe('codex is not on PATH');
    const home = join(t.path, 'h-cfg');
    const withCodex = selectLlm(cfg, { PATH: binDir(['codex']), HOME: home, ANTHROPIC_API_KEY: 'k' });
    expect(withCodex.client?.name).toBe('codex-cli');
    expect(withCodex.decision?.reason).toContain('no sign-in found, runs may fail');
  });

  it("reads Codex's sign-in, model and MCP servers from its home", () => {
    const home = join(t.path, 'h-read', '.codex');
    mkdirSync(home, { recursive: true });
    const env = { CODEX_HOME: home };
    expect(codexSignIn(env)).toBeNull();
    expect(codexModel(env)).toBeNull();
    writeFileSync(
      join(home, 'config.toml'),
      [
        'model = "gpt-5.1" # chosen',
        'model_provider = "openai"',
        '',
        '[mcp_servers.agentctx]',
        'command = "agentctx"',
        '[mcp_servers.agentctx.env]',
        'A = "1"',
        '[mcp_servers."odd name"]',
        '[mcp_servers_other.x]',
        '  [ mcp_servers . docs ]',
        '',
      ].join('\n'),
    );
    expect(codexSignIn(env)).toBeNull(); // OpenAI's own provider needs a login or a key
    expect(codexModel(env)).toBe('gpt-5.1');
    expect(codexModel({ ...env, AGENTCTX_CODEX_MODEL: 'o4-mini' })).toBe('o4-mini');
    expect(codexMcpServers(env)).toEqual(['agentctx', 'odd name', 'docs']);
    expect(codexSignIn({ ...env, CODEX_API_KEY: 'x' })).toBe('CODEX_API_KEY is set');
  });
});

describe("record_context in OpenAI's strict form", () => {
  const schema = RECORD_CONTEXT_TOOL.input_schema as Record<string, unknown>;
  const strict = strictSchema(schema);

  it('every object lists all its properties as required and allows no others', () => {
    const walk = (s: unknown): void => {
      if (!s || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      if (o.properties && typeof o.properties === 'object') {
        expect(o.additionalProperties).toBe(false);
        expect([...(o.required as string[])].sort()).toEqual(Object.keys(o.properties).sort());
      }
      for (const v of Object.values(o)) walk(v);
    };
    walk(strict);
    // the source schema is left as it was
    expect(schema.additionalProperties).toBeUndefined();
  });

  it('an answer with null for optional fields validates as the same answer without them', () => {
    const base = {
      decisions: [{ what: 'Use undici.', rationale: '', supersedes: null, confidence: 'explicit' }],
      preferences: [],
      conventions: [{ scope: 'project', convention: 'Tabs.', confidence: 'inferred' }],
      active_work: { current_task: 'x', blockers: [], next_steps: [], open_questions: [] },
      gotchas: [],
      flush_ok: false,
    };
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (nullReinforces, nullEnrich) => {
        const answer = {
          ...base,
          ...(nullReinforces ? { reinforces: null } : { reinforces: [{ id: 'r1', confidence: 'explicit' }] }),
          ...(nullEnrich ? { bugfix_enrichments: null } : {}),
        };
        const cleaned = withoutNullOptionals(answer, schema) as Record<string, unknown>;
        if (nullReinforces) expect('reinforces' in cleaned).toBe(false);
        expect('bugfix_enrichments' in cleaned).toBe(false);
        // a required nullable field keeps its null
        expect((cleaned.decisions as { supersedes: unknown }[])[0]!.supersedes).toBeNull();
        const parsed = parseExtractionOutput(cleaned);
        if (!parsed) throw new Error('the cleaned answer did not parse');
        expect(parsed.invalid).toEqual({});
        expect(parsed.output.decisions).toHaveLength(1);
        expect(parsed.output.conventions).toHaveLength(1);
      }),
      { seed: 152, numRuns: 20 },
    );
  });
});
