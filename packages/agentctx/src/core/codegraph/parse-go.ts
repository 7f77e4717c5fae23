import { isSymbolName, type ParsedSource, type RawImport, stripComments, unique } from './source.js';

/** Go: `import "x"`, `import alias "x"` and `import ( … )` blocks; top-level funcs, methods and types as symbols. */

const SINGLE = /^[ \t]*import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"/gm;
const BLOCK = /^[ \t]*import[ \t]*\(([^)]*)\)/gm;
const IN_BLOCK = /^[ \t]*(?:[\w.]+[ \t]+)?"([^"\n]+)"/gm;
const DEFINITION = /^(?:func[ \t]+(?:\([^)]*\)[ \t]*)?([A-Za-z_]\w*)[ \t]*[[(]|type[ \t]+([A-Za-z_]\w*))/gm;

export function parseGo(source: string): ParsedSource {
  const text = stripComments(source, 'c');
  const specs: string[] = [];
  for (const m of text.matchAll(SINGLE)) specs.push(m[1]!);
  for (const b of text.matchAll(BLOCK)) for (const m of b[1]!.matchAll(IN_BLOCK)) specs.push(m[1]!);
  const imports: RawImport[] = unique(specs).map((spec) => ({ spec, names: [] }));
  const symbols = unique(
    [...text.matchAll(DEFINITION)].map((m) => (m[1] ?? m[2])!),
    isSymbolName,
  );
  return { lang: 'go', imports, symbols, childModules: [] };
}
