import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeDigest, DIGEST_MAX_TOKENS, SECTION_BUDGETS } from '../../../../src/core/digest/digest.js';
import { readDigest, writeDigest } from '../../../../src/core/digest/digest-file.js';
import { createRecord, reinforceRecord } from '../../../../src/core/records/records.js';
import { insertRecord } from '../../../../src/database/records-repo.js';
import { estimateTokens } from '../../../../src/shared/tokens.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
const now = new Date('2026-11-30T12:00:00Z');
const project = { id: 'proj-d', name: 'acme-billing' };

beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), project.id);
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

type Input = Parameters<typeof createRecord>[1];
const rec = (input: Partial<Input> & { type: Input['type']; title: string; body: string }) =>
  createRecord(s.deps, { source: 'cli', confidence: 'explicit', ...input });

function realisticProject() {
  rec({
    type: 'profile',
    title: 'profile: stack',
    body: 'TypeScript, Node 20, PostgreSQL 16',
    source: 'hook_observation',
  });
  rec({ type: 'profile', title: 'profile: test command', body: 'npm test', source: 'hook_observation' });
  rec({ type: 'profile', title: 'profile: name', body: 'acme-billing', source: 'hook_observation' });
  rec({
    type: 'decision',
    title: 'Money is stored as integer cents',
    body: 'Every amount column is a BIGINT of cents. Floats caused rounding errors in invoices.',
  });
  rec({ type: 'convention', title: 'Named exports only', body: 'No default exports anywhere in src/.' });
  rec({
    type: 'decision',
    title: 'Retry webhooks with exponential backoff',
    body: 'Seen in one session.',
    confidence: 'inferred',
    source: 'llm_extraction',
  });
  s.setNow('2026-11-28T12:00:00Z');
  rec({
    type: 'handover',
    title: 'Migrating invoices to the new tax engine',
    body: 'Blockers: the VAT fixture is wrong for Norway.\nNext steps: fix the fixture, then run the invoice suite.',
  });
  s.setNow('2026-11-30T12:00:00Z');
  createRecord(
    { ...s.deps, projectId: '_global' },
    {
      type: 'preference',
      title: 'Prefers small commits with imperative messages',
      body: 'One logical change per commit.',
      scope: 'global',
      source: 'cli',
      confidence: 'explicit',
    },
  );
}

