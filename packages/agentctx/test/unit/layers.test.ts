// The house rule, checked on every import in src/: adapters → app → core → storage, llm, embed,
// claude → shared, never back up; inside core/, a room imports only the rooms declared below.
// A new arrow between rooms is a design decision: declare it here, and in docs/ARCHITECTURE.md.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../support/cli.js';

const SRC = join(PACKAGE_ROOT, 'src');

/** Higher imports lower; equal only inside one folder (or an edge listed in SAME_FLOOR). */
const FLOOR: Record<string, number> = {
  'cli-entry.ts': 6,
  'hook-entry.ts': 6,
  'mcp-entry.ts': 6,
  // the dashboard's entry into the core (the package export ui-core)
  'ui-core.ts': 6,
  cli: 5,
  hooks: 5,
  mcp: 5,
  bench: 5,
  app: 4,
  core: 3,
  storage: 2,
  llm: 2,
  embed: 2,
  claude: 2,
  codex: 2,
  agents: 2,
  shared: 1,
  'version.ts': 1,
};
/** Imports between two folders of one floor that the design allows. */
const SAME_FLOOR = new Set([
  'claude->storage',
  'codex->claude',
  'codex->storage',
  'agents->claude',
  'agents->storage',
]);
/** The rooms of core/ and the rooms each may import. */
const ROOMS: Record<string, string[]> = {
  records: ['redaction'],
  redaction: [],
  drift: [],
  retrieval: ['records'],
  injection: ['retrieval'],
  digest: ['drift', 'retrieval'],
  capture: ['records', 'redaction'],
  extraction: ['records', 'redaction'],
  profile: ['records', 'redaction'],
  codegraph: [],
  consolidation: ['codegraph', 'digest', 'drift', 'records'],
  team: ['records', 'redaction'],
  review: ['consolidation', 'records', 'redaction', 'team'],
  usage: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function relativeImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)'(\.{1,2}\/[^']+)'/g)) {
    if (m[1]) specs.push(m[1]);
  }
  return specs;
}

/** 'core/retrieval/search.ts' → { top: 'core', room: 'retrieval' } */
function place(file: string): { top: string; room?: string } {
  const parts = relative(SRC, file).replace(/\.js$/, '.ts').split(sep);
  const top = parts[0] ?? '';
  return top === 'core' && parts.length > 2 ? { top, room: parts[1] } : { top };
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = place(file);
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const to = place(resolve(dirname(file), spec));
      const edge = `${relative(SRC, file)} → ${spec}`;
      const fromFloor = FLOOR[from.top];
      const toFloor = FLOOR[to.top];
      if (fromFloor === undefined || toFloor === undefined) {
        found.push(`${edge}: folder without a floor (add it to FLOOR)`);
      } else if (from.top === to.top) {
        if (from.room && to.room && from.room !== to.room && !ROOMS[from.room]?.includes(to.room)) {
          found.push(`${edge}: core/${from.room} may not import core/${to.room}`);
        }
      } else if (
        toFloor > fromFloor ||
        (toFloor === fromFloor && !SAME_FLOOR.has(`${from.top}->${to.top}`))
      ) {
        found.push(`${edge}: runs against the layers`);
      }
    }
  }
  return found;
}

describe('the layers of src/', () => {
  it('every import runs down (or sideways inside one folder), and rooms import only declared rooms', () => {
    expect(violations()).toEqual([]);
  });

  it('every folder of core/ is a declared room, and core/ holds no loose files', () => {
    const entries = readdirSync(join(SRC, 'core'));
    expect(entries.filter((e) => !statSync(join(SRC, 'core', e)).isDirectory())).toEqual([]);
    expect(entries.sort()).toEqual(Object.keys(ROOMS).sort());
  });

  it('the check sees an upward arrow when there is one', () => {
    // guards against a parser that finds no imports at all
    expect(relativeImports("import { x } from '../core/records/records.js';")).toEqual([
      '../core/records/records.js',
    ]);
    expect(sourceFiles(SRC).length).toBeGreaterThan(100);
  });
});
