import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { runJson } from '../../support/cli.js';
import {
  answer,
  extractArgs,
  isExtraction,
  runAsync,
  useExtractScene,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi } from '../../support/fake-messages-api.js';
import { leaks, rand, type SecretSample, secretCorpus } from '../../support/secret-corpus.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';

/**
 * The built `agentctx extract` over a transcript full of secrets: none may reach a request the
 * fake Messages API receives, nor any text in the SQLite file — whatever path extraction takes.
 */

let api: FakeApi;
let ws: Workspace;
useExtractScene((scene) => {
  ({ api, ws } = scene);
});

/** A session where every sample appears where it would in real life. */
function secretSession(id: string, corpus: readonly SecretSample[]): TranscriptBuilder {
  const b = new TranscriptBuilder(id, ws.repo);
  b.user('We are wiring the deploy pipeline; I will paste what I have.');
  for (const s of corpus) {
    if (s.where === 'user') b.user(`${s.marker} ${s.line}`);
    else if (s.where === 'assistant') b.assistant(`${s.marker} ${s.line}`);
    else if (s.where === 'bash') b.tool('Bash', { command: `echo ${s.marker}; ${s.line}` }, 'done');
    else b.tool('Bash', { command: `cat config-${s.marker}.txt` }, s.line);
  }
  // the tail a rule-based handover quotes: last requests, last test run, last assistant words
  const last = corpus.filter((s) => s.where === 'user').slice(-3);
  b.tool('Bash', { command: `DB_PASSWORD=${last[0]!.secrets[0]} npx vitest run` }, 'Tests 3 passed (3)');
  b.user(`${last[1]!.line} -- and keep going with the deploy`);
  b.assistant(`Deploy script ready; it reads ${last[2]!.line} from the vault.`);
  return b;
}

/** Every text (and blob) value of every table in the store, FTS shadow tables included. */
function storeText(): string {
  const db = new Database(join(ws.home, '.agentctx', 'agentctx.db'), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    const parts: string[] = [];
    for (const { name } of tables) {
      let rows: Record<string, unknown>[];
      try {
        rows = db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as Record<string, unknown>[];
      } catch {
        continue; // a virtual table whose module is not loaded here
      }
      for (const row of rows)
        for (const v of Object.values(row)) {
          if (typeof v === 'string') parts.push(v);
          else if (Buffer.isBuffer(v)) parts.push(v.toString('latin1'));
        }
    }
    expect(tables.length).toBeGreaterThan(5);
    return parts.join('\n');
  } finally {
    db.close();
  }
}

function allRequests(): string {
  return api.requests.map((r) => r.raw).join('\n');
}

async function extract(env: NodeJS.ProcessEnv, sessionId: string) {
  const r = await runAsync(extractArgs(ws, sessionId), { cwd: ws.repo, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe('secret redaction through agentctx extract', () => {
  it('model path: no secret in any request nor in the store, though every line was sent', async () => {
    const corpus = secretCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(50);
    secretSession('s-secrets', corpus).write(ws.transcript('s-secrets'));
    // the canned answer repeats secrets (a model copying them): the output side is redacted too
    const echoed = corpus.filter((s) => s.family === 'github' || s.family === 'connection');
    api.setScript((req) =>
      isExtraction(req)
        ? answer({
            decisions: [
              {
                what: `Deploy with ${echoed[0]!.line.replace(/\n/g, ' ')}`,
                rationale: `The developer pasted ${echoed[1]!.line}`,
                supersedes: null,
                confidence: 'explicit',
              },
            ],
            gotchas: [{ pattern: `Staging DB is ${echoed.at(-1)!.line}`, why_it_matters: 'shared' }],
            active_work: {
              current_task: 'Wire the deploy pipeline',
              blockers: [`token ${echoed[2]!.secrets[0]} expired`],
              next_steps: [],
              open_questions: [],
            },
          })
        : { content: [{ type: 'text', text: 'ok' }] },
    );
    const out = await extract(ws.env(), 's-secrets');
    expect(out.mode).toBe('llm');
    expect(out.written.created.length).toBeGreaterThanOrEqual(3);

    const sent = allRequests();
    expect(api.requests.filter(isExtraction)).toHaveLength(1);
    // every line reached the model (its marker is there) …
    const missing = corpus.filter((s) => !sent.includes(s.marker)).map((s) => s.marker);
    expect(missing).toEqual([]);
    expect(sent.split('[REDACTED:').length - 1).toBeGreaterThanOrEqual(corpus.length);
    // … and no secret did
    expect(leaks(corpus, sent)).toEqual([]);

    const stored = storeText();
    expect(stored).toContain('Wire the deploy pipeline');
    expect(stored).toContain('[REDACTED:');
    expect(leaks(corpus, stored)).toEqual([]);
  });

  it('rule-based path (no key): the handover quotes the tail without its secrets', async () => {
    const corpus = secretCorpus();
    secretSession('s-rules', corpus).write(ws.transcript('s-rules'));
    const env = ws.env();
    delete env.ANTHROPIC_API_KEY;
    env.PATH = '/usr/bin:/bin'; // no claude on PATH either: rules only
    const out = await extract(env, 's-rules');
    expect(out.mode).toBe('rules');
    expect(out.written.created).toHaveLength(1);
    expect(api.requests).toHaveLength(0);
    const stored = storeText();
    expect(stored).toContain('Last request from the developer');
    expect(stored).toContain('and keep going with the deploy');
    expect(stored).toContain('[REDACTED:');
    expect(leaks(corpus, stored)).toEqual([]);
  });

  it('user patterns from config are redacted; invalid ones are reported by config and skipped', async () => {
    const ticket = `ACME-${rand(10, '0123456789')}`;
    mkdirSync(join(ws.home, '.agentctx'), { recursive: true });
    writeFileSync(
      join(ws.home, '.agentctx', 'config.json'),
      JSON.stringify({ redact: { extraPatterns: ['ACME-[0-9]{10}', '(unclosed'] } }),
    );
    const cfg = runJson<{ redact_pattern_errors?: { pattern: string; error: string }[] }>(['config'], {
      cwd: ws.repo,
      env: ws.env(),
    });
    expect(cfg.code).toBe(0);
    expect(cfg.json.redact_pattern_errors?.map((e) => e.pattern)).toEqual(['(unclosed']);

    new TranscriptBuilder('s-custom', ws.repo)
      .user(`The internal ticket ${ticket} holds the vendor contract; decide on the vendor.`)
      .assistant('Noted.')
      .write(ws.transcript('s-custom'));
    api.setScript((req) => (isExtraction(req) ? answer({ flush_ok: true }) : { content: [] }));
    const out = await extract(ws.env(), 's-custom');
    expect(out.mode).toBe('flush');
    const sent = allRequests();
    expect(sent).toContain('The internal ticket [REDACTED:custom] holds');
    expect(sent).not.toContain(ticket);
    const log = readFileSync(join(ws.home, '.agentctx', 'logs', 'extract.log'), 'utf8');
    expect(log).toContain('redact pattern "(unclosed" skipped');
  });
});
