import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launch } from '../../../agentctx-ui/test/support/browser.js';
import { isAgentTurn } from '../support/agent-requests.js';
import { CLAUDE_BIN, runClaude, waitFor } from '../support/claude.js';
import { PACKAGE_ROOT } from '../support/cli.js';
import { type FakeApi, startFakeApi } from '../support/fake-messages-api.js';
import { gitIn } from '../support/git.js';
import { tempDir } from '../support/tmp.js';
import {
  bytes,
  filesUnder,
  type Installed,
  packAndInstall,
  readmeRemoval,
  sh,
  untilQuiet,
  userEnv,
} from '../support/walk.js';
import {
  DECISION,
  DECISION_MARK,
  HANDOVER_MARK,
  isExtraction,
  S1_MARK,
  walkModel,
} from '../support/walk-model.js';

/**
 * Issue 31's walk-through, as a new user takes it, in one ordered run with real parts only:
 * both packages packed and installed from their tarballs (registry unreachable); `demo` and
 * `doctor`; `init` in a git project; two `claude -p` sessions (the real client, the fake
 * Messages API), the second starting with the decision and the handover the first left; a
 * teammate on the plugin route (`/agentctx:status` included); a team round trip through a bare
 * remote with a conflict that `review --choose` settles on both clones; the dashboard from the
 * tarball in Chromium; `uninstall` restoring the config files byte for byte and `--purge
 * --yes` leaving nothing of agentctx in HOME or TMPDIR. Every command runs through the user's
 * PATH (the installed `agentctx`, the real `claude`), as the README prints it.
 */

const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');
const B_MARK = 'WALK-PLUGIN-SESSION';
/** One `claude -p` run, and each wait on the hooks' detached work. */
const RUN_MS = 120_000;
const DETACHED_MS = 60_000;
const skipBrowser = process.env.AGENTCTX_SKIP_BROWSER === '1';

type Who = 'a' | 'b';
interface User {
  home: string;
  tmp: string;
  repo: string;
  env: NodeJS.ProcessEnv;
}

