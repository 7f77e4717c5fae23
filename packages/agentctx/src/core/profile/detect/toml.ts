export type Toml = Record<string, Record<string, string>>;

/**
 * Enough TOML for manifests: `[section]` / `[[section]]` headers, `key = value` lines (values
 * kept raw; multi-line arrays joined). Nested tables are addressed by their dotted header.
 */
export function readTomlSections(text: string): Toml {
  const out: Toml = { '': {} };
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = stripTomlComment(lines[i]!).trim();
    if (!line) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      section = header[1]!.replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      out[section] = out[section] ?? {};
      continue;
    }
    const kv = /^("?[A-Za-z0-9_.-]+"?)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    let value = kv[2]!;
    let depth = bracketDepth(value);
    while (depth > 0 && i + 1 < lines.length) {
      i++;
      const next = stripTomlComment(lines[i]!).trim();
      value += ` ${next}`;
      depth += bracketDepth(next);
    }
    const table = out[section] ?? {};
    table[kv[1]!.replace(/"/g, '')] = value.trim();
    out[section] = table;
  }
  return out;
}

function stripTomlComment(line: string): string {
  let inStr: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === inStr) inStr = null;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function bracketDepth(s: string): number {
  let d = 0;
  let inStr: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === inStr) inStr = null;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === '[' || c === '{') d++;
    else if (c === ']' || c === '}') d--;
  }
  return d;
}

/** A TOML string value, or the strings of a TOML array. */
export function tomlString(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const m = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(raw.trim());
  return m ? (m[1] ?? m[2]) : undefined;
}

export function tomlStrings(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...raw.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => (m[1] ?? m[2] ?? '').trim());
}
