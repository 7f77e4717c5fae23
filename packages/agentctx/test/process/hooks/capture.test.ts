import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook, runHookAsync } from './helpers.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

function bash(
  sessionId: string,
  command: string,
  stdout: string,
  stderr = '',
  extra: Record<string, unknown> = {},
) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Bash',
    tool_input: { command, description: 'run' },
    tool_response: { stdout, stderr, interrupted: false, isImage: false },
    tool_use_id: 'toolu_1',
    duration_ms: 120,
    ...extra,
  });
}

function edit(sessionId: string, file: string, tool = 'Edit') {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: tool,
    tool_input: { file_path: file, old_string: 'a', new_string: 'b' },
    tool_response: { filePath: file, success: true },
    tool_use_id: 'toolu_2',
  });
}

function rows<T>(sql: string, ...args: unknown[]): T[] {
  const out = w
    .db()
    .prepare(sql)
    .all(...args) as T[];
  w.closeDb();
  return out;
}

describe('PostToolUse capture', () => {
  it('links a written file to the session’s records and marks it observed in the session', () => {
    const mine = w.add({
      title: 'Cart totals round half-even',
      body: 'Cart totals use banker’s rounding.',
      sessionId: 'cap1',
    });
    const elsewhere = w.add({ title: 'Unrelated', body: 'Another session.', sessionId: 'cap-other' });
    w.closeDb();
    for (const tool of ['Edit', 'Write', 'MultiEdit']) {
      const r = runHook(w, 'post-tool-use', edit('cap1', join(w.repo, 'src', 'cart.ts'), tool));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    runHook(w, 'post-tool-use', {
      ...basePayload(w, 'cap1', 'PostToolUse'),
      tool_name: 'NotebookEdit',
      tool_input: { notebook_path: 'notebooks/eda.ipynb', new_source: 'x' },
    });
    const nodes = rows<{ id: string; name: string; kind: string }>('SELECT * FROM nodes ORDER BY name');
    expect(nodes.map((n) => n.name)).toEqual([
      `${w.projectId}:file:notebooks/eda.ipynb`,
      `${w.projectId}:file:src/cart.ts`,
    ]);
    const cart = nodes.find((n) => n.name.endsWith('src/cart.ts'))!;
    const links = rows<{ record_id: string }>(
      'SELECT record_id FROM record_entities WHERE entity_id = ?',
      cart.id,
    );
    expect(links.map((l) => l.record_id)).toEqual([mine.id]);
    expect(links.map((l) => l.record_id)).not.toContain(elsewhere.id);
    const edges = rows<{ rel_type: string; to_id: string }>('SELECT * FROM edges WHERE from_id = ?', cart.id);
    expect(edges).toEqual([expect.objectContaining({ rel_type: 'observed_in', to_id: 'cap1' })]);
    // reads and searches capture nothing
    runHook(w, 'post-tool-use', {
      ...basePayload(w, 'cap1', 'PostToolUse'),
      tool_name: 'Read',
      tool_input: { file_path: 'src/x.ts' },
    });
    expect(rows('SELECT * FROM nodes')).toHaveLength(2);
  });

  it('turns a failing command into one bugfix stub per error and session, linked to touched files', () => {
    runHook(w, 'post-tool-use', edit('bug1', 'src/api/orders.ts'));
    const out =
      'building...\nsrc/api/orders.ts:12:5 - error TS2339: Property total does not exist on type Order.\nFound 1 error.';
    for (let i = 0; i < 3; i++)
      expect(runHook(w, 'post-tool-use', bash('bug1', 'npm run build', out)).code).toBe(0);
    runHook(
      w,
      'post-tool-use',
      bash(
        'bug1',
        'node scripts/seed.js',
        '',
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at seed (scripts/seed.js:4:9)",
      ),
    );
    // a search that prints "Error" is content, not a failure; a clean run is nothing
    runHook(w, 'post-tool-use', bash('bug1', 'grep -rn "Error:" src', 'src/a.ts:3: throw new Error: x'));
    runHook(w, 'post-tool-use', bash('bug1', 'npm run build', 'built in 2.1s'));
    const bugs = rows<{
      id: string;
      title: string;
      body: string;
      confidence: string;
      source: string;
      type: string;
    }>("SELECT * FROM records WHERE type = 'bugfix' ORDER BY recorded_at");
    expect(bugs).toHaveLength(2);
    expect(bugs[0]!.title).toContain('error TS2339: Property total does not exist');
    expect(bugs[0]!.body).toContain('npm run build');
    expect(bugs[0]).toMatchObject({ confidence: 'inferred', source: 'hook_observation' });
    expect(bugs[1]!.title).toBe("Error: TypeError: Cannot read properties of undefined (reading 'id')");
    const linked = rows<{ name: string }>(
      'SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ?',
      bugs[0]!.id,
    );
    expect(linked.map((l) => l.name)).toEqual([`${w.projectId}:file:src/api/orders.ts`]);
    // the same error in another session is a new stub
    runHook(w, 'post-tool-use', bash('bug2', 'npm run build', out));
    expect(rows("SELECT id FROM records WHERE type = 'bugfix'")).toHaveLength(3);
    // PostToolUseFailure payloads (error text) are captured too
    runHook(w, 'post-tool-use', {
      ...basePayload(w, 'bug3', 'PostToolUseFailure'),
      tool_name: 'Bash',
      tool_input: { command: 'python manage.py migrate' },
      error:
        'Traceback (most recent call last):\n  File "manage.py", line 3\nModuleNotFoundError: No module named \'django\'',
    });
    expect(rows<{ title: string }>("SELECT title FROM records WHERE session_id = 'bug3'")[0]?.title).toBe(
      "Error: ModuleNotFoundError: No module named 'django'",
    );
  });

  it('records test outcomes linked to the test file; a new verdict supersedes the last', () => {
    const fail = [
      ' FAIL  test/cart.test.ts > totals > rounds half-even',
      'AssertionError: expected 10.5 to be 10',
      ' Test Files  1 failed | 3 passed (4)',
      '      Tests  1 failed | 41 passed (42)',
    ].join('\n');
    runHook(w, 'post-tool-use', bash('t1', 'npx vitest run test/cart.test.ts', fail));
    let recs = rows<{ id: string; title: string; body: string; type: string; superseded_at: string | null }>(
      "SELECT * FROM records WHERE type = 'discovery' ORDER BY recorded_at",
    );
    expect(recs).toHaveLength(1);
    expect(recs[0]!.title).toBe('Tests fail (1 failed, 41 passed): npx vitest run test/cart.test.ts');
    expect(rows("SELECT id FROM records WHERE type = 'bugfix'")).toHaveLength(0); // a test failure is not a stub
    const linked = rows<{ name: string }>(
      'SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ?',
      recs[0]!.id,
    );
    expect(linked.map((l) => l.name)).toContain(`${w.projectId}:file:test/cart.test.ts`);
    // same verdict again: no new record
    runHook(w, 'post-tool-use', bash('t1', 'npx vitest run test/cart.test.ts', fail));
    expect(rows("SELECT id FROM records WHERE type = 'discovery'")).toHaveLength(1);
    // passing now: supersedes the failure
    runHook(
      w,
      'post-tool-use',
      bash('t1', 'npx vitest run test/cart.test.ts', '      Tests  42 passed (42)'),
    );
    recs = rows("SELECT * FROM records WHERE type = 'discovery' ORDER BY recorded_at");
    expect(recs).toHaveLength(2);
    expect(recs[0]!.superseded_at).not.toBeNull();
    expect(recs[1]!.title).toBe('Tests pass (0 failed, 42 passed): npx vitest run test/cart.test.ts');
    // other runners
    runHook(
      w,
      'post-tool-use',
      bash('t1', 'pytest tests/test_api.py', '===== 2 failed, 10 passed in 0.52s ====='),
    );
    runHook(
      w,
      'post-tool-use',
      bash('t1', 'go test ./...', '--- FAIL: TestParse (0.00s)\nFAIL\texample.com/p\t0.01s'),
    );
    runHook(w, 'post-tool-use', bash('t1', 'cargo test', 'test result: ok. 7 passed; 0 failed; 0 ignored'));
    const titles = rows<{ title: string }>(
      "SELECT title FROM records WHERE type = 'discovery' AND superseded_at IS NULL",
    ).map((r) => r.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Tests fail (2 failed, 10 passed): pytest tests/test_api.py',
        'Tests fail (1 failed, ? passed): go test ./...',
        'Tests pass (0 failed, 7 passed): cargo test',
      ]),
    );
  });

  it('git switch, commit and merge become branch nodes tied to the session', () => {
    runHook(
      w,
      'post-tool-use',
      bash('g1', 'git switch -c feature/refunds', "Switched to a new branch 'feature/refunds'"),
    );
    runHook(
      w,
      'post-tool-use',
      bash(
        'g1',
        'git add -A && git commit -m "refund worker"',
        '[feature/refunds 1a2b3c4] refund worker\n 2 files changed',
      ),
    );
    runHook(w, 'post-tool-use', bash('g1', 'git merge hotfix/ledger', "Merge made by the 'ort' strategy."));
    runHook(
      w,
      'post-tool-use',
      bash('g1', 'git checkout nope', "error: pathspec 'nope' did not match any file(s) known to git"),
    );
    const nodes = rows<{ id: string; name: string }>(
      "SELECT id, name FROM nodes WHERE kind = 'branch' ORDER BY name",
    );
    expect(nodes.map((n) => n.name)).toEqual([
      `${w.projectId}:branch:feature/refunds`,
      `${w.projectId}:branch:hotfix/ledger`,
      `${w.projectId}:branch:main`, // HEAD of the fake repo: the merge target
    ]);
    const observed = rows<{ from_id: string }>(
      "SELECT from_id FROM edges WHERE rel_type = 'observed_in' AND to_id = 'g1'",
    );
    expect(observed).toHaveLength(3);
    const merged = rows("SELECT * FROM edges WHERE rel_type = 'derives_from'");
    expect(merged).toHaveLength(1);
  });

  it('50 hooks at once against one store all exit 0 and lose no write', async () => {
    for (let i = 0; i < 10; i++)
      w.add({
        title: `Shipping rule ${i}`,
        body: `Shipping rates for zone ${i} come from the carrier table.`,
      });
    w.closeDb();
    const jobs: Promise<{ code: number; stdout: string; stderr: string }>[] = [];
    for (let i = 0; i < 50; i++) {
      const sid = `conc-${i % 10}`;
      if (i % 3 === 0)
        jobs.push(
          runHookAsync(
            w,
            'user-prompt-submit',
            promptPayload(w, sid, 'what are the shipping rates per zone?'),
          ),
        );
      else if (i % 3 === 1) jobs.push(runHookAsync(w, 'post-tool-use', edit(sid, `src/ship/zone${i}.ts`)));
      else
        jobs.push(
          runHookAsync(w, 'post-tool-use', bash(sid, `node job${i}.js`, `Error: job ${i} failed hard`)),
        );
    }
    const results = await Promise.all(jobs);
    for (const r of results) {
      expect(r.code).toBe(0);
      if (r.stdout) expect(JSON.parse(r.stdout).hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    }
    const prompts = results.filter((_, i) => i % 3 === 0);
    expect(prompts.some((r) => r.stdout.includes('Shipping rule'))).toBe(true);
    const edits = Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 1);
    const errors = Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 2);
    // A capture whose 250 ms wait for the lock ran out is spooled, by design, for the next
    // writer to apply (50 processes on 2 cores: a few runs in fifty spool one). Lost would be
    // neither in the store nor in the spool.
    const spooled = spooledCaptures(w.home);
    const waiting = (kind: string) => spooled.filter((c) => c.kind === kind).length;
    expect(rows("SELECT id FROM nodes WHERE kind = 'file'").length + waiting('file')).toBe(edits.length);
    expect(rows("SELECT id FROM records WHERE type = 'bugfix'").length + waiting('shell')).toBe(
      errors.length,
    );
    expect(rows("SELECT id FROM edges WHERE rel_type = 'observed_in'").length + waiting('file')).toBe(
      edits.length,
    );
    // the prompts' tokens reach the store when each session's turn ends
    for (let i = 0; i < 10; i++)
      expect(runHook(w, 'stop', { session_id: `conc-${i}`, cwd: w.repo, hook_event_name: 'Stop' }).code).toBe(
        0,
      );
    const injected = rows<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE tokens_injected > 0')[0]!
      .n;
    expect(injected).toBeGreaterThan(0);
    expect(existsSync(join(w.home, '.agentctx', 'logs', 'hooks.log'))).toBe(false); // no errors logged
  }, 60_000);
});

