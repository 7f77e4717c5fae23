import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, planClaudeMdEdits } from '../../../../src/core/drift/claudemd-edits.js';
import { importsOf, readMemoryFiles } from '../../../../src/core/drift/claudemd-files.js';
import { driftReport } from '../../../../src/core/drift/report.js';
import { scanDrift } from '../../../../src/core/drift/scan.js';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
let root: string;
const now = new Date('2026-11-30T12:00:00Z');

beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'proj-1');
  root = join(t.path, 'repo');
  mkdirSync(root, { recursive: true });
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const project = () => ({ id: 'proj-1', root });

function explicit(type: 'decision' | 'convention', title: string, body: string) {
  return createRecord(s.deps, { type, title, body, source: 'cli', confidence: 'explicit' });
}

const CLAUDE = `# Project notes

- Package manager: use pnpm workspaces for every package.
- Tests run with vitest; never mock the database, use a temp SQLite file.

## Style

Prefer named exports. Default exports are not allowed
in library code.

\`\`\`sh
pnpm test
\`\`\`
`;

describe('driftReport', () => {
  it('finds records CLAUDE.md does not mention, and not those it does', () => {
    writeFileSync(join(root, 'CLAUDE.md'), CLAUDE);
    const said = explicit('convention', 'Use named exports only', 'No default exports in library code.');
    const said2 = explicit('decision', 'Use pnpm workspaces', 'Every package lives in a pnpm workspace.');
    const missing = explicit(
      'decision',
      'Store timestamps as ISO 8601 UTC strings',
      'All valid_from and recorded_at columns hold ISO 8601 text in UTC.',
    );
    const inferred = createRecord(s.deps, {
      type: 'decision',
      title: 'Cache HTTP responses in Redis',
      body: 'Seen once.',
      source: 'llm_extraction',
      confidence: 'inferred',
    });
    const r = driftReport(s.db, project(), { now });
    expect(r.files).toEqual(['CLAUDE.md']);
    const ids = r.missing.map((m) => m.record_id);
    expect(ids).toContain(missing.id);
    expect(ids).not.toContain(said.id);
    expect(ids).not.toContain(said2.id);
    expect(ids).not.toContain(inferred.id); // only high-confidence records are compared
    expect(r.total.missing).toBe(1);
    expect(r.proposed_diff).toContain('+++ b/CLAUDE.md');
    expect(r.proposed_diff).toContain('+- Store timestamps as ISO 8601 UTC strings');
    expect(r.missing[0]!.score).toBeGreaterThan(0.4);
  });

  it('flags CLAUDE.md text that matches a superseded record and not its head', () => {
    writeFileSync(join(root, 'CLAUDE.md'), CLAUDE);
    const old = explicit('decision', 'Package manager', 'Use pnpm workspaces for every package.');
    const head = supersedeRecord(s.deps, old.id, {
      body: 'Use npm workspaces for every package.',
      rationale: 'pnpm broke our CI cache',
      source: 'cli',
    });
    const r = driftReport(s.db, project(), { now });
    expect(r.contradicted).toHaveLength(1);
    const c = r.contradicted[0]!;
    expect(c.record_id).toBe(old.id);
    expect(c.current_id).toBe(head.new_id);
    expect(c.file).toBe('CLAUDE.md');
    expect(c.line).toBe(3);
    expect(r.proposed_diff).toContain('-- Package manager: use pnpm workspaces for every package.');
    expect(r.proposed_diff).toContain('+- ~~Package manager: use pnpm workspaces for every package.~~');
    // the head itself is missing from CLAUDE.md
    expect(r.missing.map((m) => m.record_id)).toEqual([head.new_id]);
  });

  it('does not flag text that already states the current head', () => {
    writeFileSync(join(root, 'CLAUDE.md'), '- Use npm workspaces for every package (we left pnpm).\n');
    const old = explicit('decision', 'Package manager', 'Use pnpm workspaces for every package.');
    supersedeRecord(s.deps, old.id, { body: 'Use npm workspaces for every package.', source: 'cli' });
    const r = driftReport(s.db, project(), { now });
    expect(r.contradicted).toEqual([]);
    expect(r.total.missing).toBe(0);
  });

  it('ignores records superseded more than 90 days ago', () => {
    writeFileSync(join(root, 'CLAUDE.md'), CLAUDE);
    s.setNow('2026-06-01T00:00:00Z');
    const old = explicit('decision', 'Package manager', 'Use pnpm workspaces for every package.');
    supersedeRecord(s.deps, old.id, { body: 'Use npm workspaces for every package.', source: 'cli' });
    expect(driftReport(s.db, project(), { now }).contradicted).toEqual([]);
  });

  it('reads .claude/CLAUDE.md and @imports inside the repo, bounded', () => {
    mkdirSync(join(root, '.claude'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'CLAUDE.md'), 'See @docs/style.md and `@docs/not-imported.md`.\n');
    writeFileSync(
      join(root, 'docs', 'style.md'),
      '- Timestamps are ISO 8601 UTC strings.\n@../../outside.md\n',
    );
    writeFileSync(join(t.path, 'outside.md'), '- secret\n');
    writeFileSync(join(root, 'docs', 'not-imported.md'), '- nope\n');
    writeFileSync(join(root, '.claude', 'CLAUDE.md'), '- nothing here\n');
    expect(readMemoryFiles(root).map((f) => f.rel)).toEqual([
      'CLAUDE.md',
      'docs/style.md',
      '.claude/CLAUDE.md',
    ]);
    expect(importsOf('mail @alice or see @a/b.md, also ~/x')).toEqual(['a/b.md']);
    explicit('decision', 'Store timestamps as ISO 8601 UTC strings', 'In every column.');
    expect(driftReport(s.db, project(), { now }).total.missing).toBe(0);
  });

  it('is bounded: limit, offset, totals, truncated', () => {
    for (let i = 0; i < 30; i++) explicit('decision', `Decision number ${i} about zebra${i}`, `Body ${i}.`);
    const p1 = driftReport(s.db, project(), { now, limit: 10 });
    expect(p1.missing).toHaveLength(10);
    expect(p1.total.missing).toBe(30);
    expect(p1.truncated).toBe(true);
    const p3 = driftReport(s.db, project(), { now, limit: 10, offset: 20 });
    expect(p3.truncated).toBe(false);
    expect(new Set([...p1.missing, ...p3.missing].map((m) => m.record_id)).size).toBe(20);
    expect(driftReport(s.db, project(), { now, limit: 1000 }).missing).toHaveLength(30);
    // no CLAUDE.md: the diff creates one
    expect(
      p1.proposed_diff.startsWith('--- /dev/null\n+++ b/CLAUDE.md\n@@ -0,0 +1,12 @@\n+## Decisions'),
    ).toBe(true);
  });

  it('is read-only, and its plan applies to exactly the text the diff shows', () => {
    writeFileSync(join(root, 'CLAUDE.md'), CLAUDE);
    const old = explicit('decision', 'Package manager', 'Use pnpm workspaces for every package.');
    supersedeRecord(s.deps, old.id, { body: 'Use npm workspaces for every package.', source: 'cli' });
    const before = s.db.prepare('SELECT * FROM records ORDER BY id').all();
    const scan = scanDrift(s.db, project(), now);
    expect(readFileSync(join(root, 'CLAUDE.md'), 'utf8')).toBe(CLAUDE);
    expect(s.db.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(before);
    const plan = planClaudeMdEdits(
      scan.texts,
      scan.missing.map((m) => m.record),
      scan.contradicted,
    );
    const next = applyPlan(scan.texts, plan).get('CLAUDE.md')!;
    expect(next).toContain(
      '- ~~Package manager: use pnpm workspaces for every package.~~ (superseded; now: Package manager)',
    );
    expect(next).toContain('## Decisions and conventions (recorded by agentctx)');
    expect(next.split('\n').length).toBe(CLAUDE.split('\n').length + 4);
    // the proposed diff is a real unified diff: git apply turns CLAUDE.md into the same text
    const diff = driftReport(s.db, project(), { now }).proposed_diff;
    writeFileSync(join(t.path, 'fix.diff'), diff);
    const res = spawnSync('git', ['apply', '--unsafe-paths', join(t.path, 'fix.diff')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(readFileSync(join(root, 'CLAUDE.md'), 'utf8')).toBe(next);
  });

  it('produces a diff git can apply when CLAUDE.md lacks a final newline or does not exist', () => {
    explicit('decision', 'Store timestamps as ISO 8601 UTC strings', 'In every column.');
    for (const content of ['# Notes\n- something else', null]) {
      if (content !== null) writeFileSync(join(root, 'CLAUDE.md'), content);
      const scan = scanDrift(s.db, project(), now);
      const plan = planClaudeMdEdits(
        scan.texts,
        scan.missing.map((m) => m.record),
        scan.contradicted,
      );
      const expected = applyPlan(scan.texts, plan).get('CLAUDE.md')!;
      writeFileSync(join(t.path, 'fix.diff'), driftReport(s.db, project(), { now }).proposed_diff);
      const res = spawnSync('git', ['apply', join(t.path, 'fix.diff')], { cwd: root, encoding: 'utf8' });
      expect(res.stderr).toBe('');
      expect(readFileSync(join(root, 'CLAUDE.md'), 'utf8')).toBe(expected);
      rmSync(join(root, 'CLAUDE.md'));
    }
  });
});
