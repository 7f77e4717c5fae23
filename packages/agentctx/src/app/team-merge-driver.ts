import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MERGE_DRIVER } from '../core/team/team-file.js';

/**
 * Register agentctx's merge driver for `.agentctx/context.md` in the repository's own git
 * config (`.git/config`, never the user's global one): `.gitattributes` names the driver, and
 * git runs the command below on a merge of the file (core/team/team-merge.ts). Written on every
 * team export and import, so it follows a reinstall that moved the binary. A clone where it was
 * never written (no export or import ran there) gets git's ordinary merge: a visible conflict,
 * never a silent mixture. Best effort: no git, or a failure, changes nothing else.
 */
export function registerMergeDriver(root: string, bin: string | undefined = process.argv[1]): boolean {
  if (!bin || !existsSync(join(root, '.git'))) return false;
  const quote = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
  const command = `${quote(process.execPath)} ${quote(bin)} team merge-file %O %A %B`;
  const set = (key: string, value: string) =>
    spawnSync('git', ['config', '--local', `merge.${MERGE_DRIVER}.${key}`, value], {
      cwd: root,
      stdio: 'ignore',
      timeout: 5000,
    }).status === 0;
  return set('name', 'agentctx team file (by block)') && set('driver', command);
}
