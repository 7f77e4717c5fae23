import { oneLine } from '../../claude/transcript.js';
import { type Confidence, type RecordType, type Scope, TITLE_MAX } from '../../shared/types.js';
import type { ActiveWork, ExtractionOutput } from './schema.js';

/** One record the extraction output asks for, before it meets the store. */
export interface Candidate {
  section: 'decisions' | 'preferences' | 'conventions' | 'gotchas' | 'active_work';
  type: RecordType;
  title: string;
  body: string;
  scope: Scope;
  confidence: Confidence;
  supersedes: string | null;
}

/** A title from the first sentence of a text, within the title limit. */
function titleFrom(text: string, prefix = ''): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const sentence = m && m[1]!.length >= 12 ? m[1]!.replace(/[.]$/, '') : flat;
  return oneLine(`${prefix}${sentence}`, TITLE_MAX);
}

function list(label: string, items: readonly string[]): string[] {
  return items.length > 0 ? [`${label}:`, ...items.map((i) => `- ${i}`)] : [];
}

function handoverBody(w: ActiveWork): string {
  return [
    `Current task: ${w.current_task}`,
    ...list('Blockers', w.blockers),
    ...list('Next steps', w.next_steps),
    ...list('Open questions', w.open_questions),
  ].join('\n');
}

/** Map the output sections (CONTRACTS.md §extraction-output) to record types (gotchas become discoveries). */
export function candidatesOf(out: ExtractionOutput): Candidate[] {
  const c: Candidate[] = [];
  for (const d of out.decisions) {
    c.push({
      section: 'decisions',
      type: 'decision',
      title: titleFrom(d.what),
      body: d.rationale ? `${d.what}\n\nRationale: ${d.rationale}` : d.what,
      scope: 'project',
      confidence: d.confidence,
      supersedes: d.supersedes,
    });
  }
  for (const p of out.preferences) {
    c.push({
      section: 'preferences',
      type: 'preference',
      title: titleFrom(p.rule),
      body: `${p.rule}\n\nCategory: ${p.category}`,
      scope: p.scope,
      confidence: p.confidence,
      supersedes: null,
    });
  }
  for (const v of out.conventions) {
    c.push({
      section: 'conventions',
      type: 'convention',
      title: titleFrom(v.convention),
      body: v.scope === 'project' ? v.convention : `${v.convention}\n\nApplies to: ${v.scope}`,
      scope: 'project',
      confidence: v.confidence,
      supersedes: null,
    });
  }
  for (const g of out.gotchas) {
    c.push({
      section: 'gotchas',
      type: 'discovery',
      title: titleFrom(g.pattern),
      body: g.why_it_matters ? `${g.pattern}\n\nWhy it matters: ${g.why_it_matters}` : g.pattern,
      scope: 'project',
      confidence: 'inferred',
      supersedes: null,
    });
  }
  const w = out.active_work;
  if (w && (w.current_task || w.next_steps.length > 0 || w.blockers.length > 0)) {
    c.push({
      section: 'active_work',
      type: 'handover',
      title: titleFrom(w.current_task || w.next_steps[0] || 'Work in progress', 'Handover: '),
      body: handoverBody(w),
      scope: 'project',
      confidence: 'inferred',
      supersedes: null,
    });
  }
  return c;
}

/** Text compared for "the same fact": case, punctuation and spacing ignored. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
