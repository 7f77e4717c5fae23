import { codeMentions } from './mentions.js';
import type { ResolvedSource } from './resolve.js';

/**
 * The wanted code graph, as a pure function of the scanned files and the records' text
 * (values, not node ids; `refresh.ts` maps them to the store). Only what relates two things is
 * kept: a module node needs two files (an importer and the file that is the module, or two
 * importers); a symbol node needs a record that names it or a file that imports it by name.
 */

export interface ScannedFile {
  /** Repo-relative path, as the file node stores it. */
  path: string;
  symbols: string[];
  resolved: ResolvedSource;
}

interface RecordText {
  id: string;
  text: string;
}

type ModuleRel = 'derives_from' | 'scoped_to';

export interface GraphPlan {
  /** file → module: `derives_from` = imports it, `scoped_to` = is it. */
  fileModule: { file: string; module: string; rel: ModuleRel }[];
  /** symbol → the file defining it (`scoped_to`). */
  symbolFile: { symbol: string; file: string }[];
  /** file → symbol it imports by name (`derives_from`). */
  fileSymbol: { file: string; symbol: string }[];
  /** record → symbol its text names as code (`record_entities`). */
  mentions: { record: string; symbol: string }[];
}

/** A name defined by more files than this is too ambiguous to link a mention to. */
const MAX_DEFINITIONS = 3;

function symbolValue(file: string, name: string): string {
  return `${file}#${name}`;
}

export function planGraph(files: readonly ScannedFile[], records: Iterable<RecordText>): GraphPlan {
  // modules: every edge first, then keep the modules two files meet on
  const moduleEdges = new Map<string, { file: string; module: string; rel: ModuleRel }>();
  const filesOf = new Map<string, Set<string>>();
  const touch = (file: string, module: string, rel: ModuleRel) => {
    moduleEdges.set(`${file}\u0000${module}\u0000${rel}`, { file, module, rel });
    const set = filesOf.get(module) ?? new Set<string>();
    set.add(file);
    filesOf.set(module, set);
  };
  const definers = new Map<string, ScannedFile[]>();
  for (const f of files) {
    for (const m of f.resolved.own) {
      touch(f.path, m, 'scoped_to');
      const list = definers.get(m);
      if (list) list.push(f);
      else definers.set(m, [f]);
    }
    for (const i of f.resolved.imports) touch(f.path, i.module, 'derives_from');
  }
  const fileModule = [...moduleEdges.values()].filter((e) => (filesOf.get(e.module)?.size ?? 0) >= 2);

  // symbols imported by name from a file of this scan that defines them
  const fileSymbol = new Map<string, { file: string; symbol: string }>();
  for (const f of files) {
    for (const i of f.resolved.imports) {
      for (const d of definers.get(i.module) ?? []) {
        if (d.path === f.path) continue;
        for (const n of i.names) {
          if (!d.symbols.includes(n)) continue;
          const symbol = symbolValue(d.path, n);
          fileSymbol.set(`${f.path}\u0000${symbol}`, { file: f.path, symbol });
        }
      }
    }
  }

  // symbols a record names as code
  const defined = new Map<string, string[]>();
  for (const f of files) {
    for (const name of f.symbols) {
      const list = defined.get(name);
      if (list) list.push(f.path);
      else defined.set(name, [f.path]);
    }
  }
  for (const [name, where] of defined) if (where.length > MAX_DEFINITIONS) defined.delete(name);
  const linkable = (name: string) => defined.has(name);
  const mentions: { record: string; symbol: string }[] = [];
  if (defined.size > 0) {
    for (const r of records) {
      for (const name of codeMentions(r.text, linkable)) {
        for (const file of defined.get(name)!)
          mentions.push({ record: r.id, symbol: symbolValue(file, name) });
      }
    }
  }

  const kept = new Set([...mentions.map((m) => m.symbol), ...[...fileSymbol.values()].map((e) => e.symbol)]);
  const symbolFile = [...kept].map((symbol) => ({ symbol, file: symbol.slice(0, symbol.lastIndexOf('#')) }));
  return { fileModule, symbolFile, fileSymbol: [...fileSymbol.values()], mentions };
}