describe.skipIf(!CLAUDE_BIN)('a new user walks through agentctx, from the tarball to uninstall', () => {
  let root: ReturnType<typeof tempDir>;
  let api: FakeApi;
  let inst: Installed;
  let origin: string;
  const users = {} as Record<Who, User>;
  /** The user's config files as they were before `init`. */
  const before = new Map<string, Buffer | null>();
  let decisionId = '';

  const run = (who: Who, line: string, opts: { input?: string; timeoutMs?: number; cwd?: string } = {}) =>
    sh(users[who].env, opts.cwd ?? users[who].repo, line, opts);
  /** Run, expect exit 0, hand back the result. */
  const ok = async (
    who: Who,
    line: string,
    opts: { input?: string; timeoutMs?: number; cwd?: string } = {},
  ) => {
    const r = await run(who, line, opts);
    expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const json = async <T>(who: Who, line: string): Promise<T> => JSON.parse((await ok(who, line)).stdout) as T;
  const git = (who: Who, ...args: string[]) => gitIn(users[who].repo, args, users[who].env);
  const configFiles = (who: Who) => [
    join(users[who].home, '.claude', 'settings.json'),
    join(users[who].home, '.claude.json'),
  ];

  beforeAll(async () => {
    root = tempDir('agentctx-walk-');
    api = await startFakeApi(walkModel);
    inst = packAndInstall(root.path);
    console.log(`[walk] npm pack both: ${inst.ms.pack} ms; npm install -g offline: ${inst.ms.install} ms`);
    origin = join(root.path, 'origin.git');
    mkdirSync(origin);
    gitIn(origin, ['init', '-q', '--bare', '-b', 'main']);
    const seed = join(root.path, 'seed');
    mkdirSync(seed);
    gitIn(seed, ['init', '-q', '-b', 'main']);
    writeFileSync(join(seed, 'README.md'), '# billing\n');
    gitIn(seed, ['add', '.']);
    gitIn(seed, ['commit', '-q', '-m', 'init']);
    gitIn(seed, ['push', '-q', origin, 'main']);
    for (const who of ['a', 'b'] as const) {
      const dir = join(root.path, who);
      const home = join(dir, 'home');
      const tmp = join(dir, 'tmp');
      const repo = join(dir, 'billing');
      gitIn(root.path, ['clone', '-q', origin, repo]);
      users[who] = { home, tmp, repo, env: userEnv(home, tmp, inst.prefix, api.url) };
    }
  }, 300_000);

  afterAll(async () => {
    for (const who of ['a', 'b'] as const) if (users[who]) await untilQuiet(users[who].home, DETACHED_MS);
    await api?.close();
    root?.cleanup();
  }, 120_000);

  it('1–2. installed from the tarballs, `agentctx demo` and `agentctx doctor` work; doctor names commands that exist', async () => {
    const version = await ok('a', 'agentctx --version');
    expect(version.stdout.trim()).toMatch(/\d+\.\d+\.\d+/);
    expect((await run('a', 'command -v agentctx')).stdout.trim()).toBe(inst.bin);
    const demo = await ok('a', 'agentctx demo', { timeoutMs: 120_000 });
    expect(demo.stdout).toMatch(/SessionStart/);
    expect(demo.stderr).not.toMatch(/ExperimentalWarning|Error/);
    // the demo deletes what it made: nothing of it under the user's HOME
    expect(existsSync(join(users.a.home, '.agentctx', 'agentctx.db'))).toBe(false);

    // before init, doctor exits 1 and says what to do first
    const doctor = await run('a', 'agentctx doctor');
    expect(doctor.code, doctor.stderr).toBe(1);
    expect(doctor.stdout).toMatch(/hooks\s+not registered/);
    expect(doctor.stdout).toMatch(/binary\s+\S+\/prefix\/bin\/agentctx \d+\.\d+\.\d+/);
    expect(doctor.stdout).toContain('run `agentctx init`');
    // every command doctor suggests parses as printed: `agentctx X --flags` against X's own help
    const suggested = suggestedBy(doctor.stdout);
    expect(suggested.length, doctor.stdout).toBeGreaterThan(0);
    console.log(`[walk] doctor before init suggests: ${suggested.join(' | ')}`);
    for (const cmd of suggested) await worksAsPrinted(cmd);
  }, 180_000);

  /** The commands a text suggests, in backquotes. */
  const suggestedBy = (out: string) =>
    [...out.matchAll(/`((?:agentctx|claude|npm) [^`]+)`/g)].map((m) => m[1]!);

  /** A suggested command: agentctx's are known with their flags, claude's name our marketplace, npm's our package. */
  async function worksAsPrinted(cmd: string): Promise<void> {
    const words = cmd.split(/\s+/);
    if (words[0] === 'agentctx') {
      const sub = words.slice(1).filter((w) => !w.startsWith('-') && !/^[A-Z]{2,}$/.test(w));
      const help = await ok('a', `agentctx ${sub.slice(0, 2).join(' ')} --help`);
      for (const flag of words.filter((w) => w.startsWith('--')))
        expect(help.stdout, `${cmd}: ${flag}`).toContain(flag.split('=')[0]);
    } else if (words[0] === 'npm') {
      expect(words.slice(0, 4)).toEqual(['npm', 'install', '-g', expect.stringMatching(/^@agentctxhq\//)]);
    } else {
      expect(words[1], cmd).toBe('plugin');
    }
  }

  it(
    '3. `agentctx init`, a first claude session leaves a decision and a handover, the second starts with both',
    async () => {
      const a = users.a;
      // a user who already has Claude Code settings of their own
      mkdirSync(join(a.home, '.claude'), { recursive: true });
      writeFileSync(
        join(a.home, '.claude', 'settings.json'),
        '{\n    "permissions": { "allow": ["Bash(npm test)"] },\n    "model": "sonnet"\n}\n',
      );
      // … and who has run Claude Code before: it wrote its own state into ~/.claude.json
      const beforeInit = api.requests.length;
      const plain = await runClaude({ cwd: a.repo, env: a.env, prompt: 'Hello.', timeoutMs: RUN_MS });
      expect(plain.code, `${plain.stdout}\n${plain.stderr}`).toBe(0);
      expect(api.requests.slice(beforeInit).find(isAgentTurn)?.raw).not.toContain('mcp__agentctx__');
      for (const f of configFiles('a')) before.set(f, bytes(f));
      expect([...before.values()].every((b) => b !== null)).toBe(true);
      const init = await ok('a', 'agentctx init', { timeoutMs: 60_000 });
      expect(init.stdout).toMatch(/^hooks: added SessionStart, UserPromptSubmit, .*settings\.json\)$/m);
      expect(init.stdout).toMatch(
        /^mcp server: added mcpServers\.agentctx \(.*\.claude\.json\) via claude-cli$/m,
      );
      const settings = readFileSync(join(a.home, '.claude', 'settings.json'), 'utf8');
      expect(settings).toContain('agentctx hook session-start');
      expect(settings).toContain('"model": "sonnet"');

      const s1 = await runClaude({
        cwd: a.repo,
        env: a.env,
        prompt: `${S1_MARK}: we keep invoice PDFs in object storage from now on. Start moving them.`,
        timeoutMs: RUN_MS,
      });
      expect(s1.code, `${s1.stdout}\n${s1.stderr}`).toBe(0);
      expect(s1.result?.is_error).toBe(false);
      // the MCP server `init` registered (through `claude mcp add`) is offered to the model
      expect(api.requests.slice(beforeInit).filter(isAgentTurn).at(-1)?.raw).toContain(
        'mcp__agentctx__ctx_search',
      );
      // Stop: the extraction reads the transcript; the decision lands in the store
      const found = await waitFor(
        async () => {
          const r = await run('a', `agentctx search ${JSON.stringify(DECISION)} --json`);
          const hits = (JSON.parse(r.stdout || '{}') as { results?: { id: string; type: string }[] }).results;
          return hits?.find((h) => h.type === 'decision');
        },
        { timeoutMs: DETACHED_MS, what: 'the extracted decision in `agentctx search`' },
      );
      decisionId = found.id;
      const shown = await ok('a', `agentctx show ${decisionId}`);
      expect(shown.stdout).toContain(DECISION_MARK);
      // SessionEnd: consolidation writes the next digest with the handover
      await waitFor(() => digestHolds(a), {
        timeoutMs: DETACHED_MS,
        what: 'a digest holding the decision and the handover',
      });

      const from = api.requests.length;
      const s2 = await runClaude({
        cwd: a.repo,
        env: a.env,
        prompt: 'Where did we stop?',
        timeoutMs: RUN_MS,
      });
      expect(s2.code, `${s2.stdout}\n${s2.stderr}`).toBe(0);
      expect(s2.sessionId).not.toBe(s1.sessionId);
      const first = api.requests.slice(from).find(isAgentTurn);
      expect(first?.raw).toContain(DECISION_MARK);
      expect(first?.raw).toContain(HANDOVER_MARK);
      expect(first?.raw).toContain('Where the last session left off');
      // and now doctor finds nothing broken
      const doctor = await run('a', 'agentctx doctor', { timeoutMs: 60_000 });
      expect(doctor.code, doctor.stdout).toBe(0);
      expect(doctor.stdout).toMatch(/✓\s+hooks\s+9 events registered/);
      expect(doctor.stdout).toMatch(/✓\s+mcp server\s+registered/);
      expect(doctor.stdout).toContain('agentctx works here.');
      for (const cmd of suggestedBy(doctor.stdout)) await worksAsPrinted(cmd);
    },
    RUN_MS * 2 + DETACHED_MS * 2,
  );

  /** Whether the user's digest file holds the decision and the handover. */
  function digestHolds(u: User): boolean {
    const dir = join(u.home, '.agentctx', 'digests');
    return filesUnder(dir).some((f) => {
      const t = readFileSync(join(dir, f), 'utf8');
      return t.includes(DECISION_MARK) && t.includes(HANDOVER_MARK);
    });
  }

  it(
    '4. a teammate on the plugin route: marketplace add + install, a session through it, /agentctx:status',
    async () => {
      const b = users.b;
      await ok('b', `claude plugin marketplace add ${JSON.stringify(REPO_ROOT)}`);
      await ok('b', 'claude plugin install agentctx@agentctx');
      const status = await ok('b', 'agentctx status');
      expect(status.stdout).toMatch(/^billing: working \(Claude Code plugin agentctx@agentctx\)$/m);
      const from = api.requests.length;
      const s = await runClaude({
        cwd: b.repo,
        env: b.env,
        prompt: `${B_MARK}: the invoice job fails on large files.`,
        timeoutMs: RUN_MS,
      });
      expect(s.code, `${s.stdout}\n${s.stderr}`).toBe(0);
      // the plugin's Stop hook started an extraction of this session
      await waitFor(() => api.requests.slice(from).find((r) => isExtraction(r) && r.raw.includes(B_MARK)), {
        timeoutMs: DETACHED_MS,
        what: "the extraction the plugin's Stop hook starts",
      });
      const mid = api.requests.length;
      const slash = await runClaude({
        cwd: b.repo,
        env: b.env,
        prompt: '/agentctx:status',
        timeoutMs: RUN_MS,
      });
      expect(slash.code, `${slash.stdout}\n${slash.stderr}`).toBe(0);
      const turn = api.requests.slice(mid).find(isAgentTurn);
      expect(turn?.raw).toContain('Claude Code plugin agentctx@agentctx');
      expect(turn?.raw).not.toMatch(/command not found/);
    },
    RUN_MS * 2 + DETACHED_MS,
  );

  it('5. team round trip through the bare remote, with a conflict both sides see and one `review --choose` settles', async () => {
    const a = users.a;
    const b = users.b;
    await ok('a', 'agentctx team export');
    git('a', 'add', '.agentctx');
    git('a', 'commit', '-q', '-m', 'team context');
    git('a', 'push', '-q', 'origin', 'main');
    git('b', 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    const imported = await ok('b', 'agentctx team import');
    expect(imported.stdout).toMatch(/1 (new|created)/);
    // A supersedes and pushes; B, not pulled yet, edits the same block by hand
    await ok(
      'a',
      `agentctx supersede ${decisionId} --body "Invoice PDFs go to object storage with a 7-year retention rule." --rationale "legal asked for retention"`,
    );
    await ok('a', 'agentctx team export');
    git('a', 'commit', '-qam', 'retention');
    git('a', 'push', '-q', 'origin', 'main');
    const file = join(b.repo, '.agentctx', 'context.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('never in the database', 'never in Postgres'));
    git('b', 'commit', '-qam', 'wording');
    git('b', 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    const onB = await ok('b', 'agentctx team import');
    expect(onB.stdout).toContain('changed on both sides');
    await ok('b', 'agentctx team export');
    git('b', 'add', '.agentctx');
    git('b', 'commit', '-qm', 'both versions');
    git('b', 'push', '-q', 'origin', 'main');
    git('a', 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    const onA = await ok('a', 'agentctx team import');
    expect(onA.stdout).toContain('changed on both sides');
    expect(onA.stdout).toContain('agentctx review');

    const items = (
      await json<{ items: { key: string; detail: string }[] }>('a', 'agentctx review --json --kind conflict')
    ).items;
    expect(items.length).toBe(1);
    const n = items[0]!.detail.split('\n').findIndex((l) => l.includes('7-year retention'));
    expect(n).toBeGreaterThanOrEqual(0);
    await ok('a', `agentctx review --choose ${items[0]!.key} --version ${n}`);
    await ok('a', 'agentctx team export');
    git('a', 'commit', '-qam', 'chose retention');
    git('a', 'push', '-q', 'origin', 'main');
    git('b', 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    await ok('b', 'agentctx team import');
    // both clones: nothing waits, one current decision, the chosen text; one block in the file
    for (const who of ['a', 'b'] as const) {
      const st = await json<{ review: { by_kind: { conflict: number } } }>(who, 'agentctx status --json');
      expect(st.review.by_kind.conflict, who).toBe(0);
      const hits = (
        await json<{ results: { id: string; type: string }[] }>(who, 'agentctx search "invoice PDFs" --json')
      ).results.filter((h) => h.type === 'decision');
      expect(hits.length, who).toBe(1);
      expect((await ok(who, `agentctx show ${hits[0]!.id}`)).stdout, who).toContain('7-year retention');
      const team = (await ok(who, 'agentctx team status')).stdout;
      expect(team, who).toContain('in step with this store');
      expect(team, who).toContain('nothing to export or import');
    }
    expect(readFileSync(join(a.repo, '.agentctx', 'context.md'), 'utf8')).toBe(
      readFileSync(join(b.repo, '.agentctx', 'context.md'), 'utf8'),
    );
    // B's next session, through the plugin, is handed the chosen decision
    const from = api.requests.length;
    const sb = await runClaude({
      cwd: b.repo,
      env: b.env,
      prompt: 'Where do invoice PDFs go?',
      timeoutMs: RUN_MS,
    });
    expect(sb.code, `${sb.stdout}\n${sb.stderr}`).toBe(0);
    expect(api.requests.slice(from).find(isAgentTurn)?.raw).toContain('7-year retention');
  }, 180_000);

  it.skipIf(skipBrowser)(
    '6. `agentctx ui` from the tarball: Chromium shows the records with the token, a request without it is refused',
    async () => {
      const a = users.a;
      const child = spawn('/bin/sh', ['-c', 'exec agentctx ui --port 0 --no-open'], {
        cwd: a.repo,
        env: a.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString('utf8');
      });
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString('utf8');
      });
      let browser: Browser | undefined;
      try {
        const url = await waitFor(
          () => /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}/.exec(out)?.[0],
          {
            timeoutMs: 30_000,
            what: `the URL \`agentctx ui\` prints (so far: ${out} ${err})`,
          },
        );
        expect(out).toContain('agentctx dashboard for billing');
        const origin = new URL(url).origin;
        expect((await fetch(`${origin}/api/projects`)).status).toBe(403);
        expect((await fetch(origin)).status).toBe(403);
        browser = await launch();
        await browser.page.goto(`${url}#/records`);
        const list = browser.page.locator('.record-list');
        await list.locator('li').first().waitFor({ timeout: 30_000 });
        await expect.poll(() => list.textContent(), { timeout: 15_000 }).toContain(DECISION);
        await browser.page.locator('.record-list a', { hasText: DECISION }).first().click();
        await browser.page.locator('article.record').waitFor();
        expect(await browser.page.locator('article.record').textContent()).toContain('7-year retention');
        expect(browser.errors).toEqual([]);
      } finally {
        await browser?.close();
        const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        if (child.exitCode === null) child.kill('SIGINT');
        expect(await exit).toBe(0);
      }
      expect(out).toContain('dashboard stopped');
      expect(err).toBe('');
    },
    120_000,
  );

  it('7. `agentctx uninstall` puts every config file back byte for byte; `--purge --yes` and the README order leave nothing behind', async () => {
    const a = users.a;
    const b = users.b;
    // the hooks' detached work (extraction, consolidation) ends first, as a user's would
    for (const who of ['a', 'b'] as const)
      expect(await untilQuiet(users[who].home, DETACHED_MS), `${who}'s background work`).toBe(true);
    // a file or folder of agentctx's own (~/.agentctx, $TMPDIR/agentctx-<session>.json, …);
    // Claude Code's own records of the sessions (its transcripts, its log of each MCP server
    // it ran) are Claude Code's, named after the project folder or the server
    const ours = (f: string) => f.split('/').some((seg) => /^\.?agentctx/i.test(seg));
    const leftIn = (u: User) =>
      [...filesUnder(u.home), ...filesUnder(u.tmp).map((f) => `$TMPDIR/${f}`)].filter(ours);
    const present = leftIn(a);
    console.log(
      `[walk] agentctx's files before uninstall: ${present.length}; in $TMPDIR: ${present.filter((f) => f.startsWith('$TMPDIR')).join(', ')}`,
    );
    expect(present.some((f) => f.startsWith('.agentctx/'))).toBe(true);
    expect(present.some((f) => f.startsWith('$TMPDIR/agentctx-'))).toBe(true);

    const un = await ok('a', 'agentctx uninstall', { timeoutMs: 60_000 });
    expect(un.stdout).toMatch(/removed/i);
    for (const f of configFiles('a'))
      expect(bytes(f)?.toString('utf8'), f).toBe(before.get(f)?.toString('utf8'));
    await ok('a', 'agentctx uninstall --purge --yes', { timeoutMs: 60_000 });
    expect(leftIn(a)).toEqual([]);

    // B, on the plugin route, removes agentctx by the README, line by line as printed
    const removal = readmeRemoval(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(removal[0]).toBe('agentctx uninstall --purge --yes');
    const npmLine = removal.at(-1)!;
    expect(npmLine).toMatch(/^npm uninstall -g .*@agentctxhq\/agentctx$/);
    for (const line of removal.slice(0, -1)) {
      if (line.startsWith('rm ')) {
        // what Claude Code kept: its cache of the plugin, marked for its own clean-up
        const cached = leftIn(b);
        expect(cached.length).toBeGreaterThan(0);
        expect(
          cached.every((f) => f.startsWith('.claude/plugins/cache/agentctx/')),
          cached.join('\n'),
        ).toBe(true);
        expect(cached.some((f) => f.endsWith('/.orphaned_at'))).toBe(true);
      }
      await ok('b', line, { timeoutMs: 60_000 });
    }
    expect(readFileSync(join(b.home, '.claude', 'settings.json'), 'utf8')).not.toMatch(/agentctx/);
    expect(leftIn(b)).toEqual([]);
    // the CLI and the dashboard, last
    await ok('b', npmLine, { timeoutMs: 120_000 });
    expect(existsSync(inst.bin)).toBe(false);
    expect(filesUnder(join(inst.prefix, 'lib', 'node_modules')).filter(ours)).toEqual([]);
    expect((await run('b', 'command -v agentctx')).code).not.toBe(0);
  }, 300_000);
});
