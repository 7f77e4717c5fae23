import { spawnSync } from 'node:child_process';

/**
 * Run git in `cwd` as a fixed committer (tests commit in throwaway repositories, with no user
 * configuration to rely on); its stdout, or an error naming the command and git's stderr.
 * `env` is the environment to start from (default: this process's).
 */
export function gitIn(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `gitIn` with the arguments spread, for tests that run many git commands. */
export const git = (cwd: string, ...args: string[]): string => gitIn(cwd, args);
