import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo's sample project and the script of its two sessions: a tiny money library whose
 * test fails on floating-point rounding, a developer who decides to store money as integer
 * cents and says how they like to work, and a second session that comes back to the failing
 * test. Everything the demo "types" lives here.
 */

export const SAMPLE_NAME = 'tiny-ledger';

const FILES: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: SAMPLE_NAME,
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { test: 'node --test test/' },
    },
    null,
    2,
  )}\n`,
  'README.md': '# tiny-ledger\n\nAdds up amounts of money. A sample project made by `agentctx demo`.\n',
  'src/money.js': [
    '/** The sum of two amounts in euros. */',
    'export function addAmounts(a, b) {',
    '  return a + b;',
    '}',
    '',
  ].join('\n'),
  'test/money.test.js': [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { addAmounts } from '../src/money.js';",
    '',
    "test('whole amounts add up', () => {",
    '  assert.equal(addAmounts(1, 2), 3);',
    '});',
    '',
    "test('cents add up exactly', () => {",
    '  assert.equal(addAmounts(0.1, 0.2), 0.3);',
    '});',
    '',
  ].join('\n'),
};

/** Write the sample repository under `dir` and make it a git repository (git init when git runs). */
export function writeSampleRepo(dir: string, env: Record<string, string | undefined>): { git: boolean } {
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (args: string[]) =>
    spawnSync('git', args, { cwd: dir, env, stdio: 'ignore', timeout: 10_000 }).status === 0;
  const ok =
    git(['init', '-q', '-b', 'main']) &&
    git(['add', '-A']) &&
    git(['-c', 'user.name=agentctx demo', '-c', 'user.email=demo@example.invalid', 'commit', '-qm', 'Start']);
  if (!ok) {
    // no git here: the two files agentctx reads to know a repository
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(dir, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  }
  return { git: ok };
}

/** The test command of the sample, as Claude would run it. */
export const TEST_COMMAND = 'node --test test/money.test.js';

export const SESSION_1 = {
  id: 'demo-session-1',
  decisionPrompt:
    'We just decided: money is stored as integer cents everywhere, never as floating-point euros. 0.1 + 0.2 bit us in production. Please keep that in mind from now on.',
  decision: {
    type: 'decision',
    title: 'Store money as integer cents, never as floating-point euros',
    body: 'Amounts are integers counting cents in storage, arithmetic and APIs; euros appear only when formatting for display. Floating-point sums drift (0.1 + 0.2 != 0.3) and caused a production bug.',
  },
  preferencePrompt: 'Also, for the record: I like small commits, each with the test that covers it.',
  preference: {
    type: 'preference',
    title: 'Small commits, each with the test that covers it',
    body: 'The developer prefers small, focused commits; every change is committed together with its test.',
    scope: 'global',
  },
  testPrompt: 'Now run the tests and tell me what fails.',
  assistantAfterTest:
    'The cents test fails: addAmounts adds floating-point euros, so 0.1 + 0.2 gives 0.30000000000000004. Next step: switch src/money.js to integer cents as decided.',
} as const;

export const SESSION_2 = {
  id: 'demo-session-2',
  prompt: 'Let us fix the failing cents test in test/money.test.js: addAmounts still adds floats.',
} as const;
