// The house rule, checked on every import in src/: adapters → app → core → the rooms below
// (database, git, files, llm, embed, claude, codex, agents) → text → shared, never back up;
// inside core/, a room imports only the rooms declared below; text/ and shared/ are leaves, and
// text/ is pure (no I/O).
// A new arrow between rooms is a design decision: declare it here, and in docs/ARCHITECTURE.md.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../support/cli.js';

const SRC = join(PACKAGE_ROOT, 'src');

/** Higher imports lower; equal only inside one folder (or an edge listed in SAME_FLOOR). */
const FLOOR: Record<string, number> = {
  'cli-entry.ts': 7,
  'hook-entry.ts': 7,
  'mcp-entry.ts': 7,
  // the dashboard's entry into the core (the package export ui-core)
  'ui-core.ts': 7,
  cli: 6,
  hooks: 6,
  mcp: 6,
  bench: 6,
  app: 5,
  core: 4,
  // the SQLite store: driver, migrations, repositories, FTS, vectors
  database: 3,
  // reading a repository: HEAD, config, history
  git: 3,
  // files agentctx reads and writes outside the store: bounded reads, atomic writes, spool, journal
  files: 3,
  llm: 3,
  embed: 3,
  claude: 3,
  codex: 3,
  agents: 3,
  // words of a text: terms, stems, stop-words, dates
  text: 2,
  shared: 1,
  'version.ts': 1,
};
/** Imports between two folders of one floor that the design allows. */
const SAME_FLOOR = new Set([
  // file anchors fingerprint files and name HEAD; the journal fold reads the journal files
  'database->git',
  'database->files',
  // git's own files (HEAD, packed-refs, config) are read through the bounded reader
  'git->files',
  'claude->files',
  'codex->claude',
  'codex->files',
  'agents->claude',
  'agents->files',
  // the claude and codex CLI backends are found on PATH
  'llm->files',
]);
/** Leaves: the only folders of src/ each may import (outside itself). */
const LEAVES: Record<string, string[]> = {
  text: ['shared'],
  shared: [],
};
/** Pure folders: no module from outside src/ either (no node: built-in, no package), so no I/O. */
const PURE = new Set(['text']);
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
  return allImports(text).filter((spec) => spec.startsWith('.'));
}

/** Every module specifier a file names: relative, node: built-ins and packages. */
function allImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s+|import\(\s*|require\(\s*)'([^']+)'/g)) {
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

/** The arrows that break the rules, for source files given as absolute path and text. */
function violationsIn(files: readonly { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    const from = place(file);
    const leaf = LEAVES[from.top];
    for (const spec of allImports(text)) {
      const edge = `${relative(SRC, file)} → ${spec}`;
      if (!spec.startsWith('.')) {
        if (PURE.has(from.top))
          found.push(`${edge}: ${from.top}/ is pure and imports nothing from outside src/`);
        continue;
      }
      const to = place(resolve(dirname(file), spec));
      const fromFloor = FLOOR[from.top];
      const toFloor = FLOOR[to.top];
      if (fromFloor === undefined || toFloor === undefined) {
        found.push(`${edge}: folder without a floor (add it to FLOOR)`);
      } else if (from.top === to.top) {
        if (from.room && to.room && from.room !== to.room && !ROOMS[from.room]?.includes(to.room)) {
          found.push(`${edge}: core/${from.room} may not import core/${to.room}`);
        }
      } else if (leaf && !leaf.includes(to.top)) {
        found.push(`${edge}: ${from.top}/ is a leaf and may import only ${leaf.join(', ') || 'nothing'}`);
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

function violations(): string[] {
  return violationsIn(sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') })));
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

  it('every top-level folder of src/ has a floor, and the rooms below core/ are there', () => {
    const folders = readdirSync(SRC).filter((e) => statSync(join(SRC, e)).isDirectory());
    expect(folders.filter((f) => FLOOR[f] === undefined)).toEqual([]);
    for (const room of ['database', 'git', 'files', 'text']) expect(folders).toContain(room);
  });

  it('refuses the arrows the rooms below core/ must not draw', () => {
    const at = (path: string, text: string) => ({ file: join(SRC, path), text });
    const bad = [
      at('text/terms.ts', "import type { Db } from '../database/open.js';"),
      at('text/terms.ts', "import { readFileSync } from 'node:fs';"),
      at('text/dates.ts', "export { x } from '../files/regular-file.js';"),
      at('shared/errors.ts', "import { STOPWORDS } from '../text/stopwords.js';"),
      at('files/atomic-write.ts', "import { headCommit } from '../git/git-repo.js';"),
      at('files/regular-file.ts', "import { openDb } from '../database/open.js';"),
      at('git/git-repo.ts', "import type { Db } from '../database/open.js';"),
      at('database/records-repo.ts', "import { loadConfig } from '../app/config.js';"),
      at('claude/install.ts', "import { openDb } from '../database/open.js';"),
    ];
    for (const one of bad) expect(violationsIn([one]), one.text).toHaveLength(1);
    const good = [
      at('text/terms.ts', "import { STOPWORDS } from './stopwords.js';"),
      at('database/term-df.ts', "import type { QueryTerm } from '../text/terms.js';"),
      at('database/file-anchors.ts', "import { headCommit } from '../git/git-repo.js';"),
      at('git/git-repo.ts', "import { readRegularFile } from '../files/regular-file.js';"),
      at('core/retrieval/query.ts', "import { termKey } from '../../text/terms.js';"),
    ];
    expect(violationsIn(good)).toEqual([]);
  });
});
