import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  codeGraphWriter,
  codeNodeIds,
  dropOrphanCodeNodes,
  type EdgeKey,
  fileNodes,
  type LinkKey,
  recordTexts,
  storedCodeGraph,
} from '../../database/code-graph-repo.js';
import { qualifiedNodeName } from '../../database/graph-repo.js';
import type { Db } from '../../database/open.js';
import type { IdGen } from '../../shared/clock.js';
import { parseGo } from './parse-go.js';
import { parsePython } from './parse-python.js';
import { parseRust } from './parse-rust.js';
import { parseTs } from './parse-ts.js';
import { type GraphPlan, planGraph, type ScannedFile } from './plan.js';
import { type RepoFs, resolveContext, resolveSource } from './resolve.js';
import { languageOf, type ParsedSource } from './source.js';

/**
 * Rebuild the project's code graph from the files its file nodes name, as they are on disk now,
 * and the records' text: parse, resolve, plan (plan.ts), then write only the difference with
 * what is stored, in one transaction. A second run over unchanged files writes nothing; deleting
 * every module and symbol node and running it again gives the same graph.
 */

/** Files read per run (the newest file nodes): bounds a run on a project with a long history. */
const MAX_FILES = 5000;
/** Larger files are generated or vendored: not read. */
const MAX_FILE_BYTES = 512 * 1024;

interface CodeGraphDeps {
  db: Db;
  newId: IdGen;
  projectId: string;
  root: string;
  /** File access below `root` (default: the disk). */
  fs?: RepoFs;
  maxFiles?: number;
}

export interface CodeGraphSummary {
  /** False when the project root is not there to read (nothing changed). */
  scanned: boolean;
  files_read: number;
  modules: number;
  symbols: number;
  edges_added: number;
  edges_removed: number;
  links_added: number;
  links_removed: number;
  nodes_dropped: number;
}

function diskRepo(root: string): RepoFs {
  return {
    exists: (rel) => existsSync(join(root, rel)),
    read(rel) {
      try {
        const p = join(root, rel);
        const st = statSync(p);
        if (!st.isFile() || st.size > MAX_FILE_BYTES) return null;
        return readFileSync(p, 'utf8');
      } catch {
        return null;
      }
    },
  };
}

export function parseSource(path: string, text: string): ParsedSource | null {
  switch (languageOf(path)) {
    case 'ts':
      return parseTs(text);
    case 'python':
      return parsePython(text);
    case 'go':
      return parseGo(text);
    case 'rust':
      return parseRust(text);
    default:
      return null;
  }
}

function scan(fs: RepoFs, paths: readonly string[]): ScannedFile[] {
  const ctx = resolveContext(fs);
  const out: ScannedFile[] = [];
  for (const path of paths) {
    if (isAbsolute(path) || path.startsWith('..') || !languageOf(path)) continue;
    const text = fs.read(path);
    const parsed = text === null ? null : parseSource(path, text);
    if (!parsed) continue;
    out.push({ path, symbols: parsed.symbols, resolved: resolveSource(ctx, path, parsed) });
  }
  return out;
}

const edgeKey = (e: EdgeKey) => `${e.from_id}\u0000${e.to_id}\u0000${e.rel_type}`;
const linkKey = (l: LinkKey) => `${l.record_id}\u0000${l.entity_id}`;

export function refreshCodeGraph(deps: CodeGraphDeps): CodeGraphSummary {
  const summary: CodeGraphSummary = {
    scanned: false,
    files_read: 0,
    modules: 0,
    symbols: 0,
    edges_added: 0,
    edges_removed: 0,
    links_added: 0,
    links_removed: 0,
    nodes_dropped: 0,
  };
  if (!deps.fs && !existsSync(deps.root)) return summary;
  const fs = deps.fs ?? diskRepo(deps.root);
  const files = fileNodes(deps.db, deps.projectId, deps.maxFiles ?? MAX_FILES);
  const fileIds = new Map(files.map((f) => [f.value, f.id]));
  const scanned = scan(
    fs,
    files.map((f) => f.value),
  );
  const texts = (function* () {
    for (const r of recordTexts(deps.db, deps.projectId)) yield { id: r.id, text: `${r.title}\n${r.body}` };
  })();
  const plan = planGraph(scanned, texts);
  summary.scanned = true;
  summary.files_read = scanned.length;
  deps.db.transaction(() => apply(deps, plan, fileIds, summary)).immediate();
  return summary;
}

function apply(
  deps: CodeGraphDeps,
  plan: GraphPlan,
  fileIds: Map<string, string>,
  s: CodeGraphSummary,
): void {
  const { db, newId, projectId } = deps;
  const write = codeGraphWriter(db);
  const nodeIds = codeNodeIds(db, projectId);
  const used = new Set<string>();
  const node = (kind: 'module' | 'symbol', value: string) => {
    const name = qualifiedNodeName(projectId, kind, value);
    let id = nodeIds.get(name);
    if (!id) {
      id = newId();
      write.addNode(id, projectId, kind, name);
      nodeIds.set(name, id);
    }
    if (!used.has(name)) {
      used.add(name);
      if (kind === 'module') s.modules++;
      else s.symbols++;
    }
    return id;
  };
  const wanted = new Map<string, EdgeKey>();
  const want = (from_id: string | undefined, to_id: string, rel_type: string) => {
    if (from_id) wanted.set(edgeKey({ from_id, to_id, rel_type }), { from_id, to_id, rel_type });
  };
  for (const e of plan.fileModule) want(fileIds.get(e.file), node('module', e.module), e.rel);
  for (const e of plan.symbolFile) {
    const file = fileIds.get(e.file);
    if (file) want(node('symbol', e.symbol), file, 'scoped_to');
  }
  for (const e of plan.fileSymbol) want(fileIds.get(e.file), node('symbol', e.symbol), 'derives_from');
  const wantedLinks = new Map<string, LinkKey>();
  for (const m of plan.mentions) {
    const l = { record_id: m.record, entity_id: node('symbol', m.symbol) };
    wantedLinks.set(linkKey(l), l);
  }

  // Every edge touching a module or symbol node, and every link to one, is this graph's: what is
  // stored and not wanted goes, what is wanted and not stored comes.
  const stored = storedCodeGraph(db, projectId);
  const have = new Set(stored.edges.map(edgeKey));
  for (const e of stored.edges) {
    if (wanted.has(edgeKey(e))) continue;
    write.removeEdge(e);
    s.edges_removed++;
  }
  for (const [k, e] of wanted) {
    if (have.has(k)) continue;
    write.addEdge(newId(), e);
    s.edges_added++;
  }
  const haveLinks = new Set(stored.links.map(linkKey));
  for (const l of stored.links) {
    if (wantedLinks.has(linkKey(l))) continue;
    write.removeLink(l);
    s.links_removed++;
  }
  for (const [k, l] of wantedLinks) {
    if (haveLinks.has(k)) continue;
    write.addLink(l);
    s.links_added++;
  }
  s.nodes_dropped = dropOrphanCodeNodes(db, projectId);
}
