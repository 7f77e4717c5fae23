import type { ContextRecord } from '../../shared/types.js';
import { extractTerms, type QueryTerm, textHasTerm } from '../../storage/fts-query.js';
import type { Db } from '../../storage/open.js';
import { currentHead } from '../../storage/records-repo.js';
import { createScratchIndex, type ScratchIndex } from '../../storage/scratch-fts.js';
import { type MemoryFile, type Passage, passagesOf, readMemoryFiles } from './claudemd-files.js';
import type { DriftEntry, DriftOptions, DriftReport } from './drift-types.js';
import { MATCH_COVERAGE } from './match-coverage.js';

/**
 * CLAUDE.md drift (SPEC §5 `ctx_sync_claudemd`): does the project's CLAUDE.md (with
 * `.claude/CLAUDE.md` and its `@path` imports) still say what the store holds?
 *
 * The memory files are split into passages (list items, paragraphs, headings, code lines) and
 * indexed in a scratch in-memory FTS5 table. Each current explicit or reinforced decision and
 * convention is searched there with its own terms (BM25 picks the closest passages); its
 * coverage is the share of its terms that the best passage holds, each term weighted by its
 * inverse document frequency among the passages and title terms counted double. Coverage under
 * MATCH_COVERAGE means the record is *missing*; its drift score is 1 − coverage.
 *
 * A passage is *contradicted* when it matches a record superseded in the last 90 days and holds
 * the words that only the superseded version had, but not the words only its current head has.
 * Read-only: nothing is written anywhere.
 */

export { MATCH_COVERAGE } from './match-coverage.js';

const HISTORY_DAYS = 90;
const TOP_PASSAGES = 6;
const MAX_SIGNATURE_TERMS = 24;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** The assessment of one current record (every candidate, not just the flagged ones). */
export interface DriftAssessment {
  record: ContextRecord;
  coverage: number;
  score: number;
  best?: Passage;
}

export interface ContradictionFinding {
  superseded: ContextRecord;
  head: ContextRecord;
  passage: Passage;
}

export interface DriftScan {
  files: string[];
  /** Every current candidate, flagged or not. */
  assessments: DriftAssessment[];
  missing: DriftAssessment[];
  contradicted: ContradictionFinding[];
  /** The memory files' texts, for the proposed diff. */
  texts: Map<string, string>;
}

interface Signature {
  terms: QueryTerm[];
  weights: Map<string, number>;
}

/** The part of a body that states the fact: before the "Why it changed:" rationale. */
function statement(body: string): string {
  const at = body.indexOf('\nWhy it changed:');
  return (at === -1 ? body : body.slice(0, at)).slice(0, 600);
}

function signature(rec: ContextRecord, index: ScratchIndex): Signature {
  const title = extractTerms(rec.title, MAX_SIGNATURE_TERMS);
  const titleStems = new Set(title.map((t) => t.stem));
  const body = extractTerms(statement(rec.body), MAX_SIGNATURE_TERMS).filter((t) => !titleStems.has(t.stem));
  const terms = [...title, ...body].slice(0, MAX_SIGNATURE_TERMS);
  const n = Math.max(1, index.size);
  const weights = new Map<string, number>();
  for (const t of terms) {
    const idf = Math.log(1 + (n + 1) / (index.docFreq(t) + 0.5));
    weights.set(t.stem, idf * (titleStems.has(t.stem) ? 2 : 1));
  }
  return { terms, weights };
}

