import { join } from 'node:path';
import { parseUsageEvents } from '../../src/claude/transcript-usage.js';
import { createRecord } from '../../src/core/records/records.js';
import { judgeSessionEvents } from '../../src/core/usage/judge-session.js';
import { linkRecordEntity, upsertNode } from '../../src/database/graph-repo.js';
import type { Db } from '../../src/database/open.js';
import { addShown } from '../../src/database/usage-repo.js';
import { testStore } from './store.js';
import { type Label, labelledSessions, RECORDS } from './usage-labelled.js';

/** One labelled (record, session) pair and what the rule said. */
export interface Pair {
  session: string;
  record: string;
  label: Label;
  verdict: string | null;
  evidence: string | null;
}

export interface Calibration {
  pairs: Pair[];
  precision: number;
  recall: number;
  /** Contradictions found among those labelled so. */
  contradictedFound: number;
  contradictedLabelled: number;
  db: Db;
  ids: Record<string, string>;
}

/**
 * Run the "used" rule over the labelled set: a real store in `dir` holding the records (files
 * linked as PostToolUse would), each session's hook injections noted as the journal fold does,
 * then judged from its transcript exactly as `agentctx extract` judges it.
 */
export function calibrate(dir: string): Calibration {
  const { db, deps } = testStore(dir, 'p-shop');
  const ids: Record<string, string> = {};
  for (const r of RECORDS) {
    const rec = createRecord(deps, {
      type: r.type,
      title: r.title,
      body: r.body,
      source: 'cli',
      confidence: 'explicit',
    });
    ids[r.key] = rec.id;
    for (const f of r.files ?? [])
      linkRecordEntity(db, rec.id, upsertNode(db, deps.newId, 'p-shop', 'file', f));
  }
  const pairs: Pair[] = [];
  for (const s of labelledSessions(ids)) {
    const sessionId = s.builder.sessionId;
    const start = String(s.builder.lines[0]?.timestamp ?? '2026-12-01T09:00:00Z');
    for (const sh of s.shown) addShown(db, sessionId, [ids[sh.key]!], sh.via, 50, sh.at ?? start);
    judgeSessionEvents(db, sessionId, parseUsageEvents(s.builder.text()), new Date('2026-12-02T00:00:00Z'));
    for (const [key, label] of Object.entries(s.labels)) {
      const row = db
        .prepare('SELECT verdict, evidence FROM session_shown WHERE session_id = ? AND record_id = ?')
        .get(sessionId, ids[key]) as { verdict: string | null; evidence: string | null } | undefined;
      pairs.push({
        session: s.name,
        record: key,
        label,
        verdict: row?.verdict ?? null,
        evidence: row?.evidence ?? null,
      });
    }
  }
  const tp = pairs.filter((p) => p.label === 'used' && p.verdict === 'used').length;
  const fp = pairs.filter((p) => p.label !== 'used' && p.verdict === 'used').length;
  const fn = pairs.filter((p) => p.label === 'used' && p.verdict !== 'used').length;
  return {
    pairs,
    precision: tp + fp === 0 ? 0 : tp / (tp + fp),
    recall: tp + fn === 0 ? 0 : tp / (tp + fn),
    contradictedFound: pairs.filter((p) => p.label === 'contradicted' && p.verdict === 'contradicted').length,
    contradictedLabelled: pairs.filter((p) => p.label === 'contradicted').length,
    db,
    ids,
  };
}

export const CALIBRATION_DB = (dir: string) => join(dir, 'agentctx.db');
