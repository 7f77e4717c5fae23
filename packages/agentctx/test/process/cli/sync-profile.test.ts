import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
const CLAUDE =
  '# Shop\n\n- Package manager: use pnpm workspaces for every package.\n- Tests run with vitest.\n';

beforeEach(() => {
  t = tempDir();
  repo = fakeRepo(t.path, 'shop', 'https://github.com/acme/shop.git');
  writeFileSync(join(repo, 'CLAUDE.md'), CLAUDE);
  env = isolatedEnv(t.path);
});
afterEach(() => t.cleanup());

function rec(args: string[]) {
  const r = runJson<{ id: string; new_id?: string }>(args, { cwd: repo, env });
  expect(r.code).toBe(0);
  return r.json;
}

function scenario() {
  const old = rec([
    'record',
    '--type',
    'decision',
    '--title',
    'Package manager',
    '--body',
    'Use pnpm workspaces for every package.',
  ]);
  rec([
    'supersede',
    old.id,
    '--body',
    'Use npm workspaces for every package.',
    '--rationale',
    'pnpm broke the CI cache',
  ]);
  rec([
    'record',
    '--type',
    'convention',
    '--title',
    'Money is integer cents',
    '--body',
    'Never store floats for amounts.',
  ]);
  return old;
}

describe('agentctx sync', () => {
  it('prints the report and a proposed diff, and leaves CLAUDE.md byte-for-byte untouched', () => {
    const old = scenario();
    const before = statSync(join(repo, 'CLAUDE.md')).mtimeMs;
    const r = runJson<{
      missing: { record_id: string }[];
      contradicted: { record_id: string; line: number }[];
      proposed_diff: string;
    }>(['sync'], { cwd: repo, env });
    expect(r.code).toBe(0);
    expect(r.json.contradicted.map((c) => [c.record_id, c.line])).toEqual([[old.id, 3]]);
    expect(r.json.missing).toHaveLength(2);
    expect(r.json.proposed_diff).toContain('+- ~~Package manager: use pnpm workspaces for every package.~~');
    expect(r.json.proposed_diff).toContain('+- Money is integer cents: Never store floats for amounts.');
    const human = runAgentctx(['sync'], { cwd: repo, env });
    expect(human.stdout).toContain('Proposed diff (not applied');
    expect(human.stdout).toContain('--- a/CLAUDE.md');
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe(CLAUDE);
    expect(statSync(join(repo, 'CLAUDE.md')).mtimeMs).toBe(before);
  });

  it('--apply without a terminal refuses and writes nothing', () => {
    scenario();
    const r = runAgentctx(['sync', '--apply'], { cwd: repo, env, input: 'y\n' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/confirmation on a terminal; nothing was written/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe(CLAUDE);
  });

  it('--apply on a terminal writes only after "y"', () => {
    scenario();
    const viaTty = (answer: string) =>
      spawnSync('script', ['-qec', `${process.execPath} ${BIN} sync --apply`, '/dev/null'], {
        cwd: repo,
        env,
        input: `${answer}\n`,
        encoding: 'utf8',
        timeout: 20_000,
      });
    const no = viaTty('n');
    expect(no.stdout).toContain('Write these changes to CLAUDE.md?');
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe(CLAUDE);
    const yes = viaTty('y');
    expect(yes.stdout).toContain('Wrote CLAUDE.md.');
    const after = readFileSync(join(repo, 'CLAUDE.md'), 'utf8');
    expect(after).toContain(
      '- ~~Package manager: use pnpm workspaces for every package.~~ (superseded; now: Package manager)',
    );
    expect(after).toContain('- Money is integer cents: Never store floats for amounts.');
    // afterwards CLAUDE.md and the store agree on what was flagged
    const again = runJson<{ total: { missing: number; contradicted: number } }>(['sync'], { cwd: repo, env });
    expect(again.json.total).toEqual({ missing: 0, contradicted: 0 });
  });
});

describe('agentctx profile', () => {
  function globalPref(title: string, body: string) {
    return rec(['record', '--type', 'preference', '--scope', 'global', '--title', title, '--body', body]);
  }

  it('shows, edits, clears and exports the global profile', () => {
    const tabs = globalPref('Indent with tabs', 'Tabs, width 4.');
    const commits = globalPref('Small commits', 'One logical change per commit.');
    rec(['record', '--type', 'decision', '--title', 'Project-only decision', '--body', 'Not global.']);
    const show = runJson<{ entries: { id: string; confidence: string; in_digest: boolean }[] }>(['profile'], {
      cwd: repo,
      env,
    });
    expect(show.json.entries.map((e) => e.id).sort()).toEqual([tabs.id, commits.id].sort());
    expect(show.json.entries.every((e) => e.confidence === 'explicit' && e.in_digest)).toBe(true);
    const text = runAgentctx(['profile', 'show'], { cwd: repo, env }).stdout;
    expect(text).toContain('CONFIDENCE  SEEN  DIGEST  ENTRY');
    expect(text).toContain('preference: Indent with tabs');

    const edited = runJson<{ old_id: string; new_id: string }>(
      ['profile', 'edit', tabs.id, '--body', 'Spaces, width 2.'],
      {
        cwd: repo,
        env,
      },
    );
    expect(edited.code).toBe(0);
    expect(edited.json.old_id).toBe(tabs.id);
    const cleared = runJson(['profile', 'clear', commits.id], { cwd: repo, env });
    expect(cleared.code).toBe(0);
    const after = runJson<{ entries: { id: string; body: string }[] }>(['profile'], { cwd: repo, env }).json
      .entries;
    expect(after.map((e) => e.id)).toEqual([edited.json.new_id]);
    expect(after[0]!.body).toContain('Spaces, width 2.');
    // a cleared entry is not current, so it cannot be cleared again; a project record is not a profile entry
    expect(runAgentctx(['profile', 'clear', commits.id], { cwd: repo, env }).code).not.toBe(0);
    const bad = runAgentctx(['profile', 'edit', 'NOPE', '--body', 'x'], { cwd: repo, env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);

    const exp = runJson<{ path: string; entries: number }>(['profile', 'export'], { cwd: repo, env });
    expect(exp.json.path).toBe(join(t.path, '.agentctx', 'profile', 'profile.md'));
    const md = readFileSync(exp.json.path, 'utf8');
    expect(md).toContain('# Developer profile (agentctx)');
    expect(md).toContain('### Indent with tabs\n\nSpaces, width 2.');
    expect(md).not.toContain('Small commits');
    expect(md).not.toContain('Project-only decision');
  });

  it('status shows merge candidates, drift and the last consolidation, keeping its fields', () => {
    scenario();
    rec([
      'record',
      '--type',
      'bugfix',
      '--title',
      'Fix zorblat crash in quuxhandler',
      '--body',
      'Null check in quuxhandler flumox; root cause was a missing guard.',
    ]);
    rec([
      'record',
      '--type',
      'bugfix',
      '--title',
      'Fixed the zorblat crash in quuxhandler',
      '--body',
      'Added a null check in quuxhandler flumox; the root cause was a missing guard there.',
    ]);
    const before = runJson<Record<string, unknown>>(['status', '--verbose'], { cwd: repo, env }).json;
    expect(before.last_consolidation).toBeNull();
    expect(runJson(['consolidate'], { cwd: repo, env }).code).toBe(0);
    const st = runJson<Record<string, any>>(['status', '--verbose'], { cwd: repo, env }).json;
    for (const k of [
      'project_id',
      'counts',
      'global_counts',
      'sessions',
      'tokens_injected',
      'extraction_cost_usd',
    ])
      expect(st).toHaveProperty(k);
    expect(st.merge_candidates.count).toBe(1);
    expect(st.merge_candidates.top[0].title_a).toBe('Fix zorblat crash in quuxhandler');
    expect(st.drift_candidates).toEqual({ missing: 2, contradicted: 1 });
    expect(st.last_consolidation.finished_at).toBeTruthy();
    const text = runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout;
    expect(text).toContain('merge     1 near-duplicate pair to review (never merged automatically)');
    expect(text).toContain('drift     CLAUDE.md: 2 decisions/conventions missing, 1 superseded passages');
  });
});
