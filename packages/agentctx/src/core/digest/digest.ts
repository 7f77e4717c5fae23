import { formatAge } from '../../shared/age.js';
import { estimateTokens } from '../../shared/tokens.js';
import { type ContextRecord, GLOBAL_PROJECT } from '../../shared/types.js';
import type { Db } from '../../storage/open.js';
import type { VectorStore } from '../../storage/vectors/store.js';
import { MATCH_COVERAGE } from '../drift/coverage.js';
import type { Digest } from './digest-file.js';
import { semanticDigestOrder } from './digest-rank.js';

/**
 * The SessionStart digest (SPEC §4): what a developer would tell a colleague joining the
 * project, in at most 1,500 tokens by the conservative estimator. Sections, in priority order:
 *
 *   project profile ~200 · decisions and conventions ~500 · last handover ~400 ·
 *   reinforced global preferences ~200 · MCP index hint ~100 · CLAUDE.md drift hint ~60
 *
 * Each section is cut to its own budget in whole lines, then the whole text is cut from the
 * bottom until it fits the hard cap. Inferred records are labelled "(unconfirmed)" and listed
 * after confirmed ones; inferred global preferences stay out until reinforced.
 */

export const DIGEST_MAX_TOKENS = 1500;

export const SECTION_BUDGETS = {
  profile: 200,
  decisions: 500,
  handover: 400,
  preferences: 200,
  index: 100,
  drift: 60,
} as const;

export type SectionName = keyof typeof SECTION_BUDGETS;

interface Line {
  text: string;
  id?: string;
}

export interface DigestSection {
  name: SectionName;
  lines: Line[];
}

export interface DriftCounts {
  missing: number;
  contradicted: number;
}

export interface ComposeOptions {
  now: Date;
  /** Drift candidates from a fresh scan; read from stored drift scores when absent. */
  drift?: DriftCounts;
  /** Override the hard cap (tests only ever lower it). */
  maxTokens?: number;
  /** Record embeddings: when present, decisions are ordered by RRF of stored and vector rank. */
  vectors?: VectorStore;
}

export interface ComposedDigest extends Digest {
  /** The sections kept, with their token estimates. */
  sections: { name: SectionName; tokens: number; lines: number }[];
}

const UNCONFIRMED = '(unconfirmed) ';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** Words ending in a full stop that do not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|no|fig|et al)\.$/i;

/** Text up to the first full stop, ! or ? that ends a sentence (not "e.g.", "v1.2" or "a.b"). */
export function firstSentence(text: string): string {
  const re = /[.!?](?=\s|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const upto = text.slice(0, m.index + 1);
    if (!ABBREVIATION.test(upto)) return upto;
  }
  return text;
}

/** The body's first sentence when it says more than the title; '' otherwise. */
function gist(rec: ContextRecord, max: number): string {
  const body = rec.body.split('\nWhy it changed:')[0] ?? rec.body;
  const flat = oneLine(body);
  if (!flat) return '';
  const sentence = cut(firstSentence(flat), max);
  const title = oneLine(rec.title).toLowerCase();
  if (title.includes(sentence.toLowerCase().replace(/[.!?…]+$/, ''))) return '';
  return sentence;
}

function recordLine(rec: ContextRecord, gistMax: number): Line {
  const title = oneLine(rec.title).replace(/[.:;]+$/, '');
  const g = gist(rec, gistMax);
  const mark = rec.confidence === 'inferred' ? UNCONFIRMED : '';
  return { text: `- ${mark}${title}${g ? ` — ${g}` : ''}`, id: rec.id };
}

const CONFIDENCE_ORDER = "CASE confidence WHEN 'explicit' THEN 0 WHEN 'reinforced' THEN 1 ELSE 2 END";

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

function profileSection(db: Db, projectId: string): DigestSection {
  const rows = (
    db
      .prepare(
        `SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND superseded_at IS NULL
         ORDER BY pinned DESC, title, id LIMIT 40`,
      )
      .all(projectId) as ContextRecord[]
  ).sort((a, b) => b.pinned - a.pinned || profileRank(a.title) - profileRank(b.title));
  return {
    name: 'profile',
    lines: rows.map((r) => ({
      text: `- ${r.confidence === 'inferred' ? UNCONFIRMED : ''}${profileLabel(r.title)}: ${cut(oneLine(r.body), 220)}`,
      id: r.id,
    })),
  };
}

function decisionsSection(db: Db, projectId: string, now: Date, vectors?: VectorStore): DigestSection {
  const stored = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type IN ('decision', 'convention') AND superseded_at IS NULL
       ORDER BY pinned DESC, ${CONFIDENCE_ORDER}, score DESC, recorded_at DESC, id DESC LIMIT 60`,
    )
    .all(projectId) as ContextRecord[];
  const rows = vectors ? semanticDigestOrder(db, vectors, projectId, stored, now) : stored;
  return { name: 'decisions', lines: rows.map((r) => recordLine(r, 160)) };
}

function handoverSection(db: Db, projectId: string, now: Date): DigestSection {
  const rec = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL
       ORDER BY valid_from DESC, id DESC LIMIT 1`,
    )
    .get(projectId) as ContextRecord | undefined;
  if (!rec) return { name: 'handover', lines: [] };
  const when = formatAge(rec.valid_from, now);
  const inferred = rec.confidence === 'inferred';
  const age = when === 'just now' ? 'just now' : `${when} ago`;
  const lines: Line[] = [
    {
      text: `Task (${age}${inferred ? ', summarised automatically' : ''}): ${inferred ? UNCONFIRMED : ''}${cut(oneLine(rec.title), 200)}`,
      id: rec.id,
    },
  ];
  for (const raw of rec.body.split('\n')) {
    const l = oneLine(raw);
    if (l) lines.push({ text: cut(l, 300), id: rec.id });
  }
  return { name: 'handover', lines };
}

