import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { promoteRecords } from '../../../../src/core/team/promote.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';
import { exportTeam } from './helpers.js';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
function store() {
  const d = tempDir('agentctx-promote-');
  dirs.push(d);
  return testStore(d.path, 'p-promote');
}

describe('promote', () => {
  it('a promoted chain stays team context when superseded; inferred and other types only when promoted', () => {
    const s = store();
    const found = createRecord(s.deps, {
      type: 'discovery',
      title: 'Flaky checkout test',
      body: 'Needs the fake payment server.',
      source: 'cli',
      confidence: 'explicit',
    });
    const guess = createRecord(s.deps, {
      type: 'decision',
      title: 'Maybe Redis for sessions',
      body: 'Seen twice.',
      source: 'llm_extraction',
      confidence: 'inferred',
    });
    createRecord(s.deps, {
      type: 'preference',
      title: 'Short commit subjects',
      body: 'Under 60 characters.',
      source: 'cli',
      confidence: 'explicit',
    });
    const before = exportTeam(s.deps).text;
    expect(before).not.toContain('Flaky checkout test');
    expect(before).not.toContain('Maybe Redis');
    expect(before).not.toContain('Short commit subjects');
    const res = promoteRecords(s.deps, [found.id, guess.id]);
    expect(res.map((r) => r.already)).toEqual([false, false]);
    const after = exportTeam(s.deps).text;
    expect(after).toContain('### Flaky checkout test');
    expect(after).toContain('confidence=inferred');
    const next = supersedeRecord(s.deps, found.id, {
      body: 'Run npm run fake-pay first.',
      rationale: 'found the cause',
      source: 'cli',
    });
    const again = exportTeam(s.deps).text;
    expect(again).toContain('Run npm run fake-pay first.');
    // same key, same place
    expect(again.match(/agentctx:id=(\S+) type=discovery/)?.[1]).toBe(found.id);
    // promoting a superseded id promotes its chain (already team context now)
    expect(promoteRecords(s.deps, [found.id])[0]).toMatchObject({ head_id: next.new_id, already: true });
  });

  it('refuses handovers, global preferences and unknown ids', () => {
    const s = store();
    const h = createRecord(s.deps, {
      type: 'handover',
      title: 'WIP',
      body: 'Refunds half done.',
      source: 'cli',
    });
    const g = createRecord(s.deps, {
      type: 'preference',
      title: 'Tabs',
      body: 'Tabs, not spaces.',
      scope: 'global',
      source: 'cli',
    });
    expect(() => promoteRecords(s.deps, [h.id])).toThrow(/cannot be promoted/);
    expect(() => promoteRecords(s.deps, [g.id])).toThrow(/global preference/);
    expect(() => promoteRecords(s.deps, ['NOPE'])).toThrow(/no record/);
  });
});
