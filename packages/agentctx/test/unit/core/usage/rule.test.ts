import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUsageEvents } from '../../../../src/claude/transcript-usage.js';
import { codeTokens, judgeRecord } from '../../../../src/core/usage/rule.js';
import { TranscriptBuilder } from '../../../support/transcript-fixture.js';

// Invariants of the used rule over generated sessions: echoing the developer's words or working
// on something else is never use; naming the record's id, or fetching it, always is.
const RECORD_WORDS = [
  'ledger',
  'refund',
  'worker',
  'queue',
  'backoff',
  'receipt',
  'webhook',
  'stripe',
  'idempotency',
  'invoice',
];
const OTHER_WORDS = [
  'banner',
  'carousel',
  'theme',
  'palette',
  'font',
  'spacing',
  'modal',
  'tooltip',
  'avatar',
  'sidebar',
];
const ID = '01JTESTRECORD0000000000001';

const words = (pool: string[]) => fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 6 });

function session(prompt: string, said: string[], edit?: string): TranscriptBuilder {
  const b = new TranscriptBuilder('gen', '/home/dev/app').user(prompt).attachment(`agentctx: ${ID}`);
  for (const s of said) b.assistant(s);
  if (edit) b.tool('Edit', { file_path: '/home/dev/app/src/ui.ts', old_string: 'x', new_string: edit }, 'ok');
  return b;
}

function judge(b: TranscriptBuilder, recordWords: string[]) {
  const shownAt = String(b.lines[1]?.timestamp);
  const r = { id: ID, title: recordWords.slice(0, 2).join(' '), body: recordWords.join(' ') };
  return judgeRecord(r, shownAt, parseUsageEvents(b.text()));
}

describe('the used rule', () => {
  it('never counts echoing the prompt, or other work, as use', () => {
    fc.assert(
      fc.property(words(RECORD_WORDS), words(RECORD_WORDS), words(OTHER_WORDS), (rec, prompt, other) => {
        // the assistant repeats the developer's words and talks about something else
        const b = session(prompt.join(' '), [`${prompt.join(' ')} ${other.join(' ')}`], other.join(' '));
        expect(judge(b, rec).verdict).toBe('unused');
      }),
      { seed: 77, numRuns: 200 },
    );
  });

  it('counts its id in what the assistant wrote, or a ctx_get of it, as use', () => {
    fc.assert(
      fc.property(words(RECORD_WORDS), words(OTHER_WORDS), fc.boolean(), (rec, other, viaGet) => {
        const b = new TranscriptBuilder('gen', '/home/dev/app')
          .user(other.join(' '))
          .attachment(`agentctx: ${ID}`);
        if (viaGet)
          b.tool('mcp__agentctx__ctx_get', { ids: [ID] }, JSON.stringify({ records: [{ id: ID }] }));
        else b.assistant(`Following ${ID}: ${other.join(' ')}`);
        expect(judge(b, rec)).toMatchObject({ verdict: 'used', evidence: viaGet ? 'ctx_get' : 'id' });
      }),
      { seed: 78, numRuns: 100 },
    );
  });

  it('does not count what the assistant wrote before the record was shown', () => {
    const b = new TranscriptBuilder('gen', '/home/dev/app')
      .user('what next?')
      .assistant('Refund worker backoff and ledger receipts are done.')
      .user('ok')
      .attachment(`agentctx: ${ID}`)
      .assistant('Styled the banner.');
    const shownAt = String(b.lines[b.lines.length - 2]?.timestamp);
    const r = {
      id: ID,
      title: 'Refund worker backoff',
      body: 'The ledger worker retries refunds with backoff and mails receipts.',
    };
    expect(judgeRecord(r, shownAt, parseUsageEvents(b.text())).verdict).toBe('unused');
  });

  it('takes paths, flags and identifiers as code tokens', () => {
    expect(
      codeTokens(
        'run `pnpm install --frozen-lockfile` and see src/billing/charge.ts; MAX_RETRIES is 3; getFlag()',
      ),
    ).toEqual(['frozen-lockfile', 'src/billing/charge.ts', 'max_retries', 'getflag']);
  });
});
