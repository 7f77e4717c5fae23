// Lists the exports of the packages' sources that nothing outside their own file imports: an
// export no one uses is dead code, and one used only in its own file should not be exported.
// Importers are every TypeScript and JavaScript file of the packages (sources, tests, scripts,
// benchmarks); a package's public entry (its `exports`) counts as used. Exits 1 when it finds
// any, so `npm test` keeps the count at zero. `--json` prints the list as JSON.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = ['packages/agentctx', 'packages/agentctx-ui'];
/**
 * Files whose exports are an interface kept whole on purpose: the dashboard package's `exports`
 * entry, and the store driver's API (`openDb` and the `Db` contract every driver keeps).
 */
const PUBLIC = new Set([
  'packages/agentctx-ui/src/server/index.ts',
  'packages/agentctx/src/database/open.ts',
]);
const SKIP_DIRS = new Set(['node_modules', 'dist', 'fixtures', '.git']);

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(p, out);
    } else if (/\.(ts|tsx|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const files = packages.flatMap((p) =>
  ['src', 'test', 'scripts', 'bench'].flatMap((d) => {
    const dir = join(root, p, d);
    try {
      return walk(dir);
    } catch {
      return [];
    }
  }),
);
const isSource = (f) => packages.some((p) => f.startsWith(join(root, p, 'src') + '/'));

/** A module specifier from `from` to a file of ours, or null (a package, a missing file). */
function resolveSpec(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|mjs|cjs)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')]) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {}
  }
  return null;
}

const parsed = new Map(
  files.map((f) => [f, ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)]),
);

/** file → its exported names (with the line of each). */
const exported = new Map();
const hasExport = (n) => ts.getCombinedModifierFlags(n) & ts.ModifierFlags.Export;
for (const [f, sf] of parsed) {
  if (!isSource(f)) continue;
  const names = new Map();
  const line = (n) => sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st) && hasExport(st)) {
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) names.set(d.name.text, line(d));
    } else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      hasExport(st) &&
      st.name
    ) {
      names.set(st.name.text, line(st));
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const e of st.exportClause.elements) names.set(e.name.text, line(e));
    }
  }
  exported.set(f, names);
}

/** `${file}#${name}` imported by another file; files imported whole (`*`, dynamic import). */
const used = new Set();
const usedWhole = new Set([...PUBLIC].map((p) => join(root, p)));
for (const [f, sf] of parsed) {
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const target = resolveSpec(f, node.moduleSpecifier.text);
      if (target && target !== f) {
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (clause?.name) used.add(`${target}#default`);
          const b = clause?.namedBindings;
          if (b && ts.isNamespaceImport(b)) usedWhole.add(target);
          if (b && ts.isNamedImports(b))
            for (const e of b.elements) used.add(`${target}#${(e.propertyName ?? e.name).text}`);
        } else if (!node.exportClause) usedWhole.add(target);
        else if (ts.isNamedExports(node.exportClause))
          for (const e of node.exportClause.elements)
            used.add(`${target}#${(e.propertyName ?? e.name).text}`);
      }
    }
    // a bundle entry named in a build script (`entryPoints: ['src/bench/main.ts']`) is public
    if (ts.isStringLiteral(node) && /^src\/[\w/.-]+\.tsx?$/.test(node.text)) {
      const pkg = packages.find((p) => f.startsWith(join(root, p) + '/'));
      if (pkg) usedWhole.add(join(root, pkg, node.text));
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolveSpec(f, node.arguments[0].text);
      if (target) usedWhole.add(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const dead = [];
for (const [f, names] of exported) {
  if (usedWhole.has(f)) continue;
  const text = parsed.get(f).text;
  for (const [name, line] of names) {
    if (used.has(`${f}#${name}`)) continue;
    const uses =
      text.match(new RegExp(`(?<![\\w$])(?<![^.]\\.)${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ??
      0;
    dead.push({ file: relative(root, f), line, name, usedInFile: uses > 1 });
  }
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(dead, null, 1));
} else {
  for (const d of dead)
    console.log(
      `${d.file}:${d.line} ${d.name}: ${d.usedInFile ? 'used only in its own file: un-export it' : 'used nowhere: remove it'}`,
    );
  console.log(`dead exports: ${dead.length}`);
}
process.exitCode = dead.length > 0 ? 1 : 0;
