import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { App } from '../app/context.js';
import {
  type ResolvedPackage,
  resolveSemanticPackage,
  SEMANTIC_PACKAGES,
  semanticPackagesDir,
  TRANSFORMERS,
} from '../app/semantic-runtime.js';

/**
 * `agentctx init --semantic`: the semantic layer's runtime, installed on request. The default
 * install stays keyword-only and small; this puts the pinned transformers.js (with its ONNX
 * runtime) into `<agentctx home>/semantic` through the user's own npm, where the embedder
 * finds it (app/semantic-runtime.ts).
 */

export interface RuntimeReport {
  status: 'present' | 'installed' | 'failed';
  dir: string;
  from?: ResolvedPackage['from'];
  packages: Record<string, string>;
  reason?: string;
}

/** The npm command line that installs `packages` into the npm prefix `dir`. */
export function npmInstallCommand(
  dir: string,
  packages: Readonly<Record<string, string>>,
  env: Record<string, string | undefined>,
): { command: string; args: string[]; env: Record<string, string | undefined> } {
  const command = env.AGENTCTX_NPM || (process.platform === 'win32' ? 'npm.cmd' : 'npm');
  return {
    command,
    args: [
      'install',
      '--prefix',
      dir,
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...Object.entries(packages).map(([name, version]) => `${name}@${version}`),
    ],
    // onnxruntime-node's install step would fetch GPU (CUDA) files it does not need: the CPU
    // runtime ships inside the package
    env: { ...env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_update_notifier: 'false' },
  };
}

/** Install the runtime unless it can already be found; npm's own output goes to stderr. */
export function installRuntime(a: App, io: { stderr: (t: string) => void; quiet: boolean }): RuntimeReport {
  const dir = semanticPackagesDir(a.paths);
  const base = { dir, packages: { ...SEMANTIC_PACKAGES } };
  const found = resolveSemanticPackage(TRANSFORMERS, dir);
  if (found) return { ...base, status: 'present', from: found.from };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const npm = npmInstallCommand(dir, SEMANTIC_PACKAGES, a.env);
  io.stderr(
    `agentctx: installing ${Object.entries(SEMANTIC_PACKAGES)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')} into ${dir} (~460 MB, once)\n`,
  );
  const res = spawnSync(npm.command, npm.args, {
    env: npm.env,
    // npm's progress on the terminal; with --json its output is kept for the report only
    stdio: io.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 2, 2],
    encoding: 'utf8',
    shell: process.platform === 'win32',
    timeout: 30 * 60_000,
  });
  if (res.status !== 0) {
    const tail = `${res.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    return {
      ...base,
      status: 'failed',
      reason: `${npm.command} ${npm.args.join(' ')} ${res.error ? `could not run: ${res.error.message}` : `exited ${res.status}`}${tail ? `: ${tail}` : ''}`,
    };
  }
  const after = resolveSemanticPackage(TRANSFORMERS, dir);
  if (after?.from !== 'home')
    return { ...base, status: 'failed', reason: `npm finished but ${TRANSFORMERS} is not in ${dir}` };
  return { ...base, status: 'installed', from: 'home' };
}
