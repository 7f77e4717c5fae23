import type { ContextRecord } from '../../shared/types.js';
import { extractTerms, textHasTerm } from '../../text/terms.js';
import type { ContradictionFinding } from './coverage.js';
import { lowerOf, oneLine, statement } from './record-text.js';

/**
 * The edits `sync` proposes for CLAUDE.md: contradicted passages struck through (with the
 * current title), missing records appended as one block. Pure: texts in, texts out.
 */

function firstSentence(text: string, max: number): string {
  const flat = oneLine(statement(text));
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const s = m ? m[1]! : flat;
  return s.length <= max ? s : `${s.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The line proposed for CLAUDE.md for a missing record. */
function proposedLine(rec: ContextRecord): string {
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