describe('composeDigest', () => {
  it('reads like a briefing on the project, with sections in order', () => {
    realisticProject();
    const d = composeDigest(s.db, project, { now, drift: { missing: 0, contradicted: 0 } });
    expect(d.text).toContain('# Project context for acme-billing');
    expect(d.text).toContain(
      '- Name: acme-billing\n- Stack: TypeScript, Node 20, PostgreSQL 16\n- Test command: npm test',
    );
    expect(d.text).toContain(
      '- Money is stored as integer cents — Every amount column is a BIGINT of cents.',
    );
    // inferred: a hypothesis, kept out of the digest until reinforced (CONTRACTS.md §stored-derived)
    expect(d.text).not.toContain('Retry webhooks');
    expect(d.text).not.toContain('(unconfirmed)');
    expect(d.text).toContain(
      'Task (Claude Code, 2d ago): Migrating invoices to the new tax engine\nBlockers: the VAT fixture',
    );
    expect(d.text).toContain(
      '- Prefers small commits with imperative messages — One logical change per commit.',
    );
    const order = [
      '## Project',
      '## Decisions and conventions',
      '## Where the last session left off',
      '## How this developer likes to work',
    ];
    const at = order.map((h) => d.text.indexOf(h));
    expect(at.every((x) => x > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // only the inferred decision is left out, and the index hint says so; no drift hint
    expect(d.text).toContain('## More context\n8 records in the store (');
    expect(d.text).toContain('1 not shown.');
    expect(d.text).not.toContain('Note: CLAUDE.md');
    expect(d.text).toContain('Named exports only');
    expect(d.tokens).toBe(estimateTokens(d.text));
    expect(d.ids).toHaveLength(7);
  });

  it('keeps inferred global preferences out until they are reinforced', () => {
    const g = { ...s.deps, projectId: '_global' };
    const pref = createRecord(g, {
      type: 'preference',
      title: 'Likes tabs over spaces',
      body: 'Observed in edits.',
      scope: 'global',
      source: 'llm_extraction',
      confidence: 'inferred',
    });
    rec({ type: 'decision', title: 'Use Postgres', body: 'For everything.' });
    for (let i = 1; i <= 3; i++) {
      const d = composeDigest(s.db, project, { now });
      if (i < 3) expect(d.text).not.toContain('tabs over spaces');
      reinforceRecord(g, pref.id);
    }
    const after = composeDigest(s.db, project, { now });
    expect(after.text).toContain(
      '## How this developer likes to work (all projects)\n- Likes tabs over spaces',
    );
    expect(after.ids).toContain(pref.id);
  });

  it('shows the drift hint with two or more candidates and not with one', () => {
    rec({ type: 'decision', title: 'Use Postgres', body: 'For everything.' });
    expect(composeDigest(s.db, project, { now, drift: { missing: 1, contradicted: 0 } }).text).not.toContain(
      'CLAUDE.md',
    );
    expect(composeDigest(s.db, project, { now, drift: { missing: 0, contradicted: 1 } }).text).not.toContain(
      'CLAUDE.md',
    );
    const two = composeDigest(s.db, project, { now, drift: { missing: 1, contradicted: 1 } });
    expect(two.text).toContain(
      '\n\nNote: CLAUDE.md is behind the store: 1 decisions/conventions missing, 1 passage superseded. ctx_sync_claudemd proposes a diff for the developer to review.\n',
    );
    expect(estimateTokens(two.text.slice(two.text.indexOf('Note: CLAUDE.md')))).toBeLessThanOrEqual(
      SECTION_BUDGETS.drift,
    );
    // without a fresh scan, the stored drift scores count
    s.db.prepare("UPDATE records SET claudemd_drift_score = 1 WHERE type = 'decision'").run();
    expect(composeDigest(s.db, project, { now }).text).not.toContain('Note: CLAUDE.md');
    rec({ type: 'convention', title: 'Tabs', body: 'Tabs.' });
    s.db.prepare("UPDATE records SET claudemd_drift_score = 0.9 WHERE type = 'convention'").run();
    expect(composeDigest(s.db, project, { now }).text).toContain('Note: CLAUDE.md');
  });

  it('is empty for an empty store', () => {
    const d = composeDigest(s.db, project, { now });
    expect(d.text).toBe('');
    expect(d.ids).toEqual([]);
  });

  it('never exceeds 1,500 tokens with 10,000 dense records, and each section keeps to its budget', () => {
    const code = (i: number) =>
      `const x${i}={a:[0x1F,0b1010],b:"${'Zq9/+'.repeat(40)}"};fn_${i}(x${i}?.a??[]).map(($)=>$<<2|1);`
        .repeat(12)
        .slice(0, 2000);
    const types = ['decision', 'convention', 'discovery', 'bugfix', 'profile'] as const;
    const ins = s.db.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        const type = types[i % types.length]!;
        insertRecord(s.db, {
          id: `01J${String(i).padStart(23, '0')}`,
          project_id: project.id,
          type,
          title: `${type} ${i}: ${'ÄöΩ{}[]<>#'.repeat(12)}`.slice(0, 120),
          body: code(i),
          scope: 'project',
          pinned: i % 7 === 0 ? 1 : 0,
          confidence: i % 3 === 0 ? 'inferred' : 'explicit',
          reinforce_count: 0,
          valid_from: now.toISOString(),
          recorded_at: now.toISOString(),
          source: 'cli',
          session_id: null,
        });
      }
      for (let i = 0; i < 300; i++) {
        insertRecord(s.db, {
          id: `01K${String(i).padStart(23, '0')}`,
          project_id: '_global',
          type: 'preference',
          title: `pref ${i} ${'€$%^&*'.repeat(15)}`.slice(0, 120),
          body: code(i),
          scope: 'global',
          pinned: 0,
          confidence: 'reinforced',
          reinforce_count: 3,
          valid_from: now.toISOString(),
          recorded_at: now.toISOString(),
          source: 'cli',
          session_id: null,
        });
      }
      insertRecord(s.db, {
        id: '01H00000000000000000000000',
        project_id: project.id,
        type: 'handover',
        title: 'Dense handover',
        body: Array.from({ length: 40 }, (_, i) => code(i).slice(0, 49)).join('\n'),
        scope: 'project',
        pinned: 0,
        confidence: 'explicit',
        reinforce_count: 0,
        valid_from: now.toISOString(),
        recorded_at: now.toISOString(),
        source: 'cli',
        session_id: null,
      });
    });
    ins();
    const d = composeDigest(s.db, project, { now, drift: { missing: 50, contradicted: 3 } });
    expect(estimateTokens(d.text)).toBeLessThanOrEqual(DIGEST_MAX_TOKENS);
    expect(d.tokens).toBeLessThanOrEqual(DIGEST_MAX_TOKENS);
    for (const sec of d.sections) expect(sec.tokens).toBeLessThanOrEqual(SECTION_BUDGETS[sec.name]);
    // the top sections are present; anything dropped is dropped from the bottom
    const names = d.sections.map((x) => x.name);
    const order = ['profile', 'decisions', 'handover', 'preferences', 'index', 'drift'];
    expect(names).toEqual(order.slice(0, names.length));
    expect(names.slice(0, 3)).toEqual(['profile', 'decisions', 'handover']);
    // whole lines only: every line of the text is a complete rendered line
    for (const line of d.text.trimEnd().split('\n')) expect(line.endsWith('\\')).toBe(false);
    // the ids in the metadata are exactly the records whose lines are shown
    for (const id of d.ids) expect(s.db.prepare('SELECT 1 FROM records WHERE id = ?').get(id)).toBeTruthy();
    expect(d.ids).toContain('01H00000000000000000000000');
  });

  it('drops sections from the bottom when the cap is lower', () => {
    realisticProject();
    for (let i = 0; i < 30; i++)
      rec({ type: 'discovery', title: `Discovery ${i}`, body: 'Something learned.' });
    const full = composeDigest(s.db, project, { now, drift: { missing: 2, contradicted: 0 } });
    expect(full.sections.map((x) => x.name)).toEqual([
      'profile',
      'decisions',
      'handover',
      'preferences',
      'index',
      'drift',
    ]);
    expect(full.text).toContain('ctx_search(query) for an index');
    const cap = full.tokens - 30;
    const cut = composeDigest(s.db, project, { now, drift: { missing: 2, contradicted: 0 }, maxTokens: cap });
    expect(cut.tokens).toBeLessThanOrEqual(cap);
    expect(cut.text).not.toContain('Note: CLAUDE.md');
    expect(full.text.startsWith(cut.text.trimEnd())).toBe(true);
    const tiny = composeDigest(s.db, project, { now, maxTokens: 120 });
    expect(tiny.sections.map((x) => x.name)).toEqual(['profile']);
    expect(tiny.ids.every((id) => full.ids.includes(id))).toBe(true);
  });

  it('round-trips through the digest file with its ids', () => {
    realisticProject();
    const d = composeDigest(s.db, project, { now });
    const dir = join(t.path, 'digests');
    writeDigest(dir, project.id, { ...d, retire_stamp: 7 });
    const back = readDigest(dir, project.id)!;
    expect(back.retire_stamp).toBe(7);
    expect(back.text).toBe(d.text);
    expect(back.ids).toEqual(d.ids);
    expect(back.tokens).toBe(d.tokens);
  });
});
