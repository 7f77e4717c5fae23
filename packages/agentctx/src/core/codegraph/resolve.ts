import { posix } from 'node:path';
import type { ParsedSource, RawImport } from './source.js';
import { isGoStdlib, isNodeBuiltin, isPythonStdlib, isRustStdlib } from './stdlib.js';

/**
 * Import specifiers → module node values. A module inside the repository is named by its
 * repo-relative path without extension (`src/pay` for src/pay.ts, src/pay/index.ts,
 * src/pay.rs or src/pay/mod.rs; `app/models` for app/models.py; a Go package by its folder),
 * so the file that *is* a module and the files that import it meet on one node. A package from
 * outside is `npm:`, `py:`, `go:` or `rust:` + its name. Standard libraries give nothing.
 */

/** What resolution may ask of the repository (the disk in production, a map in tests). */
export interface RepoFs {
  exists(rel: string): boolean;
  /** The file's text, or null when unreadable or too large. */
  read(rel: string): string | null;
}

interface ResolvedImport {
  module: string;
  /** Names taken from the module (for named-import edges to its symbols). */
  names: string[];
}

export interface ResolvedSource {
  /** The module(s) this file is. */
  own: string[];
  imports: ResolvedImport[];
}

const { dirname, join, normalize } = posix;
const TS_EXT = /\.(?:[cm]?[jt]sx?)$/;

function clean(p: string): string | null {
  const n = normalize(p).replace(/\/+$/, '');
  if (n === '' || n === '.') return '.';
  if (n.startsWith('..') || n.startsWith('/')) return null;
  return n;
}

function dirOf(file: string): string {
  const d = dirname(file);
  return d === '' ? '.' : d;
}

// ---- TypeScript / JavaScript ------------------------------------------------------------

function tsOwn(file: string): string[] {
  const base = file.replace(TS_EXT, '');
  return [/(^|\/)index$/.test(base) ? dirOf(base) : base];
}

