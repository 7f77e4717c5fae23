import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from './cli.js';

export const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');

export interface PackResult {
  status: number | null;
  stderr: string;
  files: Map<string, number>;
  /** The copy's package folder: what prepack/postpack left there. */
  packageDir: string;
  cleanup: () => void;
}

/**
 * `npm pack --dry-run --json` of one workspace package (with `tarballTo`, a real pack into that
 * folder), run in a copy of the repository
 * (sources, scripts, README, LICENSE; node_modules linked), so that prepack's build writes
 * the copy's dist/ and never the bundles other tests are running at the same moment.
 */
export function packInCopy(pkg: 'agentctx' | 'agentctx-ui', opts: { tarballTo?: string } = {}): PackResult {
  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-pack-'));
  for (const f of ['README.md', 'LICENSE', 'package.json', 'package-lock.json'])
    cpSync(join(REPO_ROOT, f), join(tmp, f));
  cpSync(join(REPO_ROOT, 'scripts'), join(tmp, 'scripts'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(tmp, 'node_modules'));
  for (const p of ['agentctx', 'agentctx-ui']) {
    const from = join(REPO_ROOT, 'packages', p);
    cpSync(from, join(tmp, 'packages', p), {
      recursive: true,
      filter: (src) => !/^(node_modules|dist|test)(\/|$)/.test(relative(from, src).split(sep).join('/')),
    });
    if (existsSync(join(from, 'node_modules')))
      symlinkSync(join(from, 'node_modules'), join(tmp, 'packages', p, 'node_modules'));
  }
  const packageDir = join(tmp, 'packages', pkg);
  const args = opts.tarballTo ? ['--pack-destination', opts.tarballTo] : ['--dry-run'];
  const res = spawnSync('npm', ['pack', '--json', ...args], {
    cwd: packageDir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });
  let files = new Map<string, number>();
  if (res.status === 0) {
    const [pack] = JSON.parse(res.stdout) as { files: { path: string; size: number }[] }[];
    files = new Map((pack?.files ?? []).map((f) => [f.path, f.size]));
  }
  return {
    status: res.status,
    stderr: res.stderr,
    files,
    packageDir,
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}
