/**
 * What one source file says about the code around it, before resolution: the modules it imports
 * (as written, with the names it takes from each) and the top-level names it defines.
 */

type Lang = 'ts' | 'python' | 'go' | 'rust';

export interface RawImport {
  /** The specifier as written: './pay.js', 'stripe', '..models', 'github.com/x/y', 'crate::pay'. */
  spec: string;
  /** Names taken from it (`import { a, b }`, `from m import a`, `use m::{a, b}`); [] when none. */
  names: string[];
}

export interface ParsedSource {
  lang: Lang;
  imports: RawImport[];
  /** Top-level names the file defines (functions, classes, types, constants). */
  symbols: string[];
  /** Rust `mod x;` declarations: child modules of this file's module. */
  childModules: string[];
}

const EXTENSIONS: Record<string, Lang> = {
  ts: 'ts',
  tsx: 'ts',
  mts: 'ts',
  cts: 'ts',
  js: 'ts',
  jsx: 'ts',
  mjs: 'ts',
  cjs: 'ts',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
};

/** The language of a path, by its extension, or null for anything else. */
export function languageOf(path: string): Lang | null {
  const m = /\.([A-Za-z]+)$/.exec(path);
  return m ? (EXTENSIONS[m[1]!.toLowerCase()] ?? null) : null;
}

/** Shorter names than this are too common to stand for one symbol. */
const SYMBOL_MIN_LENGTH = 4;
const GENERIC = new Set(['main', 'init', 'setup', 'index', 'default', 'test', 'tests', 'self', 'this']);

/** Is `name` distinctive enough to be a symbol node? */
export function isSymbolName(name: string): boolean {
  return name.length >= SYMBOL_MIN_LENGTH && name.length <= 100 && !GENERIC.has(name.toLowerCase());
}

/** Keep order, drop repeats and names that fail `keep`. */
export function unique(items: Iterable<string>, keep: (s: string) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const s of items) if (s && keep(s) && !out.includes(s)) out.push(s);
  return out;
}

/**
 * Blank out comments (kept line structure, so `^` anchors still work): `/* … *\/` blocks and
 * `//` to the end of a line when it starts the line or follows whitespace (so `http://` in a
 * string survives), or `#` to the end of a line for Python.
 */
export function stripComments(text: string, style: 'c' | 'hash'): string {
  if (style === 'hash') return text.replace(/(^|[ \t])#.*$/gm, '$1');
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[ \t])\/\/.*$/gm, '$1');
}
