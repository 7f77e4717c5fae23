import { isSymbolName, type ParsedSource, type RawImport, stripComments, unique } from './source.js';

/**
 * Rust: `use` trees (`use crate::a::{b, c::D};`, globs, renames), `extern crate x;` and
 * `mod x;` declarations; `pub` items and top-level `fn`s as symbols. Each leaf of a use tree
 * becomes one import whose spec is the whole path (`crate::a::c::D`); resolution decides which
 * part of it is a module and which part a name.
 */

const USE = /^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+([^;]+);/gm;
const EXTERN = /^[ \t]*extern[ \t]+crate[ \t]+(\w+)/gm;
const MOD = /^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;/gm;
const ITEM =
  /^(?:[ \t]*pub(?:\([^)]*\))?[ \t]+|)(?:async[ \t]+)?(?:unsafe[ \t]+)?(?:const[ \t]+)?(?:extern[ \t]+"[^"]*"[ \t]+)?(?:fn|struct|enum|trait|type|union|static|const)[ \t]+([A-Za-z_]\w*)/gm;

/** Split on commas outside braces. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

/** The leaf paths of a use tree: `a::{b, c::{d, self}}` → a::b, a::c::d, a::c. */
export function useLeaves(tree: string, prefix: string[] = [], depth = 0): string[][] {
  const t = tree
    .replace(/\s*(::|[{},])\s*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (depth > 8 || !t) return [];
  const brace = t.indexOf('{');
  if (brace === -1) {
    const segs = [...prefix, ...t.split(' as ')[0]!.split('::')].filter(Boolean);
    const last = segs[segs.length - 1];
    if (last === 'self' || last === '*') segs.pop();
    return segs.length > 0 && segs.every((s) => /^\w+$/.test(s)) ? [segs] : [];
  }
  if (!t.endsWith('}')) return [];
  const head = t.slice(0, brace).replace(/::$/, '').split('::').filter(Boolean);
  return splitTop(t.slice(brace + 1, -1)).flatMap((part) => useLeaves(part, [...prefix, ...head], depth + 1));
}

export function parseRust(source: string): ParsedSource {
  const text = stripComments(source, 'c');
  const specs: string[] = [];
  for (const m of text.matchAll(USE)) for (const leaf of useLeaves(m[1]!)) specs.push(leaf.join('::'));
  for (const m of text.matchAll(EXTERN)) specs.push(m[1]!);
  const imports: RawImport[] = unique(specs).map((spec) => ({ spec, names: [] }));
  const symbols = unique(
    [...text.matchAll(ITEM)].map((m) => m[1]!),
    isSymbolName,
  );
  const childModules = unique([...text.matchAll(MOD)].map((m) => m[1]!));
  return { lang: 'rust', imports, symbols, childModules };
}
