import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { startMcp } from '../mcp/client.js';
import { runHook } from './helpers.js';

/**
 * CONTRACTS.md §inv-3 at SessionStart: once a command that retires a record has returned, no later
 * SessionStart shows it — whichever path retired it (CLI, MCP, merge, profile, reset), with the
 * digest written before the retirement still on disk. Real processes throughout: the built CLI,
 * the MCP server over stdio and the hook.
 */

interface World {
  env: NodeJS.ProcessEnv;
  repoA: string;
  repoB: string;
  cleanup: () => void;
}

let worlds: World[] = [];
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});

function world(): World {
  const t = tempDir('agentctx-retired-');
  const env = isolatedEnv(t.path);
  const w = {
    env,
    repoA: fakeRepo(t.path, 'orders', 'git@github.com:acme/orders.git'),
    repoB: fakeRepo(t.path, 'billing', 'git@github.com:acme/billing.git'),
    cleanup: t.cleanup,
  };
  worlds.push(w);
  return w;
}

function ok(w: World, cwd: string, args: string[]): Record<string, unknown> {
  const r = runJson(args, { cwd, env: w.env });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.json;
}

function record(w: World, cwd: string, type: string, title: string, body: string, scope = 'project'): string {
  return ok(w, cwd, ['record', '--type', type, '--title', title, '--body', body, '--scope', scope])
    .id as string;
}

function consolidate(w: World, cwd: string): void {
  const r = runAgentctx(['consolidate'], { cwd, env: w.env, timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
}

let sessions = 0;
function sessionStart(w: World, cwd: string): string {
  const r = runHook({ env: w.env, repo: cwd }, 'session-start', {
    session_id: `retired-${++sessions}`,
    transcript_path: join(cwd, 'none.jsonl'),
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  expect(r.code).toBe(0);
  return r.context;
}

/** The old record's words (a supersession keeps the title unless given a new one). */
const OLD_FACT = 'stores orders in MySQL 8';

/** A project with a decision in its consolidated digest. */
function withDigestedDecision(): { w: World; id: string } {
  const w = world();
  const id = record(
    w,
    w.repoA,
    'decision',
    'Use MySQL for orders',
    'The orders service stores orders in MySQL 8.',
  );
  consolidate(w, w.repoA);
  expect(sessionStart(w, w.repoA)).toContain(OLD_FACT);
  return { w, id };
}

describe('SessionStart never shows a record retired after the digest was written', () => {
  it('agentctx supersede', () => {
    const { w, id } = withDigestedDecision();
    ok(w, w.repoA, ['supersede', id, '--body', 'Orders moved to PostgreSQL 16.', '--rationale', 'jsonb']);
    const ctx = sessionStart(w, w.repoA);
    expect(ctx).not.toContain(OLD_FACT);
    expect(ctx).toContain('PostgreSQL 16');
    // and the next session too (the digest on disk is current again)
    expect(sessionStart(w, w.repoA)).toBe(ctx);
  });

  it('ctx_supersede and ctx_record with supersedes, from a session running side by side', async () => {
    const { w, id } = withDigestedDecision();
    const mcp = await startMcp(w.repoA, w.env);
    try {
      const a = await mcp.call('ctx_supersede', {
        old_id: id,
        new_body: 'Orders moved to PostgreSQL 16.',
        rationale: 'jsonb',
      });
      expect(a.isError, a.text).toBe(false);
      let ctx = sessionStart(w, w.repoA);
      expect(ctx).not.toContain(OLD_FACT);
      expect(ctx).toContain('PostgreSQL 16');
      const b = await mcp.call('ctx_record', {
        type: 'decision',
        title: 'Orders on CockroachDB',
        body: 'Orders moved again, to CockroachDB, for multi-region writes.',
        supersedes: a.json.new_id,
      });
      expect(b.isError, b.text).toBe(false);
      ctx = sessionStart(w, w.repoA);
      expect(ctx).not.toContain('PostgreSQL 16');
      expect(ctx).toContain('CockroachDB');
    } finally {
      await mcp.close();
    }
  });

  it('agentctx merge', () => {
    const w = world();
    const keep = record(
      w,
      w.repoA,
      'convention',
      'Tabs for indentation',
      'Source files are indented with tabs.',
    );
    const copy = record(
      w,
      w.repoA,
      'convention',
      'Indent using tab characters',
      'Indent source with tab chars.',
    );
    consolidate(w, w.repoA);
    expect(sessionStart(w, w.repoA)).toContain('Indent using tab characters');
    ok(w, w.repoA, ['merge', keep, copy]);
    const ctx = sessionStart(w, w.repoA);
    expect(ctx).toContain('Tabs for indentation');
    expect(ctx).not.toContain('Indent using tab characters');
  });

  it('agentctx profile edit and profile clear, seen from another project', () => {
    const w = world();
    const pref = record(
      w,
      w.repoA,
      'preference',
      'Small commits',
      'Prefers small, focused commits.',
      'global',
    );
    record(w, w.repoB, 'decision', 'Stripe for billing', 'Billing goes through Stripe.');
    consolidate(w, w.repoB);
    expect(sessionStart(w, w.repoB)).toContain('Small commits');
    const edited = ok(w, w.repoA, [
      'profile',
      'edit',
      pref,
      '--body',
      'Prefers one commit per task.',
      '--title',
      'One commit per task',
    ]);
    let ctx = sessionStart(w, w.repoB);
    expect(ctx).not.toContain('Small commits');
    expect(ctx).toContain('One commit per task');
    ok(w, w.repoA, ['profile', 'clear', edited.new_id as string]);
    ctx = sessionStart(w, w.repoB);
    expect(ctx).not.toContain('One commit per task');
    expect(ctx).toContain('Stripe for billing');
  });

  it('agentctx reset --global, seen from another project', () => {
    const w = world();
    record(w, w.repoA, 'preference', 'Small commits', 'Prefers small, focused commits.', 'global');
    record(w, w.repoB, 'decision', 'Stripe for billing', 'Billing goes through Stripe.');
    consolidate(w, w.repoB);
    expect(sessionStart(w, w.repoB)).toContain('Small commits');
    ok(w, w.repoA, ['reset', '--global', '--yes']);
    const ctx = sessionStart(w, w.repoB);
    expect(ctx).not.toContain('Small commits');
    expect(ctx).toContain('Stripe for billing');
  });

  it('a second handover, recorded while the digest shows the first', () => {
    const w = world();
    record(w, w.repoA, 'handover', 'Migrating the invoices table', 'Next: backfill the new column.');
    consolidate(w, w.repoA);
    expect(sessionStart(w, w.repoA)).toContain('Migrating the invoices table');
    record(w, w.repoA, 'handover', 'Shipping the refund flow', 'Next: QA on staging.');
    const ctx = sessionStart(w, w.repoA);
    expect(ctx).toContain('Shipping the refund flow');
    expect(ctx).not.toContain('Migrating the invoices table');
  });
});
