import { join } from 'node:path';
import { readRegularFile } from '../files/regular-file.js';
import { markdownFiles } from './auto-memory.js';

/**
 * The notes of an auto-memory folder (see auto-memory.ts for the layout): one per topic file,
 * and one per entry of MEMORY.md that is not a pointer to a topic file (older versions and
 * hand edits keep notes in the index itself). Plain text, unredacted: the record services'
 * redaction gate sees it before anything is stored.
 */

interface MemoryNote {
  /** The file the note came from (a topic file names one note; MEMORY.md many). */
  file: string;
  /** Claude Code's note type, when the frontmatter gives one: user, feedback, project, reference. */
  kind: string;
  /** A one-line summary: the description, else the name, else the first line. */
  title: string;
  body: string;
}

interface MemoryRead {
  notes: MemoryNote[];
  files: string[];
  /** Files that could not be read (not regular, too large, unreadable). */
  unreadable: string[];
}

/** Topic files hold one short fact; anything larger is not a note. */
const MAX_FILE_BYTES = 256 * 1024;

function unquote(v: string): string {
  const t = v.trim();
  return (t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))
    ? t.slice(1, -1)
    : t;
}

/** Split a `---` frontmatter off; its `key: value` lines, nested keys flattened to their last part. */
function splitFrontmatter(text: string): { meta: Record<string, string>; body: string } {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(src);
  if (!m) return { meta: {}, body: src.trim() };
  const meta: Record<string, string> = {};
  for (const line of m[1]!.split('\n')) {
    const kv = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (kv?.[2]) meta[kv[1]!.toLowerCase()] ??= unquote(kv[2]);
  }
  return { meta, body: src.slice(m[0].length).trim() };
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line
    .replace(/^#+\s*/, '')
    .replace(/^[-*+]\s+/, '')
    .trim();
}

function topicNote(file: string, text: string): MemoryNote | null {
  const { meta, body } = splitFrontmatter(text);
  const name = meta.name ? meta.name.replace(/[-_]+/g, ' ').trim() : '';
  const title = meta.description || name || firstLine(body);
  const content = body || meta.description || '';
  if (!title || !content) return null;
  return { file, kind: (meta.type ?? '').toLowerCase(), title, body: content };
}

/** A MEMORY.md line pointing at a topic file of the folder: `- [Title](file.md) — hook`. */
function isPointer(line: string, files: ReadonlySet<string>): boolean {
  const m = /^\s*[-*+]\s*\[[^\]]*\]\(([^)\s]+)\)/.exec(line);
  return m !== null && files.has(decodeURIComponent(m[1]!.replace(/^\.\//, '')));
}

/** MEMORY.md's own notes: each list item (with its continuation lines) or paragraph, under its heading. */
function indexNotes(text: string, files: ReadonlySet<string>): MemoryNote[] {
  const { body } = splitFrontmatter(text);
  const notes: MemoryNote[] = [];
  let heading = '';
  let cur: string[] = [];
  const flush = () => {
    const t = cur.join('\n').trim();
    cur = [];
    if (!t) return;
    const title = firstLine(t);
    const item = t.replace(/^[-*+]\s+|^\d+[.)]\s+/, '');
    notes.push({
      file: 'MEMORY.md',
      kind: '',
      title,
      body: heading ? `${item}\n(${heading})` : item,
    });
  };
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) {
      cur.push(line);
      continue;
    }
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    if (isPointer(line, files)) {
      flush();
      continue;
    }
    if (/^\s{0,1}([-*+]|\d+[.)])\s+/.test(line)) flush(); // a new item
    cur.push(line);
  }
  flush();
  return notes;
}

export function readMemoryNotes(dir: string): MemoryRead {
  const files = markdownFiles(dir);
  const topics = new Set(files.filter((f) => f !== 'MEMORY.md'));
  const notes: MemoryNote[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readRegularFile(join(dir, file), MAX_FILE_BYTES + 1);
    } catch {
      unreadable.push(file);
      continue;
    }
    if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
      unreadable.push(file);
      continue;
    }
    if (file === 'MEMORY.md') notes.push(...indexNotes(text, topics));
    else {
      const n = topicNote(file, text);
      if (n) notes.push(n);
    }
  }
  return { notes, files, unreadable };
}
