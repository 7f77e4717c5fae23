import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args.js';
import { flagKinds } from '../../../src/cli/command.js';
import { commandLoader } from '../../../src/cli/registry.js';
import { isolatedEnv, PACKAGE_ROOT, runAgentctx } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #6: doctor before init suggested `claude plugin install agentctx@agentctx`, which
 * fails unless `marketplace add` ran first. Every command doctor and status suggest is written
 * in backquotes; this test walks the states a new user meets, collects each suggestion and
 * checks that it works as printed: agentctx commands are run (those that download or need
 * a value of the user's are parsed against the command's own flags instead), the npm install
 * names this package, a claude command names this repository's plugin.
 */

const PKG = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name as string;
const MARKET = JSON.parse(
  readFileSync(join(PACKAGE_ROOT, '..', '..', '.claude-plugin', 'marketplace.json'), 'utf8'),
);
const PLUGIN_ID = `${MARKET.plugins[0].name}@${MARKET.name}`;
/** Run as printed: quick, offline, and harmless in a throwaway home. */
const RUN = new Set([
  'init',
  'uninstall',
  'consolidate',
  'config',
  'sync',
  'review',
  'status',
  'doctor',
  'import',
]);

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
const seen = new Map<string, string>();

beforeAll(() => {
  t = tempDir('agentctx-suggest-');
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  env = isolatedEnv(join(t.path, 'home'), { AGENTCTX_NO_CLAUDE_CLI: '1', PATH: process.env.PATH ?? '' });
});
afterAll(() => t.cleanup());

/** Every backquoted command in doctor's findings and status's text, in this state. */
function suggestions(state: string): string[] {
  const doctor = runAgentctx(['doctor', '--json'], { cwd: repo, env });
  const checks = (JSON.parse(doctor.stdout) as { checks: { summary: string; fix?: string }[] }).checks;
  const texts = checks.flatMap((c) => [c.summary, c.fix ?? '']);
  const status = runAgentctx(['status'], { cwd: repo, env });
  if (status.code === 0) texts.push(status.stdout);
  const found = texts.flatMap((x) => [...x.matchAll(/`((?:agentctx|claude|npm) [^`]+)`/g)].map((m) => m[1]!));
  for (const f of found) if (!seen.has(f)) seen.set(f, state);
  return found;
}

async function worksAsPrinted(cmd: string): Promise<void> {
  const words = cmd.split(/\s+/);
  if (words[0] === 'npm') {
    expect(words.slice(0, 3)).toEqual(['npm', 'install', '-g']);
    expect(words[3]).toBe(PKG);
    return;
  }
  if (words[0] === 'claude') {
    expect(words.slice(0, 3)).toEqual(['claude', 'plugin', 'uninstall']);
    expect(words[3]).toBe(PLUGIN_ID);
    return;
  }
  const [name, ...rest] = words.slice(1);
  const load = commandLoader(name!);
  expect(load, `${cmd}: no such command`).toBeDefined();
  const command = await load!();
  // the flags it names are the command's own (parseArgs refuses any other)
  expect(() => parseArgs(rest, flagKinds(command.options))).not.toThrow();
  const placeholder = rest.some((w) => /^[A-Z]{2,}$/.test(w));
  if (!RUN.has(name!) || placeholder || rest.includes('--semantic')) return;
  const r = runAgentctx(words.slice(1), { cwd: repo, env });
  // doctor exits 1 while something is broken; every other suggestion must succeed
  expect({ cmd, code: r.code, err: r.stderr }).toMatchObject({ cmd, code: name === 'doctor' ? r.code : 0 });
}

describe('every command doctor and status suggest works as printed', () => {
  it('before init, after init, with a hook missing, with a backend that is not there', async () => {
    const states: [string, () => void][] = [
      ['before init', () => {}],
      ['after init', () => expect(runAgentctx(['init'], { cwd: repo, env }).code).toBe(0)],
      [
        'a hook removed by hand',
        () => {
          const path = join(t.path, 'home', '.claude', 'settings.json');
          const s = JSON.parse(readFileSync(path, 'utf8'));
          delete s.hooks.Stop;
          writeFileSync(path, JSON.stringify(s, null, 2));
        },
      ],
      [
        'llm.backend api without a key',
        () => expect(runAgentctx(['config', 'set', 'llm.backend', 'api'], { cwd: repo, env }).code).toBe(0),
      ],
    ];
    for (const [state, enter] of states) {
      enter();
      for (const cmd of suggestions(state)) await worksAsPrinted(cmd);
    }
    // the states above did make doctor and status suggest things: init, a config change, consolidate
    const all = [...seen.keys()];
    expect(all).toContain('agentctx init');
    expect(all.some((c) => c.startsWith('agentctx config'))).toBe(true);
    expect(all.every((c) => !c.startsWith('claude plugin install'))).toBe(true);
  }, 120_000);
});
