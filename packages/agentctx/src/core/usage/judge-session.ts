import { readSubagentEvents, readUsageEvents, type UsageEvent } from '../../claude/transcript-usage.js';
import { nodeValue } from '../../database/graph-repo.js';
import type { Db } from '../../database/open.js';
import { addShown, setVerdict, shownInSession, type Verdict } from '../../database/usage-repo.js';
import { type JudgedRecord, judgeRecord } from './rule.js';

/**
 * After a session (the extraction subprocess, never a hook): note what its ctx_search /
 * ctx_get / ctx_related calls returned as shown, then judge every record it was shown with the
 * "used" rule and store the verdicts and per-record counts. Idempotent: judging the same
 * transcript again changes nothing; a longer one moves the counts by the difference.
 */

export interface SessionUsage {
  session_id: string;
  shown: number;
  used: number;
  unused: number;
  contradicted: number;
  /** Records first seen through an MCP result in this run. */
  mcp_shown: number;
  changed: number;
}

/** Records (of any project: a global preference is shown everywhere) among `ids`. */
function existing(db: Db, ids: readonly string[]): Set<string> {
  const out = new Set<string>();
  const stmt = db.prepare('SELECT id FROM records WHERE id = ?');
  for (const id of new Set(ids)) if (stmt.get(id)) out.add(id);
  return out;
}

function mcpShown(db: Db, sessionId: string, events: readonly UsageEvent[], now: string): number {
  let n = 0;
  for (const e of events) {
    if (e.kind !== 'mcp') continue;
    const ids = [...existing(db, [...e.returned, ...e.asked])];
    if (ids.length === 0) continue;
    n += addShown(db, sessionId, ids, e.tool === 'ctx_get' ? 'mcp_get' : 'mcp_search', 0, e.at ?? now);
  }
  return n;
}

function recordFor(db: Db, id: string): JudgedRecord | null {
  const r = db.prepare('SELECT id, title, body FROM records WHERE id = ?').get(id) as
    | { id: string; title: string; body: string }
    | undefined;
  if (!r) return null;
  const files = db
    .prepare(
      `SELECT n.name AS name FROM record_entities re JOIN nodes n ON n.id = re.entity_id
       WHERE re.record_id = ? AND n.kind = 'file'
       UNION SELECT n.name FROM edges e JOIN nodes n ON n.id = e.to_id
       WHERE e.from_id = ? AND e.rel_type = 'applies_to' AND n.kind = 'file'`,
    )
    .all(id, id) as { name: string }[];
  return { ...r, files: files.map((f) => nodeValue(f.name)) };
}

/**
 * `events` are the session's own; `subagentEvents` what its subagents did (their transcripts).
 * A record injected into a subagent is judged on both: what the subagents did after it was
 * shown, and what the parent did with their reports. Other records on the session's own events.
 */
export function judgeSessionEvents(
  db: Db,
  sessionId: string,
  events: readonly UsageEvent[],
  now: Date,
  subagentEvents: readonly UsageEvent[] = [],
): SessionUsage {
  const at = now.toISOString();
  const out: SessionUsage = {
    session_id: sessionId,
    shown: 0,
    used: 0,
    unused: 0,
    contradicted: 0,
    mcp_shown: 0,
    changed: 0,
  };
  db.transaction(() => {
    out.mcp_shown = mcpShown(db, sessionId, events, at);
    const withSubagents = subagentEvents.length > 0 ? [...events, ...subagentEvents] : events;
    for (const row of shownInSession(db, sessionId)) {
      const rec = recordFor(db, row.record_id);
      if (!rec) continue; // deleted since (a reset): nothing to judge
      const seen = row.via === 'subagent' ? withSubagents : events;
      const j = judgeRecord(rec, row.via === 'digest' ? null : row.shown_at, seen);
      out.shown++;
      const key: Verdict = j.verdict;
      out[key]++;
      if (setVerdict(db, sessionId, row.record_id, j.verdict, j.evidence, at)) out.changed++;
    }
  }).immediate();
  return out;
}

/** Judge a session from its transcript file and its subagents' transcripts beside it. */
export function judgeSession(db: Db, sessionId: string, transcriptPath: string, now: Date): SessionUsage {
  const events = readUsageEvents(transcriptPath);
  return judgeSessionEvents(db, sessionId, events, now, readSubagentEvents(transcriptPath, sessionId));
}
