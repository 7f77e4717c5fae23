import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeMentions } from '../../../../src/core/codegraph/mentions.js';
import { isSymbolName } from '../../../../src/core/codegraph/source.js';

describe('code mentions in record text', () => {
  it('takes names written as code and leaves prose alone', () => {
    const text =
      'Charge the card once: `Charge` retried because chargeCard() had no idempotency key; ' +
      'see Order.total and pay::refund_all, the OrderService and fetch_orders helpers. ' +
      'Edited checkout.ts; the order total was wrong. RefundPolicy.apply(x) too.';
    expect([...codeMentions(text)].sort()).toEqual(
      [
        'Charge',
        'Order',
        'OrderService',
        'RefundPolicy',
        'apply',
        'chargeCard',
        'fetch_orders',
        'refund_all',
        'total',
      ].sort(),
    );
  });

  it('never takes a lowercase prose word, and always a backticked name', () => {
    const word = fc.stringMatching(/^[a-z]{4,12}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        word.filter(isSymbolName),
        (words, ticked) => {
          const prose = `${words.join(' ')}.`;
          expect(codeMentions(prose).size).toBe(0);
          expect(codeMentions(`${prose} Use \`${ticked}\` here.`).has(ticked)).toBe(true);
          expect(codeMentions(`${prose} Call ${ticked}() here.`).has(ticked)).toBe(true);
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });
});
