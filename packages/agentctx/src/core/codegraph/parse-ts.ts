import { isSymbolName, type ParsedSource, type RawImport, stripComments, unique } from './source.js';

/**
 * TypeScript / JavaScript: static imports and re-exports (`import … from 'x'`, `import 'x'`,
 * `export … from 'x'`), `require('x')`, `import('x')`; exported declarations as symbols.
 */

// The clause is bounded and `from` needs no leading `\s*`: either would make a long run of
// whitespace after an `export` quadratic to scan.
const FROM = /\b(?:import|export)\s+(?:type\s+)?([^;'"`]{0,4000}?)\bfrom\s*['"]([^'"\n]+)['"]/g;
const BARE_IMPORT = /(?:^|[;\s])import\s*['"]([^'"\n]+)['"]/g;
const CALL = /\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;
const DECLARATION =
  /^[ \t]*export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const\s+enum|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;

/** The names an import clause takes: `{ a, b as c, type D }` → a, b, D. Default and `* as` give none. */
function clauseNames(clause: string): string[] {
  const braces = /\{([^}]*)\}/.exec(clause);
  if (!braces) return [];
  return braces[1]!
    .split(',')
    .map((part) =>
      part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim(),
    )
    .filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
}

export function parseTs(source: string): ParsedSource {
  const text = stripComments(source, 'c');
  const imports: RawImport[] = [];
  const add = (spec: string, names: string[]) => {
    const same = imports.find((i) => i.spec === spec);
    if (same) same.names = unique([...same.names, ...names]);
    else imports.push({ spec, names: unique(names) });
  };
  for (const m of text.matchAll(FROM)) add(m[2]!, clauseNames(m[1]!));
  for (const m of text.matchAll(BARE_IMPORT)) add(m[1]!, []);
  for (const m of text.matchAll(CALL)) add(m[1]!, []);
  const symbols = unique(
    [...text.matchAll(DECLARATION)].map((m) => m[1]!),
    isSymbolName,
  );
  return { lang: 'ts', imports, symbols, childModules: [] };
}
