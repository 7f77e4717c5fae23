import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subagentStateKey } from '../../../src/hooks/handlers/subagent-start.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

/**
 * The SubagentStart hook, run as Claude Code runs it: the built binary, a payload on stdin
 * shaped like claude 2.1.332's (session, transcript, cwd, agent_id, agent_type; no task), and
 * the parent's transcript holding the Agent call the task is read from.
 */

const MIGRATIONS = 'Search the code for how database migration files are named and list them';
const PAYMENTS = 'Review the payment code: where are ledger balances written?';

let w: HookWorld;
let migrationId: string;
let ledgerId: string;
beforeAll(() => {
  w = hookWorld();
  migrationId = w.add({
    type: 'convention',
    title: 'Database migration files carry a UTC timestamp prefix',
    body: 'Name each database migration file <UTC timestamp>_<slug>.sql; never renumber migrations.',
  }).id;
  ledgerId = w.add({
    title: 'Payments go through the ledger service',
    body: 'All payment writes call the ledger service; ledger balances are never written directly.',
  }).id;
  w.closeDb();
});
afterAll(() => w.cleanup());

function transcript(name: string, build: (t: TranscriptBuilder) => void): string {
  const t = new TranscriptBuilder(name, w.repo).user('Please delegate this');
  build(t);
  const path = join(w.home, `${name}.jsonl`);
  t.write(path);
  return path;
}

function subagentPayload(sessionId: string, transcriptPath: string, agentId: string) {
  return basePayload(w, sessionId, 'SubagentStart', {
    transcript_path: transcriptPath,
    agent_id: agentId,
    agent_type: 'general-purpose',
  });
}

