import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway folder removed by `cleanup()`. */
export function tempDir(prefix = 'agentctx-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A git repository folder with an origin remote, made without running git. */
export function fakeRepo(parent: string, name: string, origin: string | null): string {
  const root = join(parent, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  const remote = origin
    ? `[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`
    : '';
  writeFileSync(join(root, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n${remote}`);
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return root;
}