/** The captures waiting in the spool (`<home>/.agentctx/spool`), as their hooks prepared them. */
function spooledCaptures(home: string): { kind: string }[] {
  const dir = join(home, '.agentctx', 'spool');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => (JSON.parse(readFileSync(join(dir, n), 'utf8')) as { capture: { kind: string } }).capture);
}

describe('background spawns', () => {
  it('Stop, PreCompact and SessionEnd start a detached agentctx and return at once', async () => {
    const transcript = join(w.home, 'transcript.jsonl');
    const stop = runHook(
      w,
      'stop',
      basePayload(w, 'bg1', 'Stop', { stop_hook_active: false, last_assistant_message: 'done' }),
    );
    const pre = runHook(
      w,
      'pre-compact',
      basePayload(w, 'bg1', 'PreCompact', { trigger: 'manual', custom_instructions: '' }),
    );
    const end = runHook(
      w,
      'session-end',
      basePayload(w, 'bg1', 'SessionEnd', { reason: 'prompt_input_exit' }),
    );
    for (const r of [stop, pre, end]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.ms).toBeLessThan(3000);
    }
    const log = () => readFileSync(join(w.home, '.agentctx', 'logs', 'background.log'), 'utf8');
    // the agent whose transcript it is: the extraction reads that agent's format
    expect(log()).toContain(
      `spawn agentctx extract --session-id bg1 --transcript ${transcript} --agent claude-code\n`,
    );
    expect(log()).toContain(
      `spawn agentctx extract --session-id bg1 --transcript ${transcript} --precompact --agent claude-code\n`,
    );
    expect(log()).toContain(`spawn agentctx consolidate --cwd ${w.repo}\n`);
    const hooksLog = readFileSync(join(w.home, '.agentctx', 'logs', 'hooks.log'), 'utf8');
    const pids = [...hooksLog.matchAll(/spawned agentctx \w+ pid=(\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    // the children really ran: each leaves output in the log (an answer, or an unknown-command
    // line while those commands do not exist) and they all end
    const deadline = Date.now() + 20_000;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (Date.now() < deadline && pids.some(alive)) await new Promise((r) => setTimeout(r, 100));
    expect(pids.filter(alive)).toEqual([]);
    expect(
      log()
        .split('\n')
        .filter((l) => l && !l.includes(' spawn agentctx ')).length,
    ).toBeGreaterThan(0);
    // SessionEnd noted the end of the session
    const s = rows<{ ended_at: string | null }>("SELECT ended_at FROM sessions WHERE session_id = 'bg1'");
    expect(s[0]?.ended_at).toBeTruthy();
  }, 40_000);

  it('a background child is ended at its deadline', async () => {
    const { spawnDetached } = await import('../../../src/app/detached.js');
    const { writeFileSync } = await import('node:fs');
    const script = join(w.home, 'hang.mjs');
    writeFileSync(script, 'setInterval(() => {}, 1000);');
    const pid = spawnDetached({
      args: [],
      cwd: w.home,
      env: w.env,
      logsDir: join(w.home, 'logs'),
      deadlineMs: 1000,
      binPath: script,
    });
    expect(pid).toBeGreaterThan(0);
    const start = Date.now();
    const alive = () => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
    expect(readFileSync(join(w.home, 'logs', 'background.log'), 'utf8')).toContain(
      'background deadline reached (1000 ms)',
    );
  }, 20_000);
});
