import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportMarkdown } from '../../../../src/core/records/export.js';
import { createRecord, type RecordsDeps, supersedeRecord } from '../../../../src/core/records/records.js';
import type { RedactionReport } from '../../../../src/core/redaction/gate.js';
import { redactorFor } from '../../../../src/core/redaction/redact.js';
import { anySecret, survivingPieces } from '../../../support/secret-arbitraries.js';
import { rand } from '../../../support/secret-corpus.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Issue 24 #5: explicit writes stored secrets verbatim. Every record text passes one gate in
 * core/records/records.ts: whatever the caller, no secret reaches the store (nor FTS), and the
 * caller is told what was redacted (kinds and counts, never the values).
 */

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'project-a');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const base = { source: 'cli' as const, confidence: 'explicit' as const };

/** Every text the store holds for records, the FTS index's own copy included. */
function storedText(): string {
  const rows = s.db.prepare('SELECT title, body FROM records').all() as { title: string; body: string }[];
  const fts = s.db.prepare('SELECT title, body FROM records_fts').all() as { title: string; body: string }[];
  return [...rows, ...fts].map((r) => `${r.title}\n${r.body}`).join('\n');
}

function withReports(deps: RecordsDeps): { deps: RecordsDeps; reports: RedactionReport[] } {
  const reports: RedactionReport[] = [];
  return { deps: { ...deps, onRedacted: (r) => reports.push(r) }, reports };
}

describe('the write gate', () => {
  it('redacts title and body of a new record and reports kinds and counts', () => {
    const gh = `ghp_${rand(36)}`;
    const aws = `AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
    const { deps, reports } = withReports(s.deps);
    const rec = createRecord(deps, {
      ...base,
      type: 'decision',
      title: `Deploy token ${gh}`,
      body: `Use AWS_ACCESS_KEY_ID=${aws} and the token: MY_SERVICE_KEY: 53528877665544332211 for deploys.`,
    });
    expect(rec.title).toBe('Deploy token [REDACTED:github-token]');
    expect(rec.body).not.toContain(aws);
    expect(rec.body).not.toContain('53528877665544332211');
    const text = storedText();
    for (const v of [gh, aws, '53528877665544332211']) expect(text).not.toContain(v);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toEqual({
      count: 3,
      kinds: { 'github-token': 1, 'aws-access-key-id': 1, secret: 1 },
      fields: ['title', 'body'],
    });
    expect(JSON.stringify(reports)).not.toContain(gh.slice(4, 16));
  });

  it('says nothing when there was nothing to redact', () => {
    const { deps, reports } = withReports(s.deps);
    createRecord(deps, {
      ...base,
      type: 'decision',
      title: 'HTTP client',
      body: 'Use undici; see commit 3f9a2b1.',
    });
    expect(reports).toEqual([]);
  });

  it('redacts a superseding body, its rationale and a new title', () => {
    const old = createRecord(s.deps, {
      ...base,
      type: 'convention',
      title: 'Secrets',
      body: 'Kept in the vault.',
    });
    const pw = rand(20);
    const { deps, reports } = withReports(s.deps);
    const res = supersedeRecord(deps, old.id, {
      body: `Now in .env: DB_PASSWORD=${pw}`,
      rationale: `rotated after sk-ant-api03-${rand(40)} leaked`,
      title: `Secrets (xoxb-123456789012-${rand(24)})`,
      source: 'cli',
    });
    expect(storedText()).not.toContain(pw);
    expect(res.record.body).toContain('DB_PASSWORD=[REDACTED:secret]');
    expect(res.record.body).toContain('[REDACTED:anthropic-key]');
    expect(res.record.title).toBe('Secrets ([REDACTED:slack-token])');
    expect(reports[0]?.count).toBe(3);
  });

  it("applies the caller's redactor (the user's extra patterns)", () => {
    const { redact } = redactorFor(['ACME-[0-9]{6}']);
    const rec = createRecord(
      { ...s.deps, redact },
      { ...base, type: 'discovery', title: 'Ticket', body: 'Internal id ACME-123456 and PASSWORD=x9y8z7w6' },
    );
    expect(rec.body).toBe('Internal id [REDACTED:custom] and PASSWORD=[REDACTED:secret]');
  });

  it('lets no generated secret of any family into the store', () => {
    const samples = fc.sample(anySecret, { numRuns: 150, seed: 2405 });
    for (const [i, sample] of samples.entries()) {
      createRecord(s.deps, {
        ...base,
        type: 'discovery',
        title: `sample ${i}`,
        body: sample.text.slice(0, 2000) || 'x',
      });
    }
    const text = storedText();
    for (const sample of samples) {
      if (sample.text.length > 2000) continue;
      for (const v of sample.secrets) expect(survivingPieces(v, text), sample.text).toEqual([]);
    }
  });
});

describe('exports are redacted too', () => {
  it('redacts a record stored before the gate existed', () => {
    const gh = `ghp_${rand(36)}`;
    s.db
      .prepare(
        `INSERT INTO records (id, project_id, type, title, body, scope, pinned, confidence, reinforce_count,
           valid_from, recorded_at, source, session_id)
         VALUES ('01OLDRECORD0000000000000000', 'project-a', 'decision', 'Old', ?, 'project', 0, 'explicit', 0,
           '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'cli', NULL)`,
      )
      .run(`token ${gh}`);
    const { markdown, redacted } = exportMarkdown(
      s.db,
      { id: 'project-a', name: 'a' },
      s.clock(),
      false,
      s.deps.redact,
    );
    expect(markdown).not.toContain(gh);
    expect(markdown).toContain('[REDACTED:github-token]');
    expect(redacted?.count).toBe(1);
  });
});
