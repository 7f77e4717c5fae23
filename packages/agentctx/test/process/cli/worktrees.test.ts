import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectIdFor } from '../../../src/core/records/namespace.js';
import { createRecord } from '../../../src/core/records/records.js';
import { openDb } from '../../../src/database/open.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { git } from '../../support/git.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Worktrees of one repository share one project, with or without a remote: real `git worktree
 * add`, the built CLI and hooks. A store written when each worktree was its own project keeps
 * its records: they move to the shared id the first time a command runs in the repository.
 */

/** A repository with one commit (a worktree needs one), no remote unless given. */
function repoWithCommit(dir: string, origin?: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (origin) git(dir, 'remote', 'add', 'origin', origin);
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
  return realpathSync(dir);
}

const status = (cwd: string, env: NodeJS.ProcessEnv) =>
  runJson<{ project_id: string; project: string; root: string }>(['status'], { cwd, env });

let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  tmp = tempDir('agentctx-worktrees-');
  mkdirSync(join(tmp.path, 'tmp'), { recursive: true });
  env = isolatedEnv(tmp.path);
});
afterAll(() => tmp.cleanup());

describe('worktrees share one project', () => {
  it('without a remote: the main worktree and linked ones (and their subfolders) have one id', () => {
    const main = repoWithCommit(join(tmp.path, 'plain', 'app'));
    git(main, 'worktree', 'add', '-q', join(tmp.path, 'plain', 'app-feature'), '-b', 'feature');
    git(main, 'worktree', 'add', '-q', join(tmp.path, 'plain', 'elsewhere', 'hotfix'), '-b', 'hotfix');
    const wt = realpathSync(join(tmp.path, 'plain', 'app-feature'));
    const wt2 = realpathSync(join(tmp.path, 'plain', 'elsewhere', 'hotfix'));
    mkdirSync(join(wt2, 'src', 'deep'), { recursive: true });
    const ids = [main, wt, join(wt2, 'src', 'deep')].map((cwd) => {
      const s = status(cwd, env);
      expect(s.code, s.stderr).toBe(0);
      return s.json;
    });
    expect(new Set(ids.map((s) => s.project_id)).size).toBe(1);
    expect(ids[0]!.project_id).toBe(projectIdFor(null, main)); // the main worktree keeps its id
    expect(ids.map((s) => s.project)).toEqual(['app', 'app', 'app']);
    // each worktree keeps its own root (CLAUDE.md and the team file are per work tree)
    expect(ids[1]!.root).toBe(wt);

    // a record made in one worktree is found from another, by the CLI and by the prompt hook
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        'Invoices are rendered by the typst service',
        '--body',
        'Never render invoice PDFs in the web process.',
      ],
      { cwd: wt, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    const found = runJson<{ results: { id: string }[] }>(['search', 'invoice typst'], { cwd: wt2, env });
    expect(found.json.results.map((r) => r.id)).toContain(rec.json.id);
    const hook = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: main,
      env,
      input: JSON.stringify({
        session_id: 'wt-s1',
        cwd: main,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'How are invoice PDFs rendered with typst?',
      }),
    });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain(rec.json.id);
  });

  it('a bare repository’s worktrees share one id; two separate repositories do not', () => {
    const src = repoWithCommit(join(tmp.path, 'bare-src'));
    const bare = join(tmp.path, 'bare', 'proj.git');
    git(tmp.path, 'clone', '-q', '--bare', src, bare);
    git(bare, 'worktree', 'add', '-q', join(tmp.path, 'bare', 'one'), 'main');
    git(bare, 'worktree', 'add', '-q', join(tmp.path, 'bare', 'two'), '-b', 'two');
    const one = status(join(tmp.path, 'bare', 'one'), env).json;
    const two = status(join(tmp.path, 'bare', 'two'), env).json;
    // the clone's origin is the source folder: a remote names the project, as before
    expect(one.project_id).toBe(two.project_id);
    git(bare, 'remote', 'remove', 'origin');
    const oneNoRemote = status(join(tmp.path, 'bare', 'one'), env).json;
    const twoNoRemote = status(join(tmp.path, 'bare', 'two'), env).json;
    expect(oneNoRemote.project_id).toBe(twoNoRemote.project_id);
    expect(oneNoRemote.project_id).toBe(projectIdFor(null, realpathSync(bare)));

    const other = repoWithCommit(join(tmp.path, 'other', 'app'));
    expect(status(other, env).json.project_id).not.toBe(status(src, env).json.project_id);
  });

  it('with a remote: every worktree has the remote’s id, as before', () => {
    const main = repoWithCommit(join(tmp.path, 'remote', 'svc'), 'git@github.com:acme/svc.git');
    git(main, 'worktree', 'add', '-q', join(tmp.path, 'remote', 'svc-wt'), '-b', 'wt');
    const a = status(main, env).json.project_id;
    const b = status(join(tmp.path, 'remote', 'svc-wt'), env).json.project_id;
    expect(a).toBe(b);
    expect(a).toBe(projectIdFor('git@github.com:acme/svc.git', main));
  });
});