function tsModule(file: string, spec: string): string | null {
  if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    const p = clean(join(dirOf(file), spec));
    if (!p) return null;
    const base = p.replace(TS_EXT, '');
    return /(^|\/)index$/.test(base) ? dirOf(base) : base;
  }
  if (spec.startsWith('/') || isNodeBuiltin(spec)) return null;
  if (/^[@~#]\//.test(spec) || spec.startsWith('#')) return `alias:${spec.replace(TS_EXT, '')}`;
  const parts = spec.split('/');
  const name = spec.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return /^(?:@[\w.-]+\/)?[\w.-]+$/.test(name) ? `npm:${name}` : null;
}

// ---- Python ---------------------------------------------------------------------------

function pyOwn(file: string): string[] {
  const base = file.replace(/\.pyi?$/, '');
  return [/(^|\/)__init__$/.test(base) ? dirOf(base) : base];
}

function pyModuleExists(fs: RepoFs, p: string): boolean {
  const rel = p === '.' ? '' : `${p}/`;
  return p !== '.' && (fs.exists(`${p}.py`) || fs.exists(`${p}.pyi`) || fs.exists(`${rel}__init__.py`));
}

/** The longest leading part of `segs` under `base` that is a module on disk (0 = base itself). */
function longestModule(exists: (p: string) => boolean, base: string, segs: string[]): number {
  for (let k = segs.length; k >= 1; k--) if (exists(clean(join(base, ...segs.slice(0, k))) ?? '')) return k;
  return 0;
}

function split(base: string, segs: string[], k: number, names: string[]): ResolvedImport | null {
  const module = clean(join(base, ...segs.slice(0, k)));
  if (!module) return null;
  return { module, names: k < segs.length ? [segs[k]!] : names };
}

function pyImports(fs: RepoFs, file: string, imp: RawImport): ResolvedImport[] {
  const dots = /^\.*/.exec(imp.spec)![0].length;
  const segs = imp.spec.slice(dots).split('.').filter(Boolean);
  const isMod = (p: string) => pyModuleExists(fs, p);
  const withNames = (base: string, k: number): ResolvedImport[] => {
    const r = split(base, segs, k, imp.names);
    if (!r) return [];
    if (k < segs.length) return [r];
    // `from pkg import a, b`: a name that is itself a module file is an import of that module
    const subs = imp.names.filter((n) => isMod(clean(join(r.module, n)) ?? ''));
    const rest = imp.names.filter((n) => !subs.includes(n));
    return [
      ...(rest.length > 0 || subs.length === 0 ? [{ module: r.module, names: rest }] : []),
      ...subs.map((n) => ({ module: clean(join(r.module, n))!, names: [] })),
    ];
  };
  if (dots > 0) {
    let base = dirOf(file);
    for (let i = 1; i < dots; i++) base = dirOf(base);
    return withNames(base, longestModule(isMod, base, segs) || segs.length);
  }
  if (segs.length === 0) return [];
  // absolute: try the repository root, the file's ancestor folders (nearest first) and src/
  const roots: string[] = [];
  for (let d = dirOf(file); d !== '.'; d = dirOf(d)) roots.push(d);
  roots.push('.', 'src');
  for (const root of roots) {
    const k = longestModule(isMod, root, segs);
    if (k > 0) return withNames(root, k);
  }
  return isPythonStdlib(segs[0]!) ? [] : [{ module: `py:${segs[0]}`, names: [] }];
}

// ---- Go -------------------------------------------------------------------------------

/** The nearest go.mod at or above `dir`: its folder and module path. */
function goModule(fs: RepoFs, dir: string, cache: Map<string, GoMod | null>): GoMod | null {
  const hit = cache.get(dir);
  if (hit !== undefined) return hit;
  const text = fs.read(dir === '.' ? 'go.mod' : `${dir}/go.mod`);
  const m = text ? /^module\s+(\S+)/m.exec(text) : null;
  const found = m
    ? { dir, path: m[1]!.replace(/^"|"$/g, '') }
    : dir === '.'
      ? null
      : goModule(fs, dirOf(dir), cache);
  cache.set(dir, found);
  return found;
}
interface GoMod {
  dir: string;
  path: string;
}

function goImport(
  fs: RepoFs,
  file: string,
  spec: string,
  cache: Map<string, GoMod | null>,
): ResolvedImport[] {
  const mod = goModule(fs, dirOf(file), cache);
  if (mod && (spec === mod.path || spec.startsWith(`${mod.path}/`))) {
    const p = clean(join(mod.dir, spec.slice(mod.path.length)));
    return p ? [{ module: p, names: [] }] : [];
  }
  return isGoStdlib(spec) ? [] : [{ module: `go:${spec}`, names: [] }];
}

// ---- Rust -----------------------------------------------------------------------------

/** The `src` folder of the crate holding `file` (nearest Cargo.toml above it), if the file is in it. */
function rustSrc(fs: RepoFs, file: string): string | null {
  for (let d = dirOf(file); ; d = dirOf(d)) {
    if (fs.exists(d === '.' ? 'Cargo.toml' : `${d}/Cargo.toml`)) {
      const src = d === '.' ? 'src' : `${d}/src`;
      return file.startsWith(`${src}/`) ? src : null;
    }
    if (d === '.') return null;
  }
}

function rustOwn(file: string, src: string | null): string {
  const base = file.replace(/\.rs$/, '');
  if (src && (base === `${src}/lib` || base === `${src}/main`)) return src;
  return /(^|\/)mod$/.test(base) ? dirOf(base) : base;
}

function rustImport(fs: RepoFs, file: string, spec: string, src: string | null): ResolvedImport[] {
  const segs = spec.split('::');
  const own = rustOwn(file, src);
  let base: string | null;
  let i = 0;
  if (segs[0] === 'crate') {
    base = src;
    i = 1;
  } else if (segs[0] === 'self' || segs[0] === 'super') {
    base = own;
    if (segs[0] === 'self') i = 1;
    while (segs[i] === 'super' && base) {
      base = base === src ? null : dirOf(base);
      i++;
    }
  } else {
    const crate = segs[0]!;
    return isRustStdlib(crate) ? [] : [{ module: `rust:${crate}`, names: segs[1] ? [segs[1]] : [] }];
  }
  if (!base) return [];
  const rest = segs.slice(i);
  const isMod = (p: string) => fs.exists(`${p}.rs`) || fs.exists(`${p}/mod.rs`);
  const r = split(base, rest, longestModule(isMod, base, rest), []);
  return r ? [r] : [];
}

// ---- all ------------------------------------------------------------------------------

interface ResolveContext {
  fs: RepoFs;
  goMods: Map<string, GoMod | null>;
}

export function resolveContext(fs: RepoFs): ResolveContext {
  return { fs, goMods: new Map() };
}

function merge(list: ResolvedImport[]): ResolvedImport[] {
  const out = new Map<string, Set<string>>();
  for (const r of list) {
    const names = out.get(r.module) ?? new Set<string>();
    for (const n of r.names) names.add(n);
    out.set(r.module, names);
  }
  return [...out].map(([module, names]) => ({ module, names: [...names] }));
}

/** Resolve a parsed file (path repo-relative, `/`-separated). A module never imports itself. */
export function resolveSource(ctx: ResolveContext, file: string, parsed: ParsedSource): ResolvedSource {
  const { fs } = ctx;
  let own: string[];
  let list: ResolvedImport[];
  switch (parsed.lang) {
    case 'ts':
      own = tsOwn(file);
      list = parsed.imports.flatMap((i) => {
        const m = tsModule(file, i.spec);
        return m ? [{ module: m, names: i.names }] : [];
      });
      break;
    case 'python':
      own = pyOwn(file);
      list = parsed.imports.flatMap((i) => pyImports(fs, file, i));
      break;
    case 'go':
      own = [dirOf(file)];
      list = parsed.imports.flatMap((i) => goImport(fs, file, i.spec, ctx.goMods));
      break;
    case 'rust': {
      const src = rustSrc(fs, file);
      own = [rustOwn(file, src)];
      list = [
        ...parsed.imports.flatMap((i) => rustImport(fs, file, i.spec, src)),
        ...parsed.childModules.map((c) => ({ module: clean(join(own[0]!, c)) ?? c, names: [] })),
      ];
      break;
    }
  }
  return { own, imports: merge(list).filter((r) => !own.includes(r.module)) };
}
