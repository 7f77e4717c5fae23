import type { UsageEvent } from '../../claude/transcript-usage.js';
import { extractTerms, foldText, type QueryTerm, textHasTerm } from '../../text/terms.js';

/**
 * The "used" rule: did a session use a record it was shown? Decided after the session from its
 * transcript, never on a hook's path. Evidence, strongest first:
 *
 * 1. the developer contradicted it after it was shown (a later prompt naming the record, by id
 *    or by two of its distinctive words, with "outdated", "no longer", "we switched"…) →
 *    contradicted (not counted as used);
 * 2. the assistant fetched it with ctx_get, or wrote its id → used;
 * 3. what the assistant wrote or did after it was shown (its text, every tool input) holds
 *    the record's distinctive words: an identifier-like token (`--frozen-lockfile`,
 *    `src/billing/charge.ts`, `MAX_RETRIES`) counts 2 points, a plain word 1, an edit of a file
 *    linked to the record 1; USED_POINTS or more → used;
 * 4. the developer confirmed it ("yes, as we decided…" naming it) → used.
 *
 * Distinctive words are the record's words the session had not used before it was shown and
 * that the developer never typed nor a subagent was asked (echoing the prompt or task that
 * retrieved it is no evidence), minus words every coding session uses. Calibrated on a labelled set (test/unit/core/usage).
 */

const USED_POINTS = 2;
/** A developer's reply comes at least this long after the injection it answers. */
const REACTION_GAP_MS = 3000;

/** Words any coding session writes: their presence says nothing about a record. */
const GENERIC = new Set(
  `use used using run runs running file files code test tests testing add added fix fixed change
  changed update updated make new old function method value values type types project work works
  error errors set call calls return returns check checks data build version line lines time name
  names first last next step steps instead always never because before after only also default
  true false null undefined string number object array list item items case cases part keep`
    .split(/\s+/)
    .filter(Boolean),
);

const CODE_TOKEN = /[A-Za-z0-9_$@][A-Za-z0-9_$@./:-]*[A-Za-z0-9_$]/g;

/** Tokens of a record that look like code: paths, flags, dotted names, snake/camel/kebab case. */
export function codeTokens(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(CODE_TOKEN)) {
    const t = m[0].replace(/^[./:-]+/, '');
    if (t.length < 4 || /^\d[\d.:-]*$/.test(t) || /^https?:/.test(t)) continue;
    const inner = /[a-z0-9][._/-][a-z0-9]/i.test(t) || /_/.test(t);
    const camel = /[a-z][A-Z]/.test(t);
    const mixedDigit = /[a-z]/i.test(t) && /\d/.test(t);
    if (inner || camel || mixedDigit) out.add(t.toLowerCase());
  }
  return [...out];
}

export interface JudgedRecord {
  id: string;
  title: string;
  body: string;
  /** Files linked to the record (repository-relative paths). */
  files?: readonly string[];
}

interface Judgement {
  verdict: 'used' | 'unused' | 'contradicted';
  /** What decided it, as rule names and counts (no text from the session). */
  evidence: string;
  points: number;
}