function preferencesSection(db: Db): DigestSection {
  const rows = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'preference' AND superseded_at IS NULL
       AND confidence IN ('explicit', 'reinforced')
       ORDER BY pinned DESC, reinforce_count DESC, score DESC, recorded_at DESC, id DESC LIMIT 30`,
    )
    .all(GLOBAL_PROJECT) as ContextRecord[];
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

function indexSection(db: Db, projectId: string, shown: Set<string>): DigestSection {
  const rows = db
    .prepare(
      `SELECT type, COUNT(*) AS n FROM records WHERE project_id IN (?, ?) AND superseded_at IS NULL GROUP BY type`,
    )
    .all(projectId, GLOBAL_PROJECT) as { type: string; n: number }[];
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

function driftSection(counts: DriftCounts): DigestSection {
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

/** Section headings; the drift hint is one line with no heading (its budget is 60 tokens). */
const HEADINGS: Record<SectionName, string | null> = {
  profile: '## Project',
  decisions: '## Decisions and conventions',
  handover: '## Where the last session left off',
  preferences: '## How this developer likes to work (all projects)',
  index: '## More context',
  drift: null,
};

/** A section's heading and lines, cut to its budget in whole lines; [] if only the heading fits. */
function fitSection(section: DigestSection): Line[] {
  if (section.lines.length === 0) return [];
  const budget = SECTION_BUDGETS[section.name];
  const heading = HEADINGS[section.name];
  const out: Line[] = heading ? [{ text: '' }, { text: heading }] : [{ text: '' }];
  const head = out.length;
  let used = estimateTokens(`\n${heading ?? ''}`) + 2;
  for (const line of section.lines) {
    const cost = estimateTokens(line.text) + 2;
    if (used + cost > budget) {
      if (section.name === 'handover' || section.name === 'index') break;
      continue; // a shorter line further down may still fit
    }
    out.push(line);
    used += cost;
  }
  return out.length > head ? out : [];
}

/** Compose the digest of a project. Reads only; the caller writes it with writeDigest. */
export function composeDigest(
  db: Db,
  project: { id: string; name: string },
  opts: ComposeOptions,
): ComposedDigest {
  const max = Math.min(DIGEST_MAX_TOKENS, opts.maxTokens ?? DIGEST_MAX_TOKENS);
  const top: DigestSection[] = [
    profileSection(db, project.id),
    decisionsSection(db, project.id, opts.now, opts.vectors),
    handoverSection(db, project.id, opts.now),
    preferencesSection(db),
  ];
  const fitted: { name: SectionName; lines: Line[] }[] = top.map((s) => ({
    name: s.name,
    lines: fitSection(s),
  }));
  const shown = new Set(fitted.flatMap((f) => f.lines.map((l) => l.id).filter((x): x is string => !!x)));
  const drift = opts.drift ?? storedDriftCounts(db, project.id, opts.now);
  for (const s of [indexSection(db, project.id, shown), driftSection(drift)]) {
    fitted.push({ name: s.name, lines: fitSection(s) });
  }
  const body = fitted.flatMap((f) => f.lines.map((l) => ({ ...l, section: f.name })));
  if (body.length === 0) {
    return { text: '', ids: [], tokens: 0, generated_at: opts.now.toISOString(), sections: [] };
  }
  const anyUnconfirmed = body.some((l) => l.text.includes(UNCONFIRMED));
  const header: Line[] = [
    { text: `# Project context for ${project.name} (from agentctx)` },
    {
      text: anyUnconfirmed
        ? 'What earlier sessions recorded. Lines marked "(unconfirmed)" were inferred, not stated: check before relying on them; the rest were stated or confirmed by the developer.'
        : 'What earlier sessions recorded; the developer stated or confirmed each line.',
    },
  ];
  let lines = [...header.map((l) => ({ ...l, section: undefined as SectionName | undefined })), ...body];
  const render = (ls: { text: string }[]) => `${ls.map((l) => l.text).join('\n')}\n`;
  // hard cap: drop whole lines from the bottom, then any heading left without lines
  while (lines.length > header.length && estimateTokens(render(lines)) > max) lines = lines.slice(0, -1);
  while (
    lines.length > header.length &&
    (lines[lines.length - 1]!.text.startsWith('## ') || !lines[lines.length - 1]!.text)
  )
    lines = lines.slice(0, -1);
  if (lines.length <= header.length) {
    return { text: '', ids: [], tokens: 0, generated_at: opts.now.toISOString(), sections: [] };
  }
  const text = render(lines);
  const ids = [...new Set(lines.map((l) => l.id).filter((x): x is string => !!x))];
  const sections = fitted
    .map((f) => {
      const kept = lines.filter((l) => l.section === f.name);
      return { name: f.name, tokens: estimateTokens(kept.map((l) => l.text).join('\n')), lines: kept.length };
    })
    .filter((s) => s.lines > (HEADINGS[s.name] ? 2 : 1));
  return { text, ids, tokens: estimateTokens(text), generated_at: opts.now.toISOString(), sections };
}
