import type { Db } from '../../database/open.js';
import { staleFilesOf } from '../../database/staleness-repo.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { type WriterFilter, writerSql } from '../../database/writer-filter.js';
import { formatAge } from '../../shared/age.js';
import { agentLabel } from '../../shared/agents.js';
import { type ContextRecord, GLOBAL_PROJECT } from '../../shared/types.js';
import { MATCH_COVERAGE } from '../drift/coverage.js';
import { cut, type Line, oneLine, recordLine, UNCONFIRMED } from './digest-lines.js';
import { semanticDigestOrder } from './digest-rank.js';

/**
 * The digest's sections, each chosen and ordered from the store as lines (CONTRACTS.md §digest):
 * which records each section shows and in what order. Budgets and the cut are composeDigest's.
 *
 * Inferred records are hypotheses on probation (CONTRACTS.md §stored-derived): no section shows one
 * until it is reinforced or confirmed. The one exception is the last handover, which CONTRACTS.md
 * §digest names as a section and which is never reinforced (each session's supersedes the last): it
 * is shown labelled as an automatic, unconfirmed summary.
 */

export type SectionName = 'profile' | 'decisions' | 'handover' | 'preferences' | 'index' | 'drift';

export interface DigestSection {
  name: SectionName;
  lines: Line[];
}

export interface DriftCounts {
  missing: number;
  contradicted: number;
}

const CONFIDENCE_ORDER = "CASE confidence WHEN 'explicit' THEN 0 ELSE 1 END";

/** The records a digest section may show as facts: stated or confirmed, never inferred. */
const CONFIRMED = "confidence IN ('explicit', 'reinforced')";

/** Profile keys in the order a newcomer wants them (titles are "profile: <key>"). */
const PROFILE_ORDER = [
  'name',
  'stack',
  'package manager',
  'workspaces',
  'build command',
  'test command',
  'lint command',
  'entry points',
];

function profileLabel(title: string): string {
  const t = oneLine(title).replace(/^profile:\s*/i, '');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function profileRank(title: string): number {
  const i = PROFILE_ORDER.indexOf(
    oneLine(title)
      .replace(/^profile:\s*/i, '')
      .toLowerCase(),
  );
  return i === -1 ? PROFILE_ORDER.length : i;
}

export function profileSection(db: Db, projectId: string, writers?: WriterFilter): DigestSection {
  const w = writerSql(writers);
  const rows = (
    db
      .prepare(
        `SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND superseded_at IS NULL
         AND ${CONFIRMED}${w.sql}
         ORDER BY pinned DESC, title, id LIMIT 40`,
      )
      .all(projectId, ...w.args) as ContextRecord[]
  ).sort((a, b) => b.pinned - a.pinned || profileRank(a.title) - profileRank(b.title));
  return {
    name: 'profile',
    lines: rows.map((r) => ({
      text: `- ${profileLabel(r.title)}: ${cut(oneLine(r.body), 220)}`,
      id: r.id,
    })),
  };
}

/**
 * Decisions, conventions and this project's own preferences ("Run npm test before every
 * commit"): a preference scoped to the project is a rule of the project, so it stands with
 * them (issue 31 #14); the preferences section holds the developer's global ones.
 */
export function decisionsSection(
  db: Db,
  projectId: string,
  now: Date,
  vectors?: VectorStore,
  writers?: WriterFilter,
): DigestSection {
  const w = writerSql(writers);
  const stored = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type IN ('decision', 'convention', 'preference')
       AND superseded_at IS NULL
       AND ${CONFIRMED}${w.sql}
       ORDER BY pinned DESC, ${CONFIDENCE_ORDER}, score DESC, recorded_at DESC, id DESC LIMIT 60`,
    )
    .all(projectId, ...w.args) as ContextRecord[];
  const rows = vectors ? semanticDigestOrder(db, vectors, projectId, stored, now) : stored;
  const stale = staleFilesOf(
    db,
    rows.map((r) => r.id),
  );
  return { name: 'decisions', lines: rows.map((r) => recordLine(r, 160, stale.get(r.id))) };
}

export function handoverSection(db: Db, projectId: string, now: Date, writers?: WriterFilter): DigestSection {
  const w = writerSql(writers);
  const rec = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL${w.sql}
       ORDER BY valid_from DESC, id DESC LIMIT 1`,
    )
    .get(projectId, ...w.args) as ContextRecord | undefined;
  if (!rec) return { name: 'handover', lines: [] };
  const when = formatAge(rec.valid_from, now);
  const inferred = rec.confidence === 'inferred';
  const age = when === 'just now' ? 'just now' : `${when} ago`;
  const lines: Line[] = [
    {
      // which agent's session left off: the next session may be another agent's
      text: `Task (${agentLabel(rec.agent)}, ${age}${inferred ? ', summarised automatically' : ''}): ${inferred ? UNCONFIRMED : ''}${cut(oneLine(rec.title), 200)}`,
      id: rec.id,
    },
  ];
  for (const raw of rec.body.split('\n')) {
    const l = oneLine(raw);
    if (l) lines.push({ text: cut(l, 300), id: rec.id });
  }
  return { name: 'handover', lines };
}

