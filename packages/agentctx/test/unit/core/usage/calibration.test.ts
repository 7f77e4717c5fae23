import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/tmp.js';
import { type Calibration, calibrate } from '../../../support/usage-calibration.js';

// The "used" rule on the labelled set (test/support/usage-labelled.ts): prints its precision
// and recall (the figures reported in BENCHMARKS.md) and holds them to a floor.
let tmp: ReturnType<typeof tempDir>;
let cal: Calibration;
beforeAll(() => {
  tmp = tempDir('agentctx-usage-cal-');
  cal = calibrate(tmp.path);
});
afterAll(() => {
  cal.db.close();
  tmp.cleanup();
});

describe('the used rule on the labelled transcripts', () => {
  it('judges every labelled pair, with precision and recall of at least 0.8', () => {
    const wrong = cal.pairs.filter((p) => (p.label === 'used') !== (p.verdict === 'used'));
    const lines = [
      `usage rule: ${cal.pairs.length} labelled (record, session) pairs, ${cal.pairs.filter((p) => p.label === 'used').length} used`,
      `precision ${cal.precision.toFixed(3)}  recall ${cal.recall.toFixed(3)}  contradictions found ${cal.contradictedFound}/${cal.contradictedLabelled}`,
      ...wrong.map(
        (p) => `  miss: ${p.session}/${p.record} labelled ${p.label}, judged ${p.verdict} (${p.evidence})`,
      ),
    ];
    console.log(lines.join('\n'));
    expect(cal.pairs.length).toBeGreaterThanOrEqual(30);
    expect(cal.pairs.every((p) => p.verdict !== null)).toBe(true);
    expect(cal.precision).toBeGreaterThanOrEqual(0.8);
    expect(cal.recall).toBeGreaterThanOrEqual(0.8);
    expect(cal.contradictedFound).toBe(cal.contradictedLabelled);
  });

  it('counts shown and used per record consistently with the verdicts', () => {
    const rows = cal.db
      .prepare(
        `SELECT u.record_id, u.shown_count, u.used_count, u.contradicted_count,
           (SELECT COUNT(*) FROM session_shown s WHERE s.record_id = u.record_id) AS n,
           (SELECT COUNT(*) FROM session_shown s WHERE s.record_id = u.record_id AND s.verdict = 'used') AS used,
           (SELECT COUNT(*) FROM session_shown s WHERE s.record_id = u.record_id AND s.verdict = 'contradicted') AS contra
         FROM record_usage u`,
      )
      .all() as {
      shown_count: number;
      used_count: number;
      contradicted_count: number;
      n: number;
      used: number;
      contra: number;
    }[];
    expect(rows.length).toBe(12);
    for (const r of rows) {
      expect(r.shown_count).toBe(r.n);
      expect(r.used_count).toBe(r.used);
      expect(r.contradicted_count).toBe(r.contra);
    }
  });
});
