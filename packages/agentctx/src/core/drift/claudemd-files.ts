import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A CLAUDE.md file (or a file it imports) as read from the project. */
export interface MemoryFile {
  /** Path relative to the project root, with forward slashes. */
  rel: string;
  text: string;
}

/** A passage of a memory file: a list item, a paragraph, a heading or a code line. */
export interface Passage {
  file: string;
  /** 1-based line where the passage starts. */
  line: number;
  /** How many lines it spans. */
  lines: number;
  text: string;
}

const ENTRY_FILES = ['CLAUDE.md', '.claude/CLAUDE.md'];
const MAX_DEPTH = 4;
const MAX_FILES = 16;
const MAX_BYTES = 256 * 1024;

function inside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
}

/** `@path` imports of a memory file, outside code fences and code spans. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const raw of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const line = raw.replace(/`[^`]*`/g, ' ');
    for (const m of line.matchAll(/(?:^|\s)@([^\s`'"()<>[\]]+)/g)) {
      const path = m[1]!.replace(/[.,;:!?]+$/, '');
      if (path.startsWith('~') || path.includes('://')) continue;
      if (!/[./]/.test(path)) continue; // "@someone" is a mention, not a file
      out.push(path);
    }
  }
  return out;
}

/**
 * The project's CLAUDE.md, `.claude/CLAUDE.md`, and the files they import with `@path`
 * (relative to the importing file, bounded depth, inside the project root only). Read-only.
 */
export function readMemoryFiles(root: string): MemoryFile[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  const files: MemoryFile[] = [];
  const seen = new Set<string>();
  const visit = (abs: string, depth: number): void => {
    if (files.length >= MAX_FILES || depth > MAX_DEPTH) return;
    let real: string;
    try {
      if (!existsSync(abs)) return;
      real = realpathSync(abs);
      if (!inside(realRoot, real) || seen.has(real)) return;
      const st = statSync(real);
      if (!st.isFile() || st.size > MAX_BYTES) return;
    } catch {
      return;
    }
    seen.add(real);
    let text: string;
    try {
      text = readFileSync(real, 'utf8');
    } catch {
      return;
    }
    files.push({ rel: relative(realRoot, real).split(sep).join('/'), text });
    for (const imp of importsOf(text)) visit(resolve(dirname(real), imp), depth + 1);
  };
  for (const entry of ENTRY_FILES) visit(join(realRoot, entry), 0);
  return files;
}

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
const HEADING = /^\s{0,3}#{1,6}\s+/;

/** Split a memory file into passages: list items (with continuation lines), paragraphs, headings, code lines. */
export function passagesOf(file: MemoryFile): Passage[] {
  const out: Passage[] = [];
  let cur: Passage | null = null;
  let fenced = false;
  const flush = () => {
    if (cur && cur.text.trim())
      out.push({ ...cur, lines: cur.text.split('\n').length, text: cur.text.trim() });
    cur = null;
  };
  file.text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const n = i + 1;
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) {
      if (line.trim()) out.push({ file: file.rel, line: n, lines: 1, text: line.trim() });
      return;
    }
    if (!line.trim()) {
      flush();
      return;
    }
    if (HEADING.test(line) || LIST_ITEM.test(line)) {
      flush();
      cur = { file: file.rel, line: n, lines: 1, text: line };
      if (HEADING.test(line)) flush();
      return;
    }
    if (cur) cur.text += `\n${line}`;
    else cur = { file: file.rel, line: n, lines: 1, text: line };
  });
  flush();
  return out;
}
