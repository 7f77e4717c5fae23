import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tryLock } from '../../../src/app/lock.js';
import { resolveProject } from '../../../src/app/project.js';
import { openDb } from '../../../src/database/open.js';
import { readRetirementCounters } from '../../../src/database/retirement.js';
import { BIN, isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  t = tempDir();
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  writeFileSync(
    join(repo, 'package.json'),
    JSON.stringify({
      name: 'shop',
      scripts: { test: 'vitest run' },
      devDependencies: { typescript: '5.9.0' },
    }),
  );
  writeFileSync(join(repo, 'CLAUDE.md'), '# Shop\n\n- Use npm workspaces for every package.\n');
  env = isolatedEnv(t.path);
});
afterEach(() => t.cleanup());

function record(type: string, title: string, body: string) {
  const r = runJson(['record', '--type', type, '--title', title, '--body', body], { cwd: repo, env });
  expect(r.code).toBe(0);
  return r.json as { id: string };
}

/** Wait until a generation of the lock `name` in `dir` (`<name>.<n>.lock`) names `pid` as its holder. */
async function heldBy(dir: string, name: string, pid: number, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      for (const f of readdirSync(dir).filter((f) => f.startsWith(`${name}.`) && f.endsWith('.lock')))
        if ((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { pid?: number }).pid === pid) return;
    } catch {
      // not there yet, or taken over meanwhile
    }
    if (Date.now() > until) throw new Error(`the lock ${name} never named ${pid} as its holder`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('agentctx consolidate (built CLI)', () => {
  it('writes the digest file the SessionStart hook reads, and reports what it did', () => {
    record('decision', 'Money is integer cents', 'Every amount column is a BIGINT of cents.');
    record('decision', 'Deploy from main only', 'Releases are cut from main by CI.');
    record('discovery', 'The cache warms on boot', 'Startup fills the price cache.');
    record('discovery', 'The cache warms on boot', 'Startup fills the price cache!');
    const res = runJson<Record<string, unknown>>(['consolidate'], { cwd: repo, env });
    expect(res.code).toBe(0);
    expect(res.json.finished).toBe(true);
    expect(res.json.merged).toBe(1);
    expect(res.json.drift).toEqual({ missing: 2, contradicted: 0 });
    const id = resolveProject(repo).id;
    const dir = join(t.path, '.agentctx', 'digests');
    const text = readFileSync(join(dir, `${id}.md`), 'utf8');
    expect(text).toContain('# Project context for');
    expect(text).toContain('- Money is integer cents — Every amount column is a BIGINT of cents.');
    expect(text).toContain('Note: CLAUDE.md is behind the store: 2 decisions/conventions missing.');
    // the profile refresh ran: the test command was read from package.json
    expect(text).toContain('- Test command: npm test');
    const meta = JSON.parse(readFileSync(join(dir, `${id}.digest.json`), 'utf8')) as {
      text: string;
      ids: string[];
      tokens: number;
      retire_stamp: number;
    };
    expect(meta.text).toBe(text);
    expect(meta.ids.length).toBeGreaterThanOrEqual(3);
    expect(meta.tokens).toBeLessThanOrEqual(1500);
    // stamped with the store's retirement count (the merge retired a discovery, which no digest shows)
    expect(meta.retire_stamp).toBe(readRetirementCounters(join(t.path, '.agentctx', 'agentctx.db')).begun);
    expect(meta.retire_stamp).toBe(0);
    expect(readFileSync(join(t.path, '.agentctx', 'logs', 'consolidate.log'), 'utf8')).toContain(
      'finished=true',
    );
    // CLAUDE.md is never touched
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe(
      '# Shop\n\n- Use npm workspaces for every package.\n',
    );
    const human = runAgentctx(['consolidate'], { cwd: repo, env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('duplicates merged  0');
  });

  it('runs one at a time per project: a held lock makes a second run skip', () => {
    record('decision', 'Deploy from main only', 'Releases are cut from main by CI.');
    const id = resolveProject(repo).id;
    // hold the lock from this (live) process, exactly as a running consolidate would
    const lock = tryLock(join(t.path, '.agentctx', 'locks'), `consolidate-${id}`);
    expect(lock).not.toBeNull();
    try {
      const res = runJson<Record<string, unknown>>(['consolidate'], { cwd: repo, env });
      expect(res.code).toBe(0);
      expect(res.json.skipped).toBe('locked');
      expect(existsSync(join(t.path, '.agentctx', 'digests', `${id}.md`))).toBe(false);
    } finally {
      lock!.release();
    }
    expect(runJson<Record<string, unknown>>(['consolidate'], { cwd: repo, env }).json.finished).toBe(true);
  });

  it('two started together: one runs, the other skips', async () => {
    record('decision', 'Deploy from main only', 'Releases are cut from main by CI.');
    const start = () =>
      new Promise<string>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'consolidate', '--json'], { cwd: repo, env });
        let out = '';
        p.stdout.on('data', (d: Buffer) => {
          out += d.toString();
        });
        p.on('close', () => resolve(out));
      });
    const outs = (await Promise.all([start(), start(), start()])).map(
      (o) => JSON.parse(o) as Record<string, unknown>,
    );
    const ran = outs.filter((o) => o.finished === true).length;
    const skipped = outs.filter((o) => o.skipped === 'locked').length;
    expect(ran + skipped).toBe(3);
    expect(ran).toBeGreaterThanOrEqual(1);
  });

  it('killed mid-run, leaves a sound store, and the next run finishes the job', async () => {
    // a store big enough that the run takes a while
    const id = resolveProject(repo).id;
    const db = openDb(join(t.path, '.agentctx', 'agentctx.db'));
    const ins = db.prepare(
      `INSERT INTO records (id, project_id, type, title, body, confidence, valid_from, recorded_at, source)
       VALUES (?, ?, ?, ?, ?, 'explicit', ?, ?, 'cli')`,
    );
    db.transaction(() => {
      for (let i = 0; i < 4000; i++) {
        const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
        const body = `Record ${i} about w${(i * 7919) % 1000} and v${(i * 104729) % 997} in module m${i % 50}.`;
        ins.run(
          `01JA${String(i).padStart(22, '0')}`,
          id,
          i % 2 ? 'discovery' : 'bugfix',
          `Title ${i} w${i % 300}`,
          body,
          at,
          at,
        );
        if (i % 10 === 0) {
          ins.run(
            `01JB${String(i).padStart(22, '0')}`,
            id,
            i % 2 ? 'discovery' : 'bugfix',
            `title ${i} W${i % 300}!`,
            body,
            at,
            at,
          );
        }
      }
    })();
    db.close();
    const child = spawn(process.execPath, [BIN, 'consolidate', '--json'], { cwd: repo, env });
    const closed = new Promise<NodeJS.Signals | null>((r) => child.on('close', (_code, signal) => r(signal)));
    // mid-run, whatever the machine's load: the run holds its lock (written after start-up, before
    // any work), then gets a moment into the work before the kill; a fixed delay from the spawn
    // landed before start-up on a loaded machine
    const lockName = `consolidate-${id}`.replace(/[^A-Za-z0-9_.-]/g, '_');
    await heldBy(join(t.path, '.agentctx', 'locks'), lockName, child.pid!, 120_000);
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGKILL');
    expect(await closed, 'the kill landed on a live run').toBe('SIGKILL');
    const check = openDb(join(t.path, '.agentctx', 'agentctx.db'));
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    // the dead run's lock is taken over; the rerun completes (time for a loaded machine)
    const res = runJson<Record<string, unknown>>(['consolidate'], { cwd: repo, env, timeoutMs: 180_000 });
    expect(res.json.finished).toBe(true);
    const after = openDb(join(t.path, '.agentctx', 'agentctx.db'));
    expect(
      after
        .prepare("SELECT COUNT(*) AS n FROM records WHERE id LIKE '01JB%' AND superseded_by LIKE '01JA%'")
        .get(),
    ).toEqual({
      n: 400,
    });
    expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
    after.close();
  }, 300_000);

  it('near-duplicate candidates come back after their rows are deleted; a dismissal outlives them', () => {
    const pairs = [
      ['zorblat', 'quuxhandler', 'flumox'],
      ['vextrin', 'plomber', 'gadrule'],
      ['snarfle', 'wibcore', 'trelloid'],
    ].map(([what, where, fn]) => {
      const a = record(
        'bugfix',
        `Fix ${what} crash in ${where}`,
        `Null check in ${where} ${fn}; root cause was a missing guard.`,
      );
      const b = record(
        'bugfix',
        `Fixed the ${what} crash in ${where}`,
        `Added a null check in ${where} ${fn}; the root cause was a missing guard there.`,
      );
      return [a.id, b.id].sort().join('~');
    });
    const listed = () => {
      const st = runJson<{ merge_candidates: { top: { record_a: string; record_b: string }[] } }>(
        ['status', '--verbose'],
        {
          cwd: repo,
          env,
        },
      );
      return st.json.merge_candidates.top.map((c) => [c.record_a, c.record_b].sort().join('~')).sort();
    };
    expect(runJson(['consolidate'], { cwd: repo, env }).code).toBe(0);
    const all = listed();
    expect(all).toEqual([...pairs].sort());
    const [x, y] = pairs[1]!.split('~') as [string, string];
    const dismissed = runJson(['merge', y, x, '--dismiss'], { cwd: repo, env });
    expect(dismissed.code).toBe(0);
    const want = all.filter((p) => p !== pairs[1]);
    expect(listed()).toEqual(want);

    const wipe = (sql: string[]) => {
      const db = openDb(join(t.path, '.agentctx', 'agentctx.db'));
      for (const q of sql) db.prepare(q).run();
      db.close();
    };
    // the derived rows deleted: the next run notices and scans again
    wipe(['DELETE FROM merge_candidates']);
    expect(listed()).toEqual([]);
    const again = runJson<Record<string, unknown>>(['consolidate'], { cwd: repo, env });
    expect(again.json.rebuilt).toBe('lost');
    expect(listed()).toEqual(want);
    // everything derived about duplicates deleted, then the documented rebuild
    wipe(['DELETE FROM merge_candidates', 'DELETE FROM consolidation_runs']);
    const rebuilt = runJson<Record<string, unknown>>(['consolidate', '--rebuild'], { cwd: repo, env });
    expect(rebuilt.json.rebuilt).toBe('requested');
    expect(rebuilt.json.merge_candidates).toBe(2);
    expect(listed()).toEqual(want);
    const text = runAgentctx(['consolidate', '--rebuild'], { cwd: repo, env }).stdout;
    expect(text).toContain('merge candidates   2 (see agentctx status); rebuilt from the records');
  });
});
