import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../../../src/app/project.js';
import { normalizeRemoteUrl, projectIdFor } from '../../../../src/core/records/namespace.js';
import { originFromConfig } from '../../../../src/git/git-repo.js';
import { fakeRepo, tempDir } from '../../../support/tmp.js';

describe('normalizeRemoteUrl', () => {
  const same = [
    'git@github.com:Acme/Widget.git',
    'https://github.com/acme/widget',
    'https://user:token@GitHub.com/Acme/Widget.git',
    'ssh://git@github.com:22/acme/widget.git',
    'ssh://git@github.com/acme/widget',
    'git://github.com/acme/widget.git/',
    'http://github.com/acme/widget/',
  ];
  it.each(same)('unifies %s', (url) => {
    expect(normalizeRemoteUrl(url)).toBe('github.com/acme/widget');
  });

  it('keeps different repositories apart', () => {
    expect(normalizeRemoteUrl('git@github.com:acme/widget.git')).not.toBe(
      normalizeRemoteUrl('git@github.com:fork/widget.git'),
    );
    expect(projectIdFor('git@github.com:acme/widget.git', '/a')).toBe(
      projectIdFor('https://github.com/acme/widget', '/b'),
    );
    expect(projectIdFor(null, '/a')).not.toBe(projectIdFor(null, '/b'));
    expect(projectIdFor(null, '/a')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('originFromConfig', () => {
  it('reads the origin url and ignores other remotes', () => {
    const cfg = `[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@x:up/repo.git\n[remote "origin"]\n\turl = "https://h/o/r.git"\n`;
    expect(originFromConfig(cfg)).toBe('https://h/o/r.git');
    expect(originFromConfig('[core]\n')).toBeNull();
  });
});

describe('resolveProject', () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it('finds the repo from a subfolder and falls back to the root path without a remote', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const withRemote = fakeRepo(t.path, 'one', 'git@github.com:acme/one.git');
    mkdirSync(join(withRemote, 'src', 'deep'), { recursive: true });
    const a = resolveProject(join(withRemote, 'src', 'deep'));
    expect(a.root).toBe(withRemote);
    expect(a.id).toBe(projectIdFor('https://github.com/acme/one', ''));
    expect(a.name).toBe('one');
    const local = fakeRepo(t.path, 'two', null);
    expect(resolveProject(local).id).toBe(projectIdFor(null, local));
  });

  it('follows a worktree .git file to the main repository config', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const main = fakeRepo(t.path, 'main', 'git@github.com:acme/main.git');
    const wtGit = join(main, '.git', 'worktrees', 'feature');
    mkdirSync(wtGit, { recursive: true });
    writeFileSync(join(wtGit, 'commondir'), '../..\n');
    const wt = join(t.path, 'feature');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${wtGit}\n`);
    expect(resolveProject(wt).id).toBe(resolveProject(main).id);
  });
});
