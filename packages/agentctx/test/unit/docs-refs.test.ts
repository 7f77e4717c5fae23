// References to the contracts stay resolvable: comments, tests, scripts and docs point at
// docs/CONTRACTS.md as `CONTRACTS.md §<anchor>`, and each anchor is an `<a id>` there. A reference
// to a section that was renamed or never existed, to the unshipped specification's numbering
// ("SPEC §8", "Invariant 3"), or to an ADR the repository does not hold, fails here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../support/cli.js';

const REPO = resolve(PACKAGE_ROOT, '..', '..');
const CONTRACTS = join(REPO, 'docs', 'CONTRACTS.md');
const THIS_FILE = join(PACKAGE_ROOT, 'test', 'unit', 'docs-refs.test.ts');

const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'fixtures', 'coverage', '.git']);

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (TEXT.test(name)) out.push(path);
  }
  return out;
}

/** Every file a reader may follow a reference from: sources, tests, scripts and docs. */
function scannedFiles(): string[] {
  const packages = readdirSync(join(REPO, 'packages')).map((p) => join(REPO, 'packages', p));
  const files = packages.flatMap((p) => ['src', 'test', 'scripts'].flatMap((d) => walk(join(p, d))));
  files.push(...walk(join(REPO, 'docs')));
  for (const top of ['README.md', 'BENCHMARKS.md']) {
    if (existsSync(join(REPO, top))) files.push(join(REPO, top));
  }
  return files.filter((f) => f !== THIS_FILE);
}

/** The anchors docs/CONTRACTS.md defines, each `<a id="…"></a>`. */
function contractAnchors(text: string): string[] {
  return [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);
}

interface Finding {
  file: string;
  line: number;
  problem: string;
}

/** What is wrong with the references in one file's text (empty when every one resolves). */
function badReferences(text: string, anchors: ReadonlySet<string>): Omit<Finding, 'file'>[] {
  const out: Omit<Finding, 'file'>[] = [];
  text.split('\n').forEach((line, i) => {
    const at = (problem: string) => out.push({ line: i + 1, problem });
    if (/\bSPEC\s*§/.test(line)) at('refers to "SPEC §…": point at a CONTRACTS.md section');
    if (/\bInvariant\s+\d/.test(line)) at('numbered invariant: write CONTRACTS.md §inv-N');
    if (/\bADR-\d/.test(line))
      at('ADR reference: the repository holds no ADRs (docs/decisions/ holds the records)');
    for (const m of line.matchAll(/§(\S*)/g)) {
      const id = /^[a-z0-9]+(?:-[a-z0-9]+)*/.exec(m[1]!)?.[0];
      if (!id) at(`"§${m[1]!.slice(0, 20)}" names no CONTRACTS.md anchor`);
      else if (!anchors.has(id)) at(`§${id} is not an anchor of docs/CONTRACTS.md`);
    }
  });
  return out;
}

describe('references to docs/CONTRACTS.md', () => {
  const contracts = readFileSync(CONTRACTS, 'utf8');
  const anchors = contractAnchors(contracts);
  const known = new Set(anchors);

  it('gives each section one anchor, defined once', () => {
    expect(anchors.length).toBeGreaterThan(40);
    expect(anchors.filter((a, i) => anchors.indexOf(a) !== i)).toEqual([]);
  });

  it('links inside CONTRACTS.md land on an anchor', () => {
    const links = [...contracts.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !known.has(l))).toEqual([]);
  });

  it('every § reference in sources, tests, scripts and docs resolves, and none uses the old numbering', () => {
    const files = scannedFiles();
    expect(files.length).toBeGreaterThan(100);
    const findings: Finding[] = [];
    let refs = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      refs += (text.match(/CONTRACTS\.md §/g) ?? []).length;
      for (const f of badReferences(text, known)) findings.push({ file: relative(REPO, file), ...f });
    }
    expect(findings).toEqual([]);
    // the references exist at all (a scan that read nothing would pass the check above)
    expect(refs).toBeGreaterThan(100);
  });

  it('relative links between the docs name files that exist', () => {
    const missing: string[] = [];
    for (const file of walk(join(REPO, 'docs')).concat(join(REPO, 'README.md'))) {
      if (!file.endsWith('.md')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // a URL
        if (!existsSync(resolve(dirname(file), target))) missing.push(`${relative(REPO, file)} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('decision records (docs/decisions/)', () => {
  const dir = join(REPO, 'docs', 'decisions');
  const records = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const architecture = readFileSync(join(REPO, 'docs', 'ARCHITECTURE.md'), 'utf8');

  it('are numbered NNNN-slug.md, one number each, with no gap', () => {
    expect(records.length).toBeGreaterThan(0);
    records.forEach((f, i) => {
      expect(f).toMatch(/^\d{4}-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/);
      expect(Number(f.slice(0, 4)), f).toBe(i + 1);
    });
  });

  it('each has its number as title and the four sections, in order', () => {
    for (const f of records) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text.startsWith(`# ${f.slice(0, 4)}. `), f).toBe(true);
      const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      expect(sections, f).toEqual(['Context', 'Decision', 'Measured', 'Rejected']);
    }
  });

  it('each is listed in ARCHITECTURE.md', () => {
    expect(records.filter((f) => !architecture.includes(`(decisions/${f})`))).toEqual([]);
  });
});

describe('the reference check itself', () => {
  const anchors = new Set(['ladder', 'rung-4', 'inv-3']);
  it('accepts known anchors, with trailing punctuation', () => {
    expect(badReferences('see CONTRACTS.md §rung-4. And §ladder, §inv-3)', anchors)).toEqual([]);
  });
  it('flags an unknown anchor, the old numbering and ADRs', () => {
    const bad = ['CONTRACTS.md §rung-9', 'SPEC §8 rung 4', '(Invariant 3)', 'ADR-014', '§8'];
    for (const line of bad) expect(badReferences(line, anchors).length, line).toBeGreaterThan(0);
  });
});
