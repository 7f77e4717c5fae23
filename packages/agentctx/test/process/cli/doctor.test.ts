import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { BIN, isolatedEnv, runAgentctx } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

/**
 * `agentctx doctor` against real homes: a healthy one passes (exit 0), and each way of being
 * broken — a damaged store, hooks whose `agentctx` is missing or does not run, a log with a
 * recent error — fails (exit 1) with the check that found it and what to do.
 */

interface Check {
  id: string;
  status: 'ok' | 'warn' | 'fail';
  summary: string;
  fix?: string;
}
interface Report {
  ok: boolean;
  checks: Check[];
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A home set up by `agentctx init`, a project, and a PATH whose `agentctx` is this build. */
function healthy() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const bin = join(t.path, 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'agentctx'));
  const project = join(t.path, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const env = isolatedEnv(t.path, { PATH: `${bin}:${process.env.PATH}`, AGENTCTX_NO_CLAUDE_CLI: '1' });
  const init = runAgentctx(['init'], { cwd: project, env });
  expect(init.code, init.stderr).toBe(0);
  const rec = runAgentctx(
    ['record', '--type', 'decision', '--title', 'WAL mode', '--body', 'Concurrent writers.'],
    {
      cwd: project,
      env,
    },
  );
  expect(rec.code, rec.stderr).toBe(0);
  expect(runAgentctx(['consolidate'], { cwd: project, env, timeoutMs: 60_000 }).code).toBe(0);
  return { root: t.path, bin, project, env, db: join(t.path, '.agentctx', 'agentctx.db') };
}

function doctor(h: { project: string; env: NodeJS.ProcessEnv }): {
  code: number;
  report: Report;
  stderr: string;
} {
  const res = runAgentctx(['doctor', '--json'], { cwd: h.project, env: h.env, timeoutMs: 60_000 });
  return { code: res.code, report: JSON.parse(res.stdout) as Report, stderr: res.stderr };
}

function check(r: Report, id: string): Check {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no ${id} check in ${JSON.stringify(r)}`);
  return c;
}

describe('agentctx doctor', () => {
  it('passes a healthy home: hooks, binary, MCP server, store, jobs all ok (exit 0)', () => {
    const h = healthy();
    const { code, report } = doctor(h);
    expect(code, JSON.stringify(report, null, 2)).toBe(0);
    expect(report.ok).toBe(true);
    for (const id of ['hooks', 'binary', 'mcp', 'store', 'extraction', 'jobs', 'digest', 'disk'])
      expect(check(report, id).status, id).toBe('ok');
    expect(check(report, 'store').summary).toMatch(/integrity_check ok, full-text index ok/);
    // the human form says the same, without colour when piped
    const text = runAgentctx(['doctor'], { cwd: h.project, env: h.env, timeoutMs: 60_000 });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/agentctx works here\./);
    expect(text.stdout).not.toMatch(/\x1b\[/);
  }, 120_000);

  it('fails on a damaged store file and says how to move it aside', () => {
    const h = healthy();
    writeFileSync(h.db, Buffer.alloc(8192, 0x5a));
    for (const suffix of ['-wal', '-shm']) writeFileSync(`${h.db}${suffix}`, '');
    const { code, report } = doctor(h);
    expect(code).toBe(1);
    const store = check(report, 'store');
    expect(store.status).toBe('fail');
    expect(store.fix).toContain(`mv ${h.db} ${h.db}.broken`);
    const text = runAgentctx(['doctor'], { cwd: h.project, env: h.env, timeoutMs: 60_000 });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/not fully working/);
  }, 120_000);

  it('fails when the full-text index no longer matches the records, with the rebuild command', () => {
    const h = healthy();
    const db = new Database(h.db);
    // a row written past the trigger that keeps the index in step
    db.exec('DROP TRIGGER records_fts_au');
    db.prepare("UPDATE records SET body = 'Changed behind the index.'").run();
    db.close();
    const { code, report } = doctor(h);
    expect(code).toBe(1);
    const store = check(report, 'store');
    expect(store.status).toBe('fail');
    expect(store.summary).toMatch(/full-text index/);
    expect(store.fix).toContain("VALUES('rebuild')");
  }, 120_000);

  it('fails when the hooks run an agentctx that is not on PATH, or one that does not run', () => {
    const h = healthy();
    // node's own folder and the system's: no agentctx there (npx's node_modules/.bin would have one)
    const bare = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const noBin = doctor({ ...h, env: { ...h.env, PATH: bare } });
    expect(noBin.code).toBe(1);
    const missing = check(noBin.report, 'binary');
    expect(missing.status).toBe('fail');
    expect(missing.summary).toMatch(/not on PATH/);
    expect(missing.fix).toMatch(/npm install -g @agentctxhq\/agentctx/);

    const broken = join(h.root, 'broken-bin');
    mkdirSync(broken);
    writeFileSync(join(broken, 'agentctx'), '#!/bin/sh\necho "cannot find module" >&2\nexit 1\n');
    chmodSync(join(broken, 'agentctx'), 0o755);
    const bad = doctor({ ...h, env: { ...h.env, PATH: `${broken}:${bare}` } });
    expect(bad.code).toBe(1);
    expect(check(bad.report, 'binary').summary).toMatch(/does not run/);
    expect(check(bad.report, 'binary').fix).toMatch(/reinstall/);
  }, 120_000);

  it('fails on a recent error in the logs, and ignores one older than a day', () => {
    const h = healthy();
    const logs = join(h.root, '.agentctx', 'logs');
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    writeFileSync(join(logs, 'consolidate.log'), `${old} [11] project=p failed: disk I/O error\n`);
    expect(doctor(h).code).toBe(0);
    const now = new Date().toISOString();
    writeFileSync(
      join(logs, 'consolidate.log'),
      `${old} [11] project=p failed: disk I/O error\n${now} [12] project=p failed: SQLITE_BUSY: database is locked\n`,
    );
    const { code, report } = doctor(h);
    expect(code).toBe(1);
    const jobs = check(report, 'jobs');
    expect(jobs.status).toBe('fail');
    expect(jobs.summary).toMatch(/1 error in the last 24 hours.*SQLITE_BUSY/);
    expect(jobs.fix).toContain('consolidate.log');
  }, 120_000);

  it('fails when nothing is registered, without creating a home', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = isolatedEnv(t.path); // PATH as the tests run: an agentctx on it
    const res = runAgentctx(['doctor', '--json'], { cwd: t.path, env, timeoutMs: 60_000 });
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as Report;
    expect(check(report, 'hooks').status).toBe('fail');
    expect(check(report, 'hooks').fix).toMatch(/agentctx init/);
    expect(check(report, 'mcp').status).toBe('warn'); // it answers, but Claude Code does not know it
    expect(check(report, 'store').status).toBe('warn');
    expect(existsSync(join(t.path, '.agentctx'))).toBe(false);
  }, 120_000);
});
