import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #10 and #15: one name for a project everywhere (status, the digest header, export),
 * with a local bare repository as origin, and outside any git repository; there, say so plainly
 * and do not ask to commit the team file.
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(join(t.path, 'home'));
  mkdirSync(join(t.path, 'home'), { recursive: true });
});
afterAll(() => t.cleanup());

function names(cwd: string) {
  const rec = runJson(['record', '--type', 'decision', '--title', 'Use tabs', '--body', 'Tabs, width 4.'], {
    cwd,
    env,
  });
  expect(rec.code, rec.stderr).toBe(0);
  expect(runAgentctx(['consolidate'], { cwd, env }).code).toBe(0);
  const status = runJson<{ project: string; project_id: string; git: boolean }>(['status'], {
    cwd,
    env,
  }).json;
  const digest = readFileSync(
    join(t.path, 'home', '.agentctx', 'digests', `${status.project_id}.md`),
    'utf8',
  );
  const exported = runAgentctx(['export'], { cwd, env }).stdout;
  return {
    status: status.project,
    git: status.git,
    digest: /^# Project context for (.+) \(from agentctx\)$/m.exec(digest)?.[1],
    export: /^# (.+) — agentctx export$/m.exec(exported)?.[1],
  };
}

describe('one name for a project', () => {
  it('a local bare repository as origin: the folder name, not "origin", everywhere', () => {
    const repo = fakeRepo(t.path, 'shop', join(t.path, 'remotes', 'origin.git'));
    const n = names(repo);
    expect(n).toEqual({ status: 'shop', git: true, digest: 'shop', export: 'shop' });
  });

  it('outside a git repository: one name, said plainly, and no git advice', () => {
    const dir = join(t.path, 'notgit');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'billing-scripts' }));
    const n = names(dir);
    expect(n).toEqual({
      status: 'billing-scripts',
      git: false,
      digest: 'billing-scripts',
      export: 'billing-scripts',
    });
    expect(runAgentctx(['status'], { cwd: dir, env }).stdout).toContain('no git repository here');
    const exp = runJson<{ code: string }>(['team', 'export'], { cwd: dir, env });
    expect(exp.code).toBe(2);
    expect(exp.json.code).toBe('no_repository');
    expect(exp.stderr).toContain('no git repository at');
    expect(exp.stderr).not.toContain('git add');
  });
});