describe('a store from before: one project per worktree', () => {
  let main: string;
  let wt: string;
  let oldId: string;
  let sharedId: string;
  const dbPath = () => join(env.AGENTCTX_HOME as string, 'agentctx.db');

  beforeAll(() => {
    main = repoWithCommit(join(tmp.path, 'legacy', 'shop'));
    git(main, 'worktree', 'add', '-q', join(tmp.path, 'legacy', 'shop-wt'), '-b', 'wt');
    wt = realpathSync(join(tmp.path, 'legacy', 'shop-wt'));
    sharedId = projectIdFor(null, main);
    oldId = projectIdFor(null, wt); // what this agentctx named the worktree before
    expect(oldId).not.toBe(sharedId);
    // the store as the earlier version left it: records under both ids, a current handover in each
    runJson(['status'], { cwd: main, env }); // creates the store
    const db = openDb(dbPath());
    const newId = monotonicFactory();
    const at = (iso: string) => () => new Date(iso);
    const deps = (projectId: string, iso: string) => ({ db, clock: at(iso), newId, projectId });
    createRecord(deps(sharedId, '2026-11-01T10:00:00Z'), {
      type: 'handover',
      title: 'Main handover',
      body: 'Older handover written in the main worktree.',
      source: 'cli',
      confidence: 'explicit',
    });
    createRecord(deps(oldId, '2026-11-02T10:00:00Z'), {
      type: 'decision',
      title: 'Carts expire after thirty minutes of inactivity',
      body: 'The cart sweeper removes carts idle for thirty minutes.',
      source: 'cli',
      confidence: 'explicit',
    });
    createRecord(deps(oldId, '2026-11-03T10:00:00Z'), {
      type: 'handover',
      title: 'Worktree handover',
      body: 'Newer handover written in the linked worktree.',
      source: 'cli',
      confidence: 'explicit',
    });
    db.prepare('INSERT INTO sessions (session_id, project_id, started_at) VALUES (?, ?, ?)').run(
      'old-session',
      oldId,
      '2026-11-03T09:00:00Z',
    );
    db.close();
  });

  it('moves the worktree’s records to the shared id on the first command; nothing is lost', () => {
    const before = openDb(dbPath());
    const total = (
      before.prepare('SELECT COUNT(*) AS n FROM records WHERE project_id IN (?, ?)').get(sharedId, oldId) as {
        n: number;
      }
    ).n;
    before.close();
    // a command in the MAIN worktree finds the linked worktree through git's worktree list
    const found = runJson<{ results: { title: string }[] }>(['search', 'cart expire inactivity'], {
      cwd: main,
      env,
    });
    expect(found.code, found.stderr).toBe(0);
    expect(found.json.results.map((r) => r.title)).toContain(
      'Carts expire after thirty minutes of inactivity',
    );
    const db = openDb(dbPath());
    try {
      const rows = db
        .prepare('SELECT project_id, type, title, superseded_at FROM records WHERE project_id IN (?, ?)')
        .all(sharedId, oldId) as {
        project_id: string;
        type: string;
        title: string;
        superseded_at: string | null;
      }[];
      expect(rows).toHaveLength(total);
      expect(new Set(rows.map((r) => r.project_id))).toEqual(new Set([sharedId]));
      // one current handover: the newer one; the older is history, not deleted
      const current = rows.filter((r) => r.type === 'handover' && r.superseded_at === null);
      expect(current.map((r) => r.title)).toEqual(['Worktree handover']);
      const session = db
        .prepare("SELECT project_id FROM sessions WHERE session_id = 'old-session'")
        .get() as {
        project_id: string;
      };
      expect(session.project_id).toBe(sharedId);
    } finally {
      db.close();
    }
    // the status of the worktree counts the moved session's project as its own
    const s = status(wt, env);
    expect(s.json.project_id).toBe(sharedId);
  });

  it('a second command moves nothing and changes nothing', () => {
    const snapshot = () => {
      const db = openDb(dbPath());
      try {
        return JSON.stringify(db.prepare('SELECT * FROM records ORDER BY id').all());
      } finally {
        db.close();
      }
    };
    const before = snapshot();
    expect(runJson(['status'], { cwd: wt, env }).code).toBe(0);
    expect(snapshot()).toBe(before);
  });
});
