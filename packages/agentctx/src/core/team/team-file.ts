import { sha256Hex } from '../../shared/sha256.js';
import type { Confidence } from '../../shared/types.js';

/**
 * The format of `<repo>/.agentctx/context.md` (SPEC §2.4, derived): a fixed header, then one
 * section per record type, each holding one block per record:
 *
 *   <!-- agentctx:id=KEY type=decision valid_from=2026-05-01T10:00:00.000Z confidence=explicit -->
 *   ### Title
 *
 *   Body, as many lines as it has.
 *
 * The comment carries what a reader on GitHub does not need (it is not rendered); the key is
 * stable along a supersession chain, so a superseded record keeps its place. Blocks are sorted
 * by type, then key (ULIDs: new records go last in their section), and separated by one blank
 * line. Nothing in the file depends on the clone (no names, counts or dates of export), so two
 * developers exporting the same records write the same bytes. `.agentctx/.gitattributes` asks
 * git for its union merge on the file: two branches adding records at the same place keep both
 * blocks, and two versions of one block come back as two blocks with the same key, which the
 * import resolves (team-resolve.ts).
 */

export const TEAM_DIR = '.agentctx';
export const TEAM_FILE = 'context.md';
export const TEAM_ATTRIBUTES = `${TEAM_FILE} merge=union\n`;

/** Types a block may have: everything but handovers (one developer's task state). */
export const TEAM_TYPES = ['profile', 'decision', 'convention', 'preference', 'discovery', 'bugfix'] as const;
export type TeamType = (typeof TEAM_TYPES)[number];

export const SECTION_HEADINGS: Readonly<Record<TeamType, string>> = {
  profile: 'Project profile',
  decision: 'Decisions',
  convention: 'Conventions',
  preference: 'Preferences',
  discovery: 'Discoveries',
  bugfix: 'Bug fixes',
};

export const FILE_HEADER = [
  '# Team context',
  '',
  '<!-- Written by `agentctx team export` from the agentctx store; commit it with your code.',
  'After a pull, run `agentctx team import`. You may edit a block or add one (a `### Title` and',
  'its text under a section); keep the agentctx:id lines, and import your edits. -->',
].join('\n');

export const MARKER_PREFIX = '<!-- agentctx:';

export interface TeamBlock {
  key: string;
  type: TeamType;
  title: string;
  body: string;
  valid_from: string;
  confidence: Confidence;
  pinned: boolean;
  /** The coding agent whose session wrote it, when not the default (Claude Code). */
  agent?: string;
}

export function isTeamType(v: unknown): v is TeamType {
  return typeof v === 'string' && (TEAM_TYPES as readonly string[]).includes(v);
}

/** A title on one line, as a Markdown heading holds it. */
export function normalTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim();
}

/**
 * A body as the file holds it: `\n` line ends, no trailing spaces on a line (editors strip them),
 * no blank lines before or after.
 */
export function normalBody(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

/**
 * Body lines the parser would take for structure (a heading, a marker, a git conflict marker)
 * get one more leading backslash; unescape takes one off. A bijection on lines.
 */
const STRUCTURAL = /^\\*(#{1,3}(?:\s|$)|<!-- agentctx:|<{7}|={7}|>{7})/;

export function escapeBodyLine(line: string): string {
  return STRUCTURAL.test(line) ? `\\${line}` : line;
}

export function unescapeBodyLine(line: string): string {
  return line.startsWith('\\') && STRUCTURAL.test(line) ? line.slice(1) : line;
}

/** The hash that tells one version of a block from another: type, title and body only. */
export function blockSha(b: Pick<TeamBlock, 'type' | 'title' | 'body'>): string {
  return sha256Hex(`${b.type}\n${normalTitle(b.title)}\n${normalBody(b.body)}`).slice(0, 32);
}

export function markerLine(b: TeamBlock): string {
  const fields = [
    `id=${b.key}`,
    `type=${b.type}`,
    `valid_from=${b.valid_from}`,
    `confidence=${b.confidence}`,
    ...(b.pinned ? ['pinned'] : []),
    // provenance, written only for agents other than the store's default so older files stay as they were
    ...(b.agent && b.agent !== 'claude-code' ? [`agent=${b.agent}`] : []),
  ];
  return `${MARKER_PREFIX}${fields.join(' ')} -->`;
}

export function renderBlock(b: TeamBlock): string {
  const body = normalBody(b.body).split('\n').map(escapeBodyLine).join('\n');
  return `${markerLine(b)}\n### ${normalTitle(b.title)}\n\n${body}\n`;
}

/** Sections in file order, blocks by key: the order that keeps merges apart. */
export function compareBlocks(a: TeamBlock, b: TeamBlock): number {
  const t = TEAM_TYPES.indexOf(a.type) - TEAM_TYPES.indexOf(b.type);
  if (t !== 0) return t;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The whole file for these blocks (sorted here). */
export function renderTeamFile(blocks: readonly TeamBlock[]): string {
  const sorted = [...blocks].sort(compareBlocks);
  const parts: string[] = [FILE_HEADER, ''];
  for (const type of TEAM_TYPES) {
    const own = sorted.filter((b) => b.type === type);
    if (own.length === 0) continue;
    parts.push(`## ${SECTION_HEADINGS[type]}`, '');
    for (const b of own) parts.push(renderBlock(b));
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

export function fileSha(text: string): string {
  return sha256Hex(text);
}