const CONTRADICT =
  /\b(outdated|obsolete|stale|no longer|not anymore|any ?more|we (switched|moved|changed|dropped)|(is|was|that's|thats) (wrong|incorrect|not true)|don'?t use|stop using|not true)\b/i;
const CONFIRM =
  /\b(yes|right|correct|exactly|as (we )?(decided|agreed|discussed)|still (true|holds|valid|applies)|keep (using|doing|it)|stick (to|with)|good call)\b/i;

function time(at: string | null): number | null {
  if (!at) return null;
  const t = Date.parse(at);
  return Number.isNaN(t) ? null : t;
}

function after(e: UsageEvent, shown: number | null, gap = 0): boolean {
  if (shown === null) return true;
  const t = time(e.at);
  return t === null || t > shown + gap;
}

function fileMatches(edited: string, linked: string): boolean {
  const a = edited.replace(/\\/g, '/');
  const b = linked.replace(/\\/g, '/').replace(/^\.\//, '');
  return a === b || a.endsWith(`/${b}`);
}

interface Distinct {
  plain: QueryTerm[];
  code: string[];
}

/** The record's words and code tokens not found in `background` (folded text). */
function distinctive(r: JudgedRecord, background: string): Distinct {
  const raw = `${r.title}\n${r.body}`;
  const code = codeTokens(raw).filter((t) => !background.includes(t));
  // a word that is a piece of a code token (frozen, lockfile of --frozen-lockfile) is counted there
  const inCode = new Set(codeTokens(raw).flatMap((t) => t.split(/[./:_-]+/)));
  const plain = extractTerms(raw).filter(
    (t) =>
      t.stem.length >= 3 &&
      !GENERIC.has(t.word) &&
      !GENERIC.has(t.stem) &&
      !/^\d+$/.test(t.stem) &&
      !inCode.has(t.word) &&
      !textHasTerm(background, t),
  );
  return { plain, code };
}

function points(d: Distinct, text: string): { code: number; plain: number } {
  let code = 0;
  let plain = 0;
  for (const t of d.code) if (text.includes(t)) code++;
  for (const t of d.plain) if (textHasTerm(text, t)) plain++;
  return { code, plain };
}

/** Judge one record shown at `shownAt` (ISO; null = from the session's start). */
export function judgeRecord(
  r: JudgedRecord,
  shownAt: string | null,
  events: readonly UsageEvent[],
): Judgement {
  const shown = time(shownAt);
  const before: string[] = [];
  const prompts: string[] = [];
  const laterPrompts: string[] = [];
  const output: string[] = [];
  const edited: string[] = [];
  let fetched = false;
  for (const e of events) {
    if (e.kind === 'mcp') {
      if (e.tool === 'ctx_get' && (e.asked.includes(r.id) || e.returned.includes(r.id))) fetched = true;
      continue;
    }
    if (e.kind === 'task') {
      // a subagent's task retrieved what it was given: its words are no evidence of use
      prompts.push(e.text);
      continue;
    }
    if (e.kind === 'prompt') {
      prompts.push(e.text);
      if (after(e, shown, REACTION_GAP_MS)) laterPrompts.push(e.text);
      else before.push(e.text);
      continue;
    }
    if (!after(e, shown)) {
      before.push(e.text);
      continue;
    }
    output.push(e.text);
    if (e.kind === 'did') edited.push(...e.files);
  }
  const beforeText = foldText(before.join('\n'));
  const out = foldText(output.join('\n'));

  // the developer's reaction: a later prompt naming the record
  const forReaction = distinctive(r, beforeText);
  let confirmed = false;
  for (const p of laterPrompts) {
    const folded = foldText(p);
    const hit = points(forReaction, folded);
    const names = folded.includes(r.id.toLowerCase()) || hit.code * 2 + hit.plain >= USED_POINTS;
    if (!names) continue;
    if (CONTRADICT.test(p)) return { verdict: 'contradicted', evidence: 'contradicted', points: 0 };
    if (CONFIRM.test(p)) confirmed = true;
  }

  if (fetched) return { verdict: 'used', evidence: 'ctx_get', points: 0 };
  if (out.includes(r.id.toLowerCase())) return { verdict: 'used', evidence: 'id', points: 0 };

  const d = distinctive(r, foldText(`${beforeText}\n${prompts.join('\n')}`));
  const hit = points(d, out);
  const linked = (r.files ?? []).some((f) => edited.some((e) => fileMatches(e, f))) ? 1 : 0;
  const total = hit.code * 2 + hit.plain + linked;
  const evidence = `code:${hit.code} words:${hit.plain} file:${linked}`;
  if (total >= USED_POINTS) return { verdict: 'used', evidence, points: total };
  if (confirmed) return { verdict: 'used', evidence: 'confirmed', points: total };
  return { verdict: 'unused', evidence, points: total };
}
