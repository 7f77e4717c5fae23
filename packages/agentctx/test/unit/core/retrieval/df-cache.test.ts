import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecord } from '../../../../src/core/records/records.js';
import { documentFrequencies, keepingDfCache } from '../../../../src/core/retrieval/query.js';
import { openDb } from '../../../../src/database/open.js';
import { addInjectedTokens } from '../../../../src/database/sessions-repo.js';
import { extractTerms } from '../../../../src/text/terms.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * The document-frequency cache of a long-lived process (the MCP server): kept across the
 * session accounting the server writes after every tool result, dropped by anything that can
 * change a count (a record written here, a commit by another process).
 */

const lookups = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../../../src/database/term-df.js', async (original) => {
  const mod = await original<typeof import('../../../../src/database/term-df.js')>();
  return {
    ...mod,
    termDfLookup: (db: Parameters<typeof mod.termDfLookup>[0]) => {
      const look = mod.termDfLookup(db);
      return (t: Parameters<ReturnType<typeof mod.termDfLookup>>[0]) => {
        lookups.n++;
        return look(t);
      };
    },
  };
});

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
const terms = extractTerms('ledger');
const ledgerDf = () => documentFrequencies(s.db, terms).get(terms[0]!.stem);
const record = (title: string) =>
  createRecord(s.deps, {
    type: 'decision',
    title,
    body: `${title}, decided.`,
    scope: 'project',
    confidence: 'explicit',
    source: 'cli',
  });
const account = () => addInjectedTokens(s.db, 'sess-1', 'p-test', 40, '2026-11-30T12:00:00Z');

beforeEach(() => {
  t = tempDir('agentctx-dfcache-');
  s = testStore(t.path);
  record('ledger entries are immutable');
  record('the ledger service owns payments');
  lookups.n = 0;
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

describe('the document-frequency cache', () => {
  it('survives the session accounting written through keepingDfCache', () => {
    expect(ledgerDf()).toBe(2);
    expect(lookups.n).toBe(1);
    for (let i = 0; i < 5; i++) {
      keepingDfCache(s.db, account);
      expect(ledgerDf()).toBe(2);
    }
    expect(lookups.n).toBe(1);
  });

  it('is dropped by any other write of this connection, and a new record is counted', () => {
    expect(ledgerDf()).toBe(2);
    account(); // not declared harmless: the counts are read again
    expect(ledgerDf()).toBe(2);
    expect(lookups.n).toBe(2);
    record('ledger rows are never deleted');
    expect(ledgerDf()).toBe(3);
  });

  it('is dropped when another connection commits, even during a kept write', () => {
    expect(ledgerDf()).toBe(2);
    const other = openDb(join(t.path, 'agentctx.db'));
    try {
      keepingDfCache(s.db, () => {
        account();
        other
          .prepare(
            `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
             VALUES ('01OTHER', 'p-test', 'decision', 'ledger from elsewhere', 'ledger', 'project', 'explicit', '2026-01-01', '2026-01-01', 'cli')`,
          )
          .run();
      });
      expect(ledgerDf()).toBe(3);
    } finally {
      other.close();
    }
  });
});
