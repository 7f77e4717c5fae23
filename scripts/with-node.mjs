#!/usr/bin/env node
// Runs a command under another Node version, fetched from the npm registry, where the official
// binaries are published as `node-<platform>-<arch>` packages:
//   node scripts/with-node.mjs 22.16.0 [--cwd DIR] -- node_modules/vitest/vitest.mjs run test/unit
// The first argument after `--` is run by that Node (`node <args…>`), with its folder first on
// PATH so that child processes started by name get the same Node. The binary is kept under
// node_modules/.cache/agentctx-node/<version>/ and fetched once (`npm pack`, then tar).
// `--print` prints the binary's path instead of running anything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(root, 'node_modules', '.cache', 'agentctx-node');

function usage(message) {
  process.stderr.write(
    `with-node: ${message}\nusage: node scripts/with-node.mjs <version> [--cwd DIR] (--print | -- <script> [args…])\n`,
  );
  process.exit(2);
}

/** The folder holding bin/node for `version`, fetched from the registry when missing. */
export function nodeFor(version) {
  const dir = join(CACHE, version);
  const bin = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(bin)) return dir;
  const name = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  mkdirSync(CACHE, { recursive: true });
  const tmp = mkdtempSync(join(CACHE, `.fetch-${version}-`));
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', tmp], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed (exit ${packed.status})`);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${name}@${version} left no tarball`);
    const untar = spawnSync('tar', ['xzf', join(tmp, tarball), '-C', tmp], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`cannot unpack ${tarball}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(tmp, 'package'), dir); // atomic: a parallel run sees a whole folder or none
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const version = args.shift();
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) usage('the first argument is a version, such as 22.16.0');
  let cwd = process.cwd();
  let print = false;
  while (args.length > 0 && args[0] !== '--') {
    const a = args.shift();
    if (a === '--cwd') cwd = resolve(args.shift() ?? usage('--cwd needs a folder'));
    else if (a === '--print') print = true;
    else usage(`unknown option ${a}`);
  }
  let dir;
  try {
    dir = nodeFor(version);
  } catch (err) {
    process.stderr.write(`with-node: ${err.message}\n`);
    process.exit(1);
  }
  const node = join(dir, 'bin', 'node');
  if (print) {
    process.stdout.write(`${node}\n`);
    process.exit(0);
  }
  if (args.shift() !== '--' || args.length === 0) usage('give the command after --');
  const r = spawnSync(node, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}` },
  });
  process.exit(r.status ?? 1);
}
