import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgentctx } from '../../support/cli.js';
import { gitIn } from '../../support/git.js';
import { startMcp } from '../mcp/client.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

/**
 * Code-anchored staleness end to end: a real git repository, the real PostToolUse hook anchoring
 * the files a session's records are linked to, real `agentctx consolidate` checking them, and the
 * next session's injections (prompt, SessionStart digest) and `search` labelling the record.
 */

let w: HookWorld;
const git = (...args: string[]): string => gitIn(w.repo, args, w.env);
const FILE = 'src/billing/charge.ts';
const V1 = ['export function charge(cents: number) {', '  return roundHalfEven(cents);', '}', ''].join('\n');

function commitFile(path: string, text: string, message: string): void {
  mkdirSync(join(w.repo, path, '..'), { recursive: true });
  writeFileSync(join(w.repo, path), text);
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

function edit(sessionId: string, file: string) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Edit',
    tool_input: { file_path: join(w.repo, file), old_string: 'a', new_string: 'b' },
    tool_response: { filePath: join(w.repo, file), success: true },
    tool_use_id: 'toolu_1',
  });
}

function consolidate(): { staleness?: { stale_records: number; deleted_files: number; git: boolean } } {
  const r = runAgentctx(['consolidate', '--json'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function prompt(sessionId: string): string {
  const r = runHook(
    w,
    'user-prompt-submit',
    promptPayload(w, sessionId, 'how does charge rounding work in billing?'),
  );
  expect(r.code).toBe(0);
  return r.context;
}

function sessionStart(sessionId: string): string {
  const r = runHook(w, 'session-start', {
    session_id: sessionId,
    cwd: w.repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  expect(r.code).toBe(0);
  return r.context;
}

function searchEntry(id: string): { id: string; stale?: string } | undefined {
  const r = runAgentctx(['search', 'charge rounding billing', '--json'], { cwd: w.repo, env: w.env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { results: { id: string; stale?: string }[] }).results.find(
    (e) => e.id === id,
  );
}

/** A decision written in session s1, which then edited the file (the hook links and anchors it). */
function decisionAboutCharge(): string {
  const rec = w.add({
    title: 'Billing charge rounding is half-even',
    body: 'charge() in billing rounds cents half-even before the ledger sees them.',
    sessionId: 's1',
  });
  w.closeDb();
  const r = runHook(w, 'post-tool-use', edit('s1', FILE));
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  return rec.id;
}

beforeEach(() => {
  w = hookWorld();
  git('init', '-q'); // over the test's .git: keeps its origin, HEAD on main
  commitFile(FILE, V1, 'charge');
  commitFile('README.md', 'shop\n', 'readme');
});
afterEach(() => w.cleanup());

describe('code-anchored staleness', () => {
  it('a file edited after the record was written makes it stale in the next session', async () => {
    const id = decisionAboutCharge();
    const anchor = w.db().prepare('SELECT * FROM file_anchors WHERE record_id = ?').get(id) as
      | { path: string; commit_sha: string }
      | undefined;
    w.closeDb();
    expect(anchor?.path).toBe(FILE);
    expect(anchor?.commit_sha).toBe(git('rev-parse', 'HEAD').trim());

    // unchanged: consolidation finds nothing, nothing is labelled
    expect(consolidate().staleness).toMatchObject({ stale_records: 0, git: true });
    const fresh = prompt('s2');
    expect(fresh).toContain(id);
    expect(fresh).not.toContain('may be outdated');
    expect(searchEntry(id)?.stale).toBeUndefined();

    // two commits change the file; another touches something else
    commitFile(FILE, V1.replace('roundHalfEven', 'roundHalfUp'), 'round up');
    commitFile('README.md', 'shop!\n', 'readme again');
    commitFile(FILE, `${V1.replace('roundHalfEven', 'roundHalfUp')}// audited\n`, 'audit');
    expect(consolidate().staleness).toMatchObject({ stale_records: 1, deleted_files: 0 });

    const injected = prompt('s3');
    expect(injected).toContain(id);
    expect(injected).toMatch(
      /may be outdated: src\/billing\/charge\.ts changed since \(2 commits, ~\d+% of lines\)/,
    );
    expect(sessionStart('s3')).toMatch(
      /Billing charge rounding is half-even[^\n]*\[may be outdated: src\/billing\/charge\.ts changed since \(2 commits/,
    );
    expect(searchEntry(id)?.stale).toBe('charge.ts changed, 2 commits');
    // the agent's ctx_search (real MCP server over stdio) carries the same field
    const mcp = await startMcp(w.repo, w.env);
    try {
      const res = await mcp.call('ctx_search', { query: 'charge rounding billing' });
      const entry = (res.json.results as { id: string; stale?: string }[]).find((e) => e.id === id);
      expect(entry?.stale).toBe('charge.ts changed, 2 commits');
      const got = await mcp.call('ctx_get', { ids: [id] });
      expect((got.json.records as { stale?: string }[])[0]?.stale).toMatch(
        /^may be outdated: src\/billing\/charge\.ts changed since \(2 commits/,
      );
    } finally {
      await mcp.close();
    }
  });

  it('uncommitted edits count; a rename without change is followed; a deleted file is flagged', () => {
    const id = decisionAboutCharge();
    writeFileSync(join(w.repo, FILE), `${V1}// local tweak\n`);
    consolidate();
    expect(prompt('u1')).toMatch(/charge\.ts changed since \(uncommitted edits, ~\d+% of lines\)/);

    // moved as it was: still true, no label
    writeFileSync(join(w.repo, FILE), V1);
    git('mv', FILE, 'src/billing/charges.ts');
    git('commit', '-q', '-m', 'rename');
    expect(consolidate().staleness).toMatchObject({ stale_records: 0 });
    expect(prompt('u2')).not.toContain('may be outdated');

    // moved and changed: labelled with the new path
    commitFile('src/billing/charges.ts', `${V1}export const FEE = 3;\n`, 'fee');
    consolidate();
    expect(prompt('u3')).toContain(
      `may be outdated: ${FILE} moved to src/billing/charges.ts and changed since (2 commits`,
    ); // the rename and the change

    // deleted: flagged
    rmSync(join(w.repo, 'src/billing'), { recursive: true });
    git('add', '-A');
    git('commit', '-q', '-m', 'drop billing');
    expect(consolidate().staleness).toMatchObject({ stale_records: 1, deleted_files: 1 });
    expect(prompt('u4')).toContain(`may be outdated: ${FILE} was deleted`);
    expect(searchEntry(id)?.stale).toBe('charge.ts deleted');
  });
});
