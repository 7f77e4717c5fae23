import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJournal } from '../../../src/files/session-journal.js';
import { runAgentctx } from '../../support/cli.js';
import { readIfExists } from '../../support/proc.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from '../hooks/helpers.js';

// Usage evidence end to end, through the built binary: the real hooks inject records and
// journal their ids, a session transcript in Claude Code's format uses one record and ignores
// another, and `agentctx extract` (the Stop hook's subprocess) judges them.

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

interface Counts {
  shown_count: number;
  used_count: number;
  contradicted_count: number;
}

function counts(id: string): Counts | undefined {
  const row = w
    .db()
    .prepare('SELECT shown_count, used_count, contradicted_count FROM record_usage WHERE record_id = ?')
    .get(id) as Counts | undefined;
  w.closeDb();
  return row;
}

function extract(sessionId: string, transcript: string): Record<string, any> {
  const r = runAgentctx(
    ['extract', '--session-id', sessionId, '--transcript', transcript, '--cwd', w.repo, '--json'],
    { cwd: w.repo, env: w.env },
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

/** What a session that used the retry record did: read charge.ts, add the retry loop, say so. */
function retryWork<T extends TranscriptBuilder>(t: T): T {
  return t
    .tool('Read', { file_path: `${w.repo}/src/billing/charge.ts` }, 'export async function charge(req) {}')
    .tool(
      'Edit',
      {
        file_path: `${w.repo}/src/billing/charge.ts`,
        old_string: 'return gateway.charge(req);',
        new_string:
          'for (let i = 0; i < MAX_RETRIES; i++) {\n  try { return await gateway.charge(req, { idempotencyKey }); }\n  catch { await sleep(jitter(200 * 2 ** i)); }\n}',
      },
      'The file has been updated.',
    )
    .assistant('charge() now retries up to MAX_RETRIES times with jittered backoff.');
}

describe('usage evidence from a real session', () => {
  it('counts the injected record the session used as used, and the one it ignored as not', () => {
    const retries = w.add({
      title: 'Charge retries: MAX_RETRIES = 3 with jittered backoff',
      body: 'src/billing/charge.ts retries card charges at most 3 times (MAX_RETRIES) with jittered backoff; every attempt sends an idempotency key.',
    });
    const ledger = w.add({
      title: 'Charge receipts are mailed by the ledger worker',
      body: 'The ledger worker mails a receipt after each successful card charge; the API never sends mail.',
    });
    w.closeDb();
    const sid = 'use-1';
    const hook = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, sid, 'card charge retries and charge receipts'),
    );
    expect(hook.code).toBe(0);
    expect(hook.context).toContain(retries.id);
    expect(hook.context).toContain(ledger.id);

    // the journal holds the injection's record ids (stored, not the disposable dedup file)
    const lines = parseJournal(readIfExists(w.journalPath(sid)));
    expect(lines.some((l) => l.kind === 'tokens' && l.ids?.includes(retries.id) && l.via === 'prompt')).toBe(
      true,
    );

    const transcript = `${w.home}/${sid}.jsonl`;
    new TranscriptBuilder(sid, w.repo)
      .startAt(new Date(Date.now() + 1000).toISOString())
      .user('card charge retries and charge receipts')
      .attachment(hook.context)
      .with(retryWork)
      .write(transcript);

    const out = extract(sid, transcript);
    expect(out.usage).toMatchObject({ shown: 2, used: 1, unused: 1, contradicted: 0 });
    expect(counts(retries.id)).toEqual({ shown_count: 1, used_count: 1, contradicted_count: 0 });
    expect(counts(ledger.id)).toEqual({ shown_count: 1, used_count: 0, contradicted_count: 0 });

    // a second Stop over the same transcript counts nothing twice
    extract(sid, transcript);
    expect(counts(retries.id)).toEqual({ shown_count: 1, used_count: 1, contradicted_count: 0 });
    expect(counts(ledger.id)).toEqual({ shown_count: 1, used_count: 0, contradicted_count: 0 });

    // show: the record's stored counts
    const shown = runAgentctx(['show', retries.id, '--json'], { cwd: w.repo, env: w.env });
    expect((JSON.parse(shown.stdout) as Record<string, any>).usage).toMatchObject({
      shown_count: 1,
      used_count: 1,
    });

    // status: the session's token tax next to the share of it that went to a used record
    const st = runAgentctx(['status', '--json'], { cwd: w.repo, env: w.env });
    expect(st.code, st.stderr).toBe(0);
    const usage = (JSON.parse(st.stdout) as Record<string, any>).usage;
    const injected = lines.reduce((n, l) => n + (l.kind === 'tokens' ? l.tokens : 0), 0);
    expect(usage.last_session).toMatchObject({
      tokens_injected: injected,
      used_share: 0.5,
      tokens_not_judged: 0,
    });
    expect(usage.last_7_days.used_share).toBe(0.5);
    expect(usage.records).toEqual({ shown: 2, used: 1, never_used: 0 });
    const text = runAgentctx(['status', '--verbose'], { cwd: w.repo, env: w.env }).stdout;
    expect(text).toContain(
      `last session ${injected} tokens injected, 50% of them went to records the session used`,
    );
  });

  it('counts ctx_search results as shown and a ctx_get as used; a digest record the session never touched is not used', () => {
    const flags = w.add({
      title: 'Feature flags live in LaunchDarkly',
      body: 'Flags are read through getFlag() in src/flags.ts; no environment-variable flags.',
    });
    const pg = w.add({
      type: 'discovery',
      title: 'Integration tests need the db-test container',
      body: 'Run `docker compose up -d db-test` before `npm run test:int`; it listens on port 5433.',
    });
    w.closeDb();
    const sid = 'use-2';
    // the digest is composed by consolidation; SessionStart then shows it
    expect(runAgentctx(['consolidate', '--cwd', w.repo], { cwd: w.repo, env: w.env }).code).toBe(0);
    const start = runHook(w, 'session-start', basePayload(w, sid, 'SessionStart', { source: 'startup' }));
    expect(start.code).toBe(0);
    expect(start.context).toContain('Feature flags live in LaunchDarkly');

    const transcript = `${w.home}/${sid}.jsonl`;
    new TranscriptBuilder(sid, w.repo)
      .startAt(new Date(Date.now() + 1000).toISOString())
      .user('how do I run the integration tests?')
      .tool(
        'mcp__agentctx__ctx_search',
        { query: 'integration tests' },
        JSON.stringify({
          results: [
            { id: pg.id, type: 'discovery', title: pg.title, age: '1d', confidence: 'explicit', score: 1 },
          ],
        }),
      )
      .tool(
        'mcp__agentctx__ctx_get',
        { ids: [pg.id] },
        JSON.stringify({ records: [{ id: pg.id, body: pg.body }], missing: [] }),
      )
      .assistant('Start the container first, then run the integration suite.')
      .write(transcript);

    const out = extract(sid, transcript);
    expect(out.usage.used).toBeGreaterThanOrEqual(1);
    expect(counts(pg.id)).toEqual({ shown_count: 1, used_count: 1, contradicted_count: 0 });
    expect(counts(flags.id)).toEqual({ shown_count: 1, used_count: 0, contradicted_count: 0 });
  });

  it('judges what a subagent was given on what the subagent did: the record it used is used, the one it ignored is not', () => {
    const retries = w.add({
      title: 'Charge retries: MAX_RETRIES = 3 with jittered backoff',
      body: 'src/billing/charge.ts retries card charges at most 3 times (MAX_RETRIES) with jittered backoff; every attempt sends an idempotency key.',
    });
    const ledger = w.add({
      title: 'Charge receipts are mailed by the ledger worker',
      body: 'The ledger worker mails a receipt after each successful card charge; the API never sends mail.',
    });
    w.closeDb();
    const sid = 'use-sub';
    const agentId = 'a5f0c2e9';
    const task = 'Look into card charge retries and charge receipts in the billing code';
    // the parent transcript as SubagentStart finds it: the Agent call waiting for its result
    const transcript = join(w.home, `${sid}.jsonl`);
    const parent = new TranscriptBuilder(sid, w.repo).user('Please delegate the billing work.');
    const [call] = parent.agentCalls([{ description: 'Billing retries', prompt: task }]);
    parent.write(transcript);
    const hook = runHook(
      w,
      'subagent-start',
      basePayload(w, sid, 'SubagentStart', {
        transcript_path: transcript,
        agent_id: agentId,
        agent_type: 'general-purpose',
      }),
    );
    expect(hook.code).toBe(0);
    expect(hook.context).toContain(retries.id);
    expect(hook.context).toContain(ledger.id);
    const lines = parseJournal(readIfExists(w.journalPath(sid)));
    expect(
      lines.some(
        (l) =>
          l.kind === 'tokens' &&
          l.via === 'subagent' &&
          l.ids?.includes(retries.id) &&
          l.ids.includes(ledger.id) &&
          l.tokens > 0,
      ),
    ).toBe(true);

    // the rest of the session: the subagent's report comes back, the parent says nothing of it
    const later = new Date(Date.now() + 1000).toISOString();
    parent.startAt(later).agentDone(call!, agentId, 'Done.').assistant('The subagent has finished.');
    parent.write(transcript);

    // before the subagent's own transcript is on disk, nothing shows either record was used
    const early = extract(sid, transcript);
    expect(early.usage).toMatchObject({ shown: 2, used: 0, unused: 2 });

    // the subagent's transcript (Claude Code writes it beside the parent's): it edits the retry
    // loop the first record describes and never touches receipts
    const subDir = join(w.home, sid, 'subagents');
    mkdirSync(subDir, { recursive: true });
    new TranscriptBuilder(sid, w.repo)
      .asSubagent(agentId)
      .startAt(later)
      .user(task)
      .with(retryWork)
      .write(join(subDir, `agent-${agentId}.jsonl`));

    const out = extract(sid, transcript);
    expect(out.usage).toMatchObject({ shown: 2, used: 1, unused: 1, contradicted: 0 });
    expect(counts(retries.id)).toEqual({ shown_count: 1, used_count: 1, contradicted_count: 0 });
    expect(counts(ledger.id)).toEqual({ shown_count: 1, used_count: 0, contradicted_count: 0 });
    const vias = w.db().prepare('SELECT DISTINCT via FROM session_shown WHERE session_id = ?').all(sid) as {
      via: string;
    }[];
    w.closeDb();
    expect(vias).toEqual([{ via: 'subagent' }]);
  });
});
