/**
 * Just enough TOML to edit Codex's config.toml surgically: where each table header sits and
 * which key path it names. Values are never parsed or rewritten; agentctx only appends its own
 * tables and removes them again, so every byte of the user's text stays as it was.
 */

interface TableHeader {
  /** The header's key path, unquoted: `[hooks.state."a:b"]` → ['hooks', 'state', 'a:b']. */
  path: string[];
  /** `[[x]]` */
  array: boolean;
  /** Offset of the header line's first character. */
  start: number;
  /** Offset just past the table's last line (the next header's line start, or the text's end). */
  end: number;
}

/** Parse a dotted key (`a . "b c" . 'd'`); null when it is not one. */
function parseKeyPath(src: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  const ws = () => {
    while (src[i] === ' ' || src[i] === '\t') i++;
  };
  for (;;) {
    ws();
    if (src[i] === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return null;
      try {
        out.push(JSON.parse(src.slice(i, j + 1)) as string);
      } catch {
        return null;
      }
      i = j + 1;
    } else if (src[i] === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) return null;
      out.push(src.slice(i + 1, j));
      i = j + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(src.slice(i));
      if (!m) return null;
      out.push(m[0]);
      i += m[0].length;
    }
    ws();
    if (i >= src.length) return out;
    if (src[i] !== '.') return null;
    i++;
  }
}

/** Where a line's header ends (`]` or `]]`), ignoring brackets inside quoted keys. */
function headerInner(line: string): { inner: string; array: boolean } | null {
  const t = line.trimStart();
  if (!t.startsWith('[')) return null;
  const array = t.startsWith('[[');
  let i = array ? 2 : 1;
  let quote: string | null = null;
  for (; i < t.length; i++) {
    const c = t[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ']') break;
  }
  if (i >= t.length) return null;
  if (array && t[i + 1] !== ']') return null;
  const rest = t.slice(i + (array ? 2 : 1)).trim();
  if (rest && !rest.startsWith('#')) return null;
  return { inner: t.slice(array ? 2 : 1, i), array };
}

/**
 * Every table header of the text, in order, with its span. Lines inside multi-line strings
 * (`"""` or `'''`) are not headers.
 */
export function tableHeaders(text: string): TableHeader[] {
  const headers: TableHeader[] = [];
  let inMulti: string | null = null;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, lineEnd).replace(/\r?\n$/, '');
    if (inMulti) {
      if (countDelims(line, inMulti) % 2 === 1) inMulti = null;
    } else {
      const h = headerInner(line);
      const path = h ? parseKeyPath(h.inner) : null;
      if (h && path) {
        const prev = headers[headers.length - 1];
        if (prev) prev.end = pos;
        headers.push({ path, array: h.array, start: pos, end: text.length });
      } else {
        for (const d of ['"""', "'''"]) if (countDelims(line, d) % 2 === 1) inMulti = d;
      }
    }
    pos = lineEnd;
  }
  return headers;
}

function countDelims(line: string, d: string): number {
  let n = 0;
  for (let i = line.indexOf(d); i >= 0; i = line.indexOf(d, i + 3)) n++;
  return n;
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** A key as TOML writes it: bare when it can be, else a basic string. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** A string value (a basic string; JSON's escapes are all valid TOML escapes). */
export function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The line ending the text already uses (CRLF when its first line break is one). */
export function lineEnding(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * What to put before a block appended to `text` so it starts on a line of its own after one
 * blank line (nothing for an empty file).
 */
export function separatorBefore(text: string, eol: string): string {
  if (text === '') return '';
  if (text.endsWith(`${eol}${eol}`) || text === eol) return '';
  if (text.endsWith(eol)) return eol;
  return `${eol}${eol}`;
}