function lowerOf(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Weighted share of `terms` present in `lower` (0 when there are none). */
function share(lower: string, terms: readonly QueryTerm[], weights: Map<string, number>): number {
  let got = 0;
  let all = 0;
  for (const t of terms) {
    const w = weights.get(t.stem) ?? 1;
    all += w;
    if (textHasTerm(lower, t)) got += w;
  }
  return all > 0 ? got / all : 0;
}

function candidates(db: Db, projectId: string): ContextRecord[] {
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND superseded_at IS NULL
       AND type IN ('decision', 'convention') AND confidence IN ('explicit', 'reinforced')
       ORDER BY pinned DESC, CASE confidence WHEN 'explicit' THEN 0 ELSE 1 END, recorded_at DESC, id DESC`,
    )
    .all(projectId) as ContextRecord[];
}

function recentlySuperseded(db: Db, projectId: string, now: Date): ContextRecord[] {
  const since = new Date(now.getTime() - HISTORY_DAYS * 86_400_000).toISOString();
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND superseded_at IS NOT NULL AND superseded_at >= ?
       AND superseded_by IS NOT NULL AND type IN ('decision', 'convention')
       ORDER BY superseded_at DESC, id DESC`,
    )
    .all(projectId, since) as ContextRecord[];
}

/** The full scan behind the report and the consolidation step. Read-only. */
export function scanDrift(db: Db, project: { id: string; root: string }, now: Date): DriftScan {
  const files: MemoryFile[] = readMemoryFiles(project.root);
  const passages = files.flatMap(passagesOf);
  // struck-through text (~~like this~~) no longer states anything
  const said = passages.map((p) => p.text.replace(/~~[\s\S]*?~~/g, ' '));
  const index = createScratchIndex(said.map((text, i) => ({ key: i + 1, text })));
  const lower = said.map(lowerOf);
  try {
    const contradicted: ContradictionFinding[] = [];
    const flagged = new Set<number>();
    for (const old of recentlySuperseded(db, project.id, now)) {
      const head = currentHead(db, old.id);
      if (!head || head.id === old.id || head.superseded_at) continue;
      const sigOld = signature(old, index);
      const sigHead = signature(head, index);
      const headStems = new Set(sigHead.terms.map((t) => t.stem));
      const oldStems = new Set(sigOld.terms.map((t) => t.stem));
      const onlyOld = sigOld.terms.filter((t) => !headStems.has(t.stem));
      const onlyHead = sigHead.terms.filter((t) => !oldStems.has(t.stem));
      if (onlyOld.length === 0) continue;
      for (const hit of index.query(sigOld.terms, TOP_PASSAGES)) {
        if (flagged.has(hit.key)) continue;
        const text = lower[hit.key - 1]!;
        const matchesOld = share(text, sigOld.terms, sigOld.weights) >= MATCH_COVERAGE;
        const saysOld = share(text, onlyOld, sigOld.weights) >= 0.5;
        const saysNew = onlyHead.length > 0 && share(text, onlyHead, sigHead.weights) >= 0.5;
        if (matchesOld && saysOld && !saysNew) {
          flagged.add(hit.key);
          contradicted.push({ superseded: old, head, passage: passages[hit.key - 1]! });
        }
      }
    }
    const assessments: DriftAssessment[] = [];
    for (const rec of candidates(db, project.id)) {
      const sig = signature(rec, index);
      let coverage = 0;
      let best: Passage | undefined;
      for (const hit of index.query(sig.terms, TOP_PASSAGES + flagged.size)) {
        // text that states a superseded version does not count as stating the current one
        if (flagged.has(hit.key)) continue;
        const c = share(lower[hit.key - 1]!, sig.terms, sig.weights);
        if (c > coverage) {
          coverage = c;
          best = passages[hit.key - 1];
        }
      }
      coverage = Math.round(coverage * 1000) / 1000;
      assessments.push({ record: rec, coverage, score: Math.round((1 - coverage) * 1000) / 1000, best });
    }
    contradicted.sort((a, b) =>
      a.passage.file === b.passage.file
        ? a.passage.line - b.passage.line
        : a.passage.file < b.passage.file
          ? -1
          : 1,
    );
    return {
      files: files.map((f) => f.rel),
      assessments,
      missing: assessments.filter((a) => a.coverage < MATCH_COVERAGE),
      contradicted,
      texts: new Map(files.map((f) => [f.rel, f.text])),
    };
  } finally {
    index.close();
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function firstSentence(text: string, max: number): string {
  const flat = oneLine(statement(text));
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const s = m ? m[1]! : flat;
  return s.length <= max ? s : `${s.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The line proposed for CLAUDE.md for a missing record. */
export function proposedLine(rec: ContextRecord): string {
  const title = oneLine(rec.title).replace(/[.:;]+$/, '');
  const sentence = firstSentence(rec.body, 200);
  const titleLower = lowerOf(title);
  const adds = extractTerms(sentence).some((t) => !textHasTerm(titleLower, t));
  return adds && sentence ? `- ${title}: ${sentence}` : `- ${title}`;
}

/** The struck-through replacement for one line of contradicted text. */
function struck(line: string): string {
  const m = /^(\s*(?:[-*+]|\d+[.)])\s+|\s*)(.*)$/.exec(line)!;
  const body = m[2]!.trim();
  return body ? `${m[1]}~~${body}~~` : line;
}

export interface DiffPlan {
  /** File → replacement lines by 1-based line number, and lines appended at the end. */
  edits: Map<string, { replace: Map<number, string>; append: string[]; exists: boolean }>;
}

/** What `sync --apply` would change: strike contradicted passages, append missing records. */
export function planClaudeMdEdits(
  texts: Map<string, string>,
  missing: readonly ContextRecord[],
  contradicted: readonly ContradictionFinding[],
): DiffPlan {
  const edits: DiffPlan['edits'] = new Map();
  const entry = (file: string) => {
    let e = edits.get(file);
    if (!e) {
      e = { replace: new Map(), append: [], exists: texts.has(file) };
      edits.set(file, e);
    }
    return e;
  };
  for (const c of contradicted) {
    const lines = (texts.get(c.passage.file) ?? '').split('\n');
    const e = entry(c.passage.file);
    for (let i = 0; i < c.passage.lines; i++) {
      const n = c.passage.line + i;
      const orig = lines[n - 1];
      if (orig === undefined || !orig.trim()) continue;
      const last = i === c.passage.lines - 1;
      e.replace.set(n, `${struck(orig)}${last ? ` (superseded; now: ${oneLine(c.head.title)})` : ''}`);
    }
  }
  if (missing.length > 0) {
    const target =
      texts.has('CLAUDE.md') || !texts.has('.claude/CLAUDE.md') ? 'CLAUDE.md' : '.claude/CLAUDE.md';
    const e = entry(target);
    const text = texts.get(target) ?? '';
    const block = ['## Decisions and conventions (recorded by agentctx)', '', ...missing.map(proposedLine)];
    e.append = text.trim() === '' ? block : ['', ...block];
  }
  return { edits };
}

function splitLines(text: string): { lines: string[]; trailing: boolean } {
  if (text === '') return { lines: [], trailing: true };
  const lines = text.split('\n');
  const trailing = text.endsWith('\n');
  if (trailing) lines.pop();
  return { lines, trailing };
}

const CONTEXT = 3;

/** A unified diff of one file whose lines change in place and may grow at the end. */
function fileDiff(file: string, exists: boolean, before: string, after: string): string[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const changed: number[] = [];
  const max = Math.max(a.lines.length, b.lines.length);
  for (let i = 0; i < max; i++) {
    const lastOld = i === a.lines.length - 1 && !a.trailing;
    if (i >= a.lines.length || i >= b.lines.length || a.lines[i] !== b.lines[i] || lastOld) changed.push(i);
  }
  if (changed.length === 0) return [];
  const out = [exists ? `--- a/${file}` : '--- /dev/null', `+++ b/${file}`];
  let g = 0;
  while (g < changed.length) {
    let h = g;
    while (h + 1 < changed.length && changed[h + 1]! - changed[h]! <= 2 * CONTEXT) h++;
    const from = Math.max(0, changed[g]! - CONTEXT);
    const to = changed[h]! + CONTEXT + 1;
    const oldEnd = Math.min(a.lines.length, to);
    const newEnd = Math.min(b.lines.length, to);
    const oldLen = Math.max(0, oldEnd - from);
    const newLen = Math.max(0, newEnd - from);
    const body: string[] = [];
    const isChanged = new Set(changed.slice(g, h + 1));
    for (let i = from; i < Math.max(oldEnd, newEnd); i++) {
      if (!isChanged.has(i)) {
        body.push(` ${a.lines[i]}`);
        continue;
      }
      if (i < a.lines.length) {
        body.push(`-${a.lines[i]}`);
        if (i === a.lines.length - 1 && !a.trailing) body.push('\\ No newline at end of file');
      }
      if (i < b.lines.length) body.push(`+${b.lines[i]}`);
    }
    const range = (start: number, len: number) => `${len === 0 ? start : start + 1},${len}`;
    out.push(`@@ -${range(from, oldLen)} +${range(from, newLen)} @@`, ...body);
    g = h + 1;
  }
  return out;
}

/** The unified diff of a plan (additions and strike-through replacements), with context lines. */
export function renderDiff(texts: Map<string, string>, plan: DiffPlan): string {
  const after = applyPlan(texts, plan);
  const out: string[] = [];
  for (const file of [...plan.edits.keys()].sort()) {
    out.push(...fileDiff(file, plan.edits.get(file)!.exists, texts.get(file) ?? '', after.get(file) ?? ''));
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** The new text of each edited file (what `sync --apply` writes after confirmation). */
export function applyPlan(texts: Map<string, string>, plan: DiffPlan): Map<string, string> {
  const result = new Map<string, string>();
  for (const [file, e] of plan.edits) {
    const text = texts.get(file) ?? '';
    const lines = text === '' ? [] : text.split('\n');
    const trailing = text.endsWith('\n');
    if (trailing) lines.pop();
    for (const [n, repl] of e.replace) if (n - 1 < lines.length) lines[n - 1] = repl;
    lines.push(...e.append);
    result.set(file, `${lines.join('\n')}\n`);
  }
  return result;
}

function missingEntry(a: DriftAssessment): DriftEntry {
  return {
    record_id: a.record.id,
    type: a.record.type,
    title: a.record.title,
    reason:
      a.coverage === 0
        ? 'nothing in CLAUDE.md mentions it'
        : `closest CLAUDE.md text covers ${Math.round(a.coverage * 100)}% of it`,
    score: a.score,
  };
}

function contradictedEntry(c: ContradictionFinding): DriftEntry {
  return {
    record_id: c.superseded.id,
    type: c.superseded.type,
    title: c.superseded.title,
    reason: `CLAUDE.md still says what was superseded on ${c.superseded.superseded_at?.slice(0, 10)}`,
    file: c.passage.file,
    line: c.passage.line,
    excerpt: oneLine(c.passage.text).slice(0, 200),
    current_id: c.head.id,
    current_title: c.head.title,
  };
}

/**
 * SPEC §5 `ctx_sync_claudemd`: the bounded drift report. `limit` (default 20, at most 100)
 * applies to each list; `proposed_diff` covers the entries of this page. Read-only.
 */
export function driftReport(db: Db, project: { id: string; root: string }, opts: DriftOptions): DriftReport {
  const scan = scanDrift(db, project, opts.now);
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(opts.limit ?? DEFAULT_LIMIT)));
  const offset = Math.max(0, Math.floor(opts.offset ?? 0));
  const missing = scan.missing.slice(offset, offset + limit);
  const contradicted = scan.contradicted.slice(offset, offset + limit);
  const plan = planClaudeMdEdits(
    scan.texts,
    missing.map((m) => m.record),
    contradicted,
  );
  return {
    missing: missing.map(missingEntry),
    contradicted: contradicted.map(contradictedEntry),
    proposed_diff: renderDiff(scan.texts, plan),
    total: { missing: scan.missing.length, contradicted: scan.contradicted.length },
    truncated: offset + limit < Math.max(scan.missing.length, scan.contradicted.length),
    files: scan.files,
  };
}
