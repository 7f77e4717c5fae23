import type { Db } from '../../database/open.js';
import { profileNameOf } from '../../database/records-repo.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { type WriterFilter, writerKey } from '../../database/writer-filter.js';
import { estimateTokens } from '../../shared/tokens.js';
import type { Digest } from './digest-file.js';
import { type Line, UNCONFIRMED } from './digest-lines.js';
import {
  type DigestSection,
  type DriftCounts,
  decisionsSection,
  driftSection,
  handoverSection,
  indexSection,
  preferencesSection,
  profileSection,
  type SectionName,
  storedDriftCounts,
} from './digest-sections.js';

/**
 * The SessionStart digest (CONTRACTS.md §digest): what a developer would tell a colleague joining the
 * project, in at most 1,500 tokens by the conservative estimator. Sections, in priority order:
 *
 *   project profile ~200 · decisions and conventions ~500 · last handover ~400 ·
 *   reinforced global preferences ~200 · MCP index hint ~100 · CLAUDE.md drift hint ~60
 *
 * Each section is cut to its own budget in whole lines, then the whole text is cut from the
 * bottom until it fits the hard cap. Inferred records stay out until reinforced (CONTRACTS.md
 * §stored-derived); the last handover, usually summarised automatically, is the one line labelled
 * "(unconfirmed)". digest-sections.ts chooses and orders each section's lines; this file fits them
 * to the budgets.
 */

export const DIGEST_MAX_TOKENS = 1500;

export const SECTION_BUDGETS = {
  profile: 200,
  decisions: 500,
  handover: 400,
  preferences: 200,
  index: 100,
  drift: 60,
} as const satisfies Record<SectionName, number>;

interface ComposeOptions {
  now: Date;
  /** Drift candidates from a fresh scan; read from stored drift scores when absent. */
  drift?: DriftCounts;
  /** Override the hard cap (tests only ever lower it). */
  maxTokens?: number;
  /** Record embeddings: when present, decisions are ordered by RRF of stored and vector rank. */
  vectors?: VectorStore;
  /** Whose records it may show (values of `records.agent`); stamped into the digest as `writers`. */
  writers?: WriterFilter;
}

interface ComposedDigest extends Digest {
  /** The sections kept, with their token estimates. */
  sections: { name: SectionName; tokens: number; lines: number }[];
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
  const writers = writerKey(opts.writers);
  const top: DigestSection[] = [
    profileSection(db, project.id, opts.writers),
    decisionsSection(db, project.id, opts.now, opts.vectors, opts.writers),
    handoverSection(db, project.id, opts.now, opts.writers),
    preferencesSection(db, opts.writers),
  ];
  const fitted: { name: SectionName; lines: Line[] }[] = top.map((s) => ({
    name: s.name,
    lines: fitSection(s),
  }));
  const shown = new Set(fitted.flatMap((f) => f.lines.map((l) => l.id).filter((x): x is string => !!x)));
  const drift = opts.drift ?? storedDriftCounts(db, project.id, opts.now);
  for (const s of [indexSection(db, project.id, shown, opts.writers), driftSection(drift)]) {
    fitted.push({ name: s.name, lines: fitSection(s) });
  }
  const body = fitted.flatMap((f) => f.lines.map((l) => ({ ...l, section: f.name })));
  if (body.length === 0) {
    return { text: '', ids: [], tokens: 0, generated_at: opts.now.toISOString(), writers, sections: [] };
  }
  const anyUnconfirmed = body.some((l) => l.text.includes(UNCONFIRMED));
  // the one name status, export and the dashboard show: the profile's, else the project's own
  const name = profileNameOf(db, project.id) ?? project.name;
  const header: Line[] = [
    { text: `# Project context for ${name} (from agentctx)` },
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
    return { text: '', ids: [], tokens: 0, generated_at: opts.now.toISOString(), writers, sections: [] };
  }
  const text = render(lines);
  const ids = [...new Set(lines.map((l) => l.id).filter((x): x is string => !!x))];
  const sections = fitted
    .map((f) => {
      const kept = lines.filter((l) => l.section === f.name);
      return { name: f.name, tokens: estimateTokens(kept.map((l) => l.text).join('\n')), lines: kept.length };
    })
    .filter((s) => s.lines > (HEADINGS[s.name] ? 2 : 1));
  return { text, ids, tokens: estimateTokens(text), generated_at: opts.now.toISOString(), writers, sections };
}
