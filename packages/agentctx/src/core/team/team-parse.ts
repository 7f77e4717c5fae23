import { type Confidence, isConfidence } from '../../shared/types.js';
import {
  isTeamType,
  MARKER_PREFIX,
  normalBody,
  normalTitle,
  SECTION_HEADINGS,
  type TeamBlock,
  type TeamType,
  unescapeBodyLine,
} from './team-file.js';

/**
 * Read `.agentctx/context.md` back into blocks. Forgiving where a hand edit is harmless (blank
 * lines, a duplicated section heading after a union merge, a block without a marker under a
 * section: a record added by hand), strict where guessing could lose or invent a fact: a block
 * that cannot be read is reported with its line number and left out, and everything else is
 * returned.
 */

export interface ParsedBlock extends TeamBlock {
  /** 1-based line of the block's first line (its marker, or its heading when added by hand). */
  line: number;
  /** False for a block added by hand without a marker (no key, no date yet). */
  keyed: boolean;
}

export interface ParseError {
  line: number;
  message: string;
  /** The block's key when its marker could be read (the block is then not "removed"). */
  key?: string;
}

export interface ParsedFile {
  blocks: ParsedBlock[];
  errors: ParseError[];
}

const SECTION_BY_HEADING = new Map<string, TeamType>(
  Object.entries(SECTION_HEADINGS).map(([type, heading]) => [heading.toLowerCase(), type as TeamType]),
);
const KEY = /^[0-9A-Za-z][0-9A-Za-z_-]{0,63}$/;
const CONFLICT = /^(<{7}|={7}|>{7})(\s|$)/;

interface Marker {
  key?: string;
  type?: TeamType;
  valid_from?: string;
  confidence: Confidence;
  pinned: boolean;
  agent?: string;
}

function parseMarker(line: string, section: TeamType | null): Marker | string {
  const rest = line.slice(MARKER_PREFIX.length).trimEnd();
  if (!rest.endsWith('-->')) return 'the agentctx comment is not closed with --> on its line';
  const m: Marker = { confidence: 'explicit', pinned: false };
  for (const field of rest.slice(0, -3).trim().split(/\s+/)) {
    if (!field) continue;
    if (field === 'pinned') {
      m.pinned = true;
      continue;
    }
    const eq = field.indexOf('=');
    const name = eq === -1 ? field : field.slice(0, eq);
    const value = eq === -1 ? '' : field.slice(eq + 1);
    if (name === 'id') {
      if (!KEY.test(value)) return `bad id ${JSON.stringify(value)}`;
      m.key = value;
    } else if (name === 'type') {
      if (!isTeamType(value)) return `unknown or unsupported type ${JSON.stringify(value)}`;
      m.type = value;
    } else if (name === 'valid_from') {
      const t = Date.parse(value);
      if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(t))
        return `bad valid_from ${JSON.stringify(value)}`;
      m.valid_from = new Date(t).toISOString();
    } else if (name === 'confidence') {
      if (!isConfidence(value)) return `bad confidence ${JSON.stringify(value)}`;
      m.confidence = value;
    } else if (name === 'agent') {
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(value)) return `bad agent ${JSON.stringify(value)}`;
      m.agent = value;
    }
    // other fields: written by a newer agentctx, ignored
  }
  if (!m.key) return 'the agentctx comment has no id=';
  m.type ??= section ?? undefined;
  if (!m.type) return 'the agentctx comment has no type= and stands outside a known section';
  return m;
}

interface Open {
  line: number;
  marker: Marker | null;
  type: TeamType;
  title: string | null;
  body: string[];
  error: ParseError | null;
}

export function parseTeamFile(text: string): ParsedFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const blocks: ParsedBlock[] = [];
  const errors: ParseError[] = [];
  let section: TeamType | null = null;
  let cur: Open | null = null;

  const close = () => {
    if (!cur) return;
    const c = cur;
    cur = null;
    if (c.error) {
      errors.push(c.error);
      return;
    }
    const fail = (message: string) => errors.push({ line: c.line, message, key: c.marker?.key });
    if (c.title === null) return fail('a block needs a "### Title" line right after its agentctx comment');
    const title = normalTitle(c.title);
    const body = normalBody(c.body.map(unescapeBodyLine).join('\n'));
    if (!title) return fail('the block has an empty title');
    if (!body) return fail(`the block "${title}" has no text under its title`);
    blocks.push({
      key: c.marker?.key ?? '',
      type: c.marker?.type ?? c.type,
      title,
      body,
      valid_from: c.marker?.valid_from ?? '',
      confidence: c.marker?.confidence ?? 'explicit',
      pinned: c.marker?.pinned ?? false,
      ...(c.marker?.agent ? { agent: c.marker.agent } : {}),
      line: c.line,
      keyed: c.marker !== null,
    });
  };

  lines.forEach((raw, i) => {
    const n = i + 1;
    if (raw.startsWith(MARKER_PREFIX)) {
      close();
      const m = parseMarker(raw, section);
      if (typeof m === 'string') {
        const key = /\bid=([0-9A-Za-z_-]+)/.exec(raw)?.[1];
        cur = {
          line: n,
          marker: null,
          type: 'decision',
          title: null,
          body: [],
          error: { line: n, message: m, key },
        };
      } else cur = { line: n, marker: m, type: m.type!, title: null, body: [], error: null };
      return;
    }
    if (/^##\s/.test(raw) || /^#\s/.test(raw)) {
      close();
      section = /^##\s/.test(raw)
        ? (SECTION_BY_HEADING.get(raw.slice(2).trim().toLowerCase()) ?? null)
        : null;
      return;
    }
    if (CONFLICT.test(raw)) {
      const at: ParseError = { line: n, message: 'an unresolved git conflict marker', key: cur?.marker?.key };
      if (cur) cur.error ??= at;
      else errors.push(at);
      return;
    }
    if (/^###\s/.test(raw)) {
      if (cur && cur.title === null && !cur.error) {
        cur.title = raw.slice(4);
        return;
      }
      if (cur?.error && cur.title === null) {
        cur.title = raw.slice(4); // the broken block's own heading
        return;
      }
      close();
      if (!section) {
        errors.push({
          line: n,
          message: 'a "### " heading outside a known section and without an agentctx comment',
        });
        return;
      }
      cur = { line: n, marker: null, type: section, title: raw.slice(4), body: [], error: null };
      return;
    }
    if (!cur) return; // the header, blank lines, notes between sections
    if (cur.title === null && raw.trim() !== '' && !cur.error) {
      cur.error = {
        line: cur.line,
        message: `no "### Title" line after the agentctx comment (line ${n} holds text)`,
        key: cur.marker?.key,
      };
    }
    if (cur.title !== null) cur.body.push(raw);
  });
  close();
  return { blocks, errors };
}
