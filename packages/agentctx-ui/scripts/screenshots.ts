// Regenerates docs/screenshots/*.png, the pictures the README shows. A throwaway store is filled
// the way a user fills one (`agentctx demo`, then a few `agentctx record` writes, one of them a
// supersession), `agentctx ui` serves it, and the Chromium the browser tests use captures each
// view. Run from the repository root after `npm run build`: `npm run screenshots`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../test/support/browser.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// the installed entry point, as a user runs it (it also drops Node 22's SQLite experimental warning)
const cli = join(root, 'packages', 'agentctx', 'bin', 'agentctx.cjs');
const out = join(root, 'docs', 'screenshots');
const tmp = mkdtempSync(join(tmpdir(), 'agentctx-screenshots-'));
const demo = join(tmp, 'demo');
const project = join(demo, 'tiny-ledger');
// nothing of the person's own: every home the CLI or an agent could read points into tmp
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: join(tmp, 'home'),
  AGENTCTX_HOME: join(demo, 'home'),
  CLAUDE_CONFIG_DIR: join(tmp, 'home', '.claude'),
  CODEX_HOME: join(tmp, 'home', '.codex'),
  TMPDIR: join(tmp, 'tmp'),
  NO_COLOR: '1',
};
mkdirSync(join(tmp, 'home'), { recursive: true });
mkdirSync(join(tmp, 'tmp'), { recursive: true });

const agentctx = (...args: string[]): string =>
  execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
const record = (type: string, title: string, body: string, ...more: string[]): string =>
  (
    JSON.parse(
      agentctx(
        'record',
        '--cwd',
        project,
        '--type',
        type,
        '--title',
        title,
        '--body',
        body,
        '--json',
        ...more,
      ),
    ) as { id: string }
  ).id;

agentctx('demo', '--keep', demo);
const rounding = record(
  'convention',
  'Round money half to even',
  'Amounts are rounded half to even (banker’s rounding) when converting.',
);
record(
  'convention',
  'Round money half away from zero',
  'Amounts are rounded half away from zero, as the accountants’ spreadsheets do.',
  '--supersedes',
  rounding,
);
record(
  'decision',
  'Ledger entries are append-only',
  'A posted entry is never edited; a reversal corrects it.',
);
record(
  'bugfix',
  'Negative totals printed without a sign',
  'formatCents dropped the minus sign for -1..-99 cents.',
);

const ui = spawn(process.execPath, [cli, 'ui', '--cwd', project, '--port', '0', '--no-open'], { env });
const url = await new Promise<string>((resolve, reject) => {
  let seen = '';
  ui.stdout.on('data', (d: Buffer) => {
    seen += d.toString();
    const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(seen);
    if (m) resolve(m[1]!);
  });
  ui.on('exit', (code) => reject(new Error(`agentctx ui exited (${code}): ${seen}`)));
});

const b = await launch({ width: 1280, height: 800 });
try {
  const page = b.page;
  const shoot = async (name: string, hash: string, ready: string) => {
    await page.goto(`${url}${hash}`);
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(300); // fonts and the last layout pass
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`wrote ${join(out, `${name}.png`)}`);
  };
  await shoot('records', `#/records/${rounding}?history=1`, '[data-testid="chain"] li');
  await shoot('graph', '#/graph?history=1', '[data-testid="graph"] text.graph-label');
  await shoot('sessions', '#/sessions', '.chart svg rect.bar');
  if (b.errors.length > 0) throw new Error(`the page reported errors: ${b.errors.join('; ')}`);
} finally {
  await b.close();
  ui.kill('SIGINT');
  rmSync(tmp, { recursive: true, force: true });
}