export function preferencesSection(db: Db, writers?: WriterFilter): DigestSection {
  const w = writerSql(writers);
  const rows = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'preference' AND superseded_at IS NULL
       AND ${CONFIRMED}${w.sql}
       ORDER BY pinned DESC, reinforce_count DESC, score DESC, recorded_at DESC, id DESC LIMIT 30`,
    )
    .all(GLOBAL_PROJECT, ...w.args) as ContextRecord[];
  return { name: 'preferences', lines: rows.map((r) => recordLine(r, 120)) };
}

const TYPE_PLURAL: Record<string, string> = {
  decision: 'decisions',
  convention: 'conventions',
  preference: 'preferences',
  discovery: 'discoveries',
  bugfix: 'bug fixes',
  handover: 'handovers',
  profile: 'profile facts',
};

export function indexSection(
  db: Db,
  projectId: string,
  shown: Set<string>,
  writers?: WriterFilter,
): DigestSection {
  const w = writerSql(writers);
  const rows = db
    .prepare(
      `SELECT type, COUNT(*) AS n FROM records WHERE project_id IN (?, ?) AND superseded_at IS NULL${w.sql} GROUP BY type`,
    )
    .all(projectId, GLOBAL_PROJECT, ...w.args) as { type: string; n: number }[];
  const total = rows.reduce((s, r) => s + r.n, 0);
  const hidden = total - shown.size;
  if (hidden <= 0) return { name: 'index', lines: [] };
  const parts = rows
    .filter((r) => r.n > 0)
    .sort((a, b) => b.n - a.n || (a.type < b.type ? -1 : 1))
    .map((r) => `${r.n} ${r.n === 1 ? r.type : (TYPE_PLURAL[r.type] ?? r.type)}`);
  return {
    name: 'index',
    lines: [
      { text: `${total} records in the store (${parts.join(', ')}); ${hidden} not shown.` },
      {
        text: 'Use the agentctx MCP tools: ctx_search(query) for an index, ctx_get(ids) for full records, ctx_related(file) per file.',
      },
    ],
  };
}

/** Drift candidates from the stored drift scores (what the last consolidation found). */
export function storedDriftCounts(db: Db, projectId: string, now: Date): DriftCounts {
  const since = new Date(now.getTime() - 90 * 86_400_000).toISOString();
  const missing = db
    .prepare(
      `SELECT COUNT(*) AS n FROM records WHERE project_id = ? AND superseded_at IS NULL
       AND type IN ('decision', 'convention') AND confidence IN ('explicit', 'reinforced')
       AND claudemd_drift_score > ?`,
    )
    .get(projectId, 1 - MATCH_COVERAGE) as { n: number };
  const contradicted = db
    .prepare(
      `SELECT COUNT(*) AS n FROM records WHERE project_id = ? AND superseded_at IS NOT NULL AND superseded_at >= ?
       AND type IN ('decision', 'convention') AND claudemd_drift_score >= 1`,
    )
    .get(projectId, since) as { n: number };
  return { missing: missing.n, contradicted: contradicted.n };
}

export function driftSection(counts: DriftCounts): DigestSection {
  const n = counts.missing + counts.contradicted;
  if (n < 2) return { name: 'drift', lines: [] };
  const parts: string[] = [];
  if (counts.missing > 0) parts.push(`${counts.missing} decisions/conventions missing`);
  if (counts.contradicted > 0)
    parts.push(`${counts.contradicted} passage${counts.contradicted === 1 ? '' : 's'} superseded`);
  return {
    name: 'drift',
    lines: [
      {
        text: `Note: CLAUDE.md is behind the store: ${parts.join(', ')}. ctx_sync_claudemd proposes a diff for the developer to review.`,
      },
    ],
  };
}