describe('SubagentStart', () => {
  it('injects what bears on a foreground subagent’s task, read from the parent transcript', () => {
    const path = transcript('s-fg', (t) => {
      t.agentCalls([{ description: 'Find migration naming', prompt: MIGRATIONS }]);
    });
    const r = runHook(w, 'subagent-start', subagentPayload('s-fg', path, 'a1'));
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput?.hookEventName).toBe('SubagentStart');
    expect(r.context).toContain(migrationId);
    expect(r.context).toContain('bear on this task');
    expect(r.context).not.toContain(ledgerId);
    // the subagent's ids go to its own dedup file, never the parent's
    expect(existsSync(w.statePath('s-fg'))).toBe(false);
    const own = JSON.parse(readFileSync(w.statePath(subagentStateKey('s-fg', 'a1')), 'utf8'));
    expect(own.injected).toEqual([migrationId]);
    // its tokens are counted for the session
    expect(readFileSync(w.journalPath('s-fg'), 'utf8')).toMatch(/"s":"s-fg".*"t":[1-9]/);
  });

  it('picks its own task among background siblings by the agent id the launch result names', () => {
    const path = transcript('s-bg', (t) => {
      const [a, b] = t.agentCalls([{ prompt: MIGRATIONS }, { prompt: PAYMENTS }]);
      t.agentLaunched(a!, 'agent-mig', { prompt: MIGRATIONS });
      t.agentLaunched(b!, 'agent-pay', { prompt: PAYMENTS });
    });
    const mig = runHook(w, 'subagent-start', subagentPayload('s-bg', path, 'agent-mig'));
    const pay = runHook(w, 'subagent-start', subagentPayload('s-bg', path, 'agent-pay'));
    expect(mig.context).toContain(migrationId);
    expect(mig.context).not.toContain(ledgerId);
    expect(pay.context).toContain(ledgerId);
    expect(pay.context).not.toContain(migrationId);
  });

  it('uses the payload’s prompt when there is one', () => {
    const r = runHook(w, 'subagent-start', {
      ...subagentPayload('s-prompt', join(w.home, 'none.jsonl'), 'a2'),
      prompt: PAYMENTS,
    });
    expect(r.context).toContain(ledgerId);
  });

  it('does not inject a record twice into one subagent', () => {
    const path = transcript('s-twice', (t) => {
      t.agentCalls([{ prompt: MIGRATIONS }]);
    });
    expect(runHook(w, 'subagent-start', subagentPayload('s-twice', path, 'a3')).context).toContain(
      migrationId,
    );
    const again = runHook(w, 'subagent-start', subagentPayload('s-twice', path, 'a3'));
    expect(again.code).toBe(0);
    expect(again.context).not.toContain(migrationId);
    // another subagent of the same session has its own context: it gets the record
    expect(runHook(w, 'subagent-start', subagentPayload('s-twice', path, 'a4')).context).toContain(
      migrationId,
    );
  });

  it('gives a subagent what the parent was shown, unless the parent quoted it into the task', () => {
    // the parent session was shown the migration convention at its prompt
    const shown = runHook(w, 'user-prompt-submit', promptPayload(w, 's-parent', MIGRATIONS));
    expect(shown.context).toContain(migrationId);
    const plain = transcript('s-parent', (t) => {
      t.agentCalls([{ prompt: MIGRATIONS }]);
    });
    // the subagent's requests carry none of the parent's injections: it needs the record
    expect(runHook(w, 'subagent-start', subagentPayload('s-parent', plain, 'b1')).context).toContain(
      migrationId,
    );
    const quoted = join(w.home, 's-parent-quoted.jsonl');
    const t = new TranscriptBuilder('s-parent', w.repo).user('delegate');
    t.agentCalls([
      { prompt: `${MIGRATIONS}. Remember: Database migration files carry a UTC timestamp prefix.` },
    ]);
    t.write(quoted);
    const r = runHook(w, 'subagent-start', subagentPayload('s-parent', quoted, 'b2'));
    expect(r.code).toBe(0);
    expect(r.context).not.toContain(migrationId);
  });

  it('stays silent without a task, a transcript or a store, and on garbage', () => {
    const none = runHook(w, 'subagent-start', subagentPayload('s-none', join(w.home, 'missing.jsonl'), 'c1'));
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    const bare = transcript('s-bare', (t) => {
      t.assistant('No delegation here');
    });
    expect(runHook(w, 'subagent-start', subagentPayload('s-bare', bare, 'c2')).stdout).toBe('');
    for (const junk of ['', 'not json', '[1,2]', '{"agent_id": 7, "transcript_path": {}}']) {
      const r = runHook(w, 'subagent-start', junk);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    const empty = hookWorld('git@github.com:acme/empty.git', 'empty');
    try {
      const path = join(empty.home, 't.jsonl');
      const t = new TranscriptBuilder('s', empty.repo).user('x');
      t.agentCalls([{ prompt: MIGRATIONS }]);
      t.write(path);
      const r = runHook(empty, 'subagent-start', {
        ...basePayload(empty, 's', 'SubagentStart'),
        transcript_path: path,
        agent_id: 'z',
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(existsSync(empty.dbPath)).toBe(false);
    } finally {
      empty.cleanup();
    }
  });
});

describe('SubagentStart budgets', () => {
  let big: HookWorld;
  beforeAll(() => {
    big = hookWorld('git@github.com:acme/budget.git', 'budget');
  });
  afterAll(() => big.cleanup());

  it('keeps every injection within the prompt budgets, far below the 10,000-character ceiling', () => {
    const word = fc.constantFrom('a', 'to', 'of', 'db', 'io', 'x', 'migration', 'file', 'é', '数据');
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 200, maxLength: 4000 }), { minLength: 1, maxLength: 4 }),
        (bodies) => {
          n += 1;
          for (const words of bodies)
            big.add({ type: 'convention', title: `migration file rule ${n}`, body: words.join(' ') });
          big.closeDb();
          const path = join(big.home, `t${n}.jsonl`);
          const t = new TranscriptBuilder(`b${n}`, big.repo).user('x');
          t.agentCalls([{ prompt: 'migration file rule: how is a migration file named?' }]);
          t.write(path);
          const r = runHook(big, 'subagent-start', {
            ...basePayload(big, `b${n}`, 'SubagentStart'),
            transcript_path: path,
            agent_id: `g${n}`,
          });
          expect(r.code).toBe(0);
          expect(r.context.length).toBeGreaterThan(0);
          expect(r.context.length).toBeLessThanOrEqual(8000);
          expect(estimateTokens(r.context)).toBeLessThanOrEqual(2000);
        },
      ),
      { seed: 1717, numRuns: 12 },
    );
  }, 60_000);
});
