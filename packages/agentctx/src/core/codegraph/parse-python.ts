import { isSymbolName, type ParsedSource, type RawImport, stripComments, unique } from './source.js';

/**
 * Python: `import a.b, c as d` and `from .x import y, z` (parenthesised lists across lines too);
 * top-level `def` / `class` names not starting with an underscore as symbols.
 */

const IMPORT = /^[ \t]*import[ \t]+([\w. \t,]+)$/gm;
const FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm;
const DEFINITION = /^(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z]\w*)/gm;
const NAME = /^[A-Za-z_]\w*$/;

export function parsePython(source: string): ParsedSource {
  const text = stripComments(source, 'hash');
  const imports: RawImport[] = [];
  const add = (spec: string, names: string[]) => {
    const same = imports.find((i) => i.spec === spec);
    if (same) same.names = unique([...same.names, ...names]);
    else imports.push({ spec, names: unique(names) });
  };
  for (const m of text.matchAll(IMPORT)) {
    for (const part of m[1]!.split(',')) {
      const mod = part
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim();
      if (/^[A-Za-z_][\w.]*$/.test(mod)) add(mod, []);
    }
  }
  for (const m of text.matchAll(FROM)) {
    const spec = m[1]!;
    if (!spec) continue;
    const list = m[2]!.replace(/^\(|\)$/g, '').replace(/\\\n/g, ' ');
    const names = list
      .split(',')
      .map((p) =>
        p
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter((n) => NAME.test(n));
    add(spec, names);
  }
  const symbols = unique(
    [...text.matchAll(DEFINITION)].map((m) => m[1]!),
    isSymbolName,
  );
  return { lang: 'python', imports, symbols, childModules: [] };
}
