// Installed size of the published package: `npm pack` in a copy of the repository (so that
// prepack's build never rewrites the dist/ other processes run), then `npm install -g` of the
// tarball into empty prefixes — the default install, and with --ignore-scripts — and what
// `agentctx init --semantic` adds to the agentctx home. The package has no dependency, so its
// installs need no registry; the semantic layer's does. Install times are one run each, in
// milliseconds of wall time, with npm's cache cold for the package (a fresh cache folder).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { PACKAGE_ROOT } from '../paths.js';

const cmd = defineCommand({
  name: 'bench:install-size',
  summary:
    'The installed size of the packed package, and of what init --semantic installs (needs the registry).',
  options: { keep: { kind: 'flag', help: 'keep the installs and print their folder' } },
});
const { keep } = parseOrExit(cmd).values;
const repo = join(PACKAGE_ROOT, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'agentctx-size-'));
const env = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_loglevel: 'error' };

function run(command: string, args: string[], cwd: string) {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 30 * 60_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { out: r.stdout.trim(), ms: Date.now() - started };
}

function bytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += bytes(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

// the copy: sources, scripts and docs; node_modules linked
const copy = join(work, 'copy');
for (const f of ['README.md', 'LICENSE', 'package.json', 'package-lock.json'])
  cpSync(join(repo, f), join(copy, f));
cpSync(join(repo, 'scripts'), join(copy, 'scripts'), { recursive: true });
symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
for (const p of ['agentctx', 'agentctx-ui']) {
  const from = join(repo, 'packages', p);
  cpSync(from, join(copy, 'packages', p), {
    recursive: true,
    filter: (src) => !/^(node_modules|dist|test)(\/|$)/.test(relative(from, src).split(sep).join('/')),
  });
}
const tgzName =
  run('npm', ['pack', '--pack-destination', work], join(copy, 'packages', 'agentctx'))
    .out.split('\n')
    .pop() ?? '';
const tgz = join(work, tgzName);
console.log(`tarball ${tgzName}: ${mb(statSync(tgz).size)}`);

const rows: string[][] = [];
for (const [label, flags] of [
  ['default install', []],
  ['--ignore-scripts', ['--ignore-scripts']],
] as const) {
  const prefix = join(work, label.replace(/\W+/g, '-'));
  const cache = join(work, `cache-${label.replace(/\W+/g, '-')}`);
  const r = run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--cache', cache, '--no-audit', '--no-fund', ...flags, tgz],
    work,
  );
  const top = join(prefix, 'lib', 'node_modules', '@agentctxhq', 'agentctx');
  const biggest = readdirSync(top)
    .map((d): [string, number] => [
      d,
      statSync(join(top, d)).isDirectory() ? bytes(join(top, d)) : statSync(join(top, d)).size,
    ])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([d, n]) => `${d} ${mb(n)}`)
    .join(', ');
  rows.push([label, mb(bytes(prefix)), `${r.ms} ms`, biggest]);
  console.log(rows.at(-1)?.join('  |  '));
}

const dev = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;
const pinned = dev['@huggingface/transformers'];
const semantic = join(work, 'home', 'semantic');
mkdirSync(semantic, { recursive: true });
const r = run(
  'npm',
  [
    'install',
    '--prefix',
    semantic,
    '--omit=dev',
    '--no-audit',
    '--no-fund',
    `@huggingface/transformers@${pinned}`,
    `sqlite-vec@${dev['sqlite-vec']}`,
  ],
  work,
);
rows.push([`init --semantic (transformers ${pinned}, sqlite-vec)`, mb(bytes(semantic)), `${r.ms} ms`, '']);
console.log(rows.at(-1)?.join('  |  '));

console.log('\n| what | installed size | time | largest |\n| --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (keep) console.log(`kept in ${work}`);
else rmSync(work, { recursive: true, force: true });
