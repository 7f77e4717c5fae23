import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../../src/hooks/event.js';
import { type HookWorld, hookWorld } from '../process/hooks/helpers.js';
import { BIN } from '../support/cli.js';
import {
  BENCH,
  FULL,
  figure,
  inShard,
  maxOf,
  percentile,
  SEED,
  SHARD,
  scale,
  total,
} from '../support/faults.js';
import { storeHealth } from '../support/store-check.js';
import { reapBackground } from '../support/tmp.js';

/**
 * Every hook event, fed payloads fast-check generates: objects shaped like Claude Code's with
 * fields of the wrong type, huge strings, deep nesting, bytes that are not UTF-8, text that is
 * not JSON, nothing at all; cwd and transcript_path pointing at a sentinel folder outside the
 * home, at folders that do not exist, at the home itself. A hook must exit 0, print nothing or
 * one hook JSON object, end in bounded time, and write nothing outside its home: the sentinel
 * folder (which holds the repository) is compared file by file before and after, once the
 * background jobs the hooks started have ended.
 */

const RUNS = scale(56, 2000, 7000);
/** Where each case's outcome is appended as it ends, for a run split into shards. */
const FUZZ_LOG = process.env.AGENTCTX_FAULTS_FUZZ_LOG ?? '';
const PARALLEL = 2;
const MAX_STRING = scale(256 * 1024, 4 * 1024 * 1024);
/** A hook that has not answered by then counts as hung (the machine may be very busy). */
const HANG_MS = 20_000;

const EVENT_NAMES: Record<string, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-tool-use': 'PostToolUse',
  'session-end': 'SessionEnd',
  'cwd-changed': 'CwdChanged',
  'subagent-start': 'SubagentStart',
};

let w: HookWorld;
let outside: string;
let sentinel: string;

beforeAll(() => {
  w = hookWorld('git@github.com:acme/fuzz.git', 'fuzz');
  for (const i of [1, 2, 3])
    w.add({ title: `Ledger rule ${i}`, body: `Payments go through the ledger, rule ${i}.` });
  w.closeDb();
  // the "outside": a folder beside the home holding a sentinel tree (the repo is under the home)
  outside = `${w.home}-outside`;
  sentinel = join(outside, 'sentinel');
  mkdirSync(join(sentinel, 'nested'), { recursive: true });
  writeFileSync(
    join(sentinel, 'transcript.jsonl'),
    '{"type":"user","message":{"role":"user","content":"hi"}}\n',
  );
  writeFileSync(join(sentinel, 'nested', 'CLAUDE.md'), '# keep me\n');
  mkdirSync(join(outside, '.git'), { recursive: true });
  writeFileSync(
    join(outside, '.git', 'config'),
    '[remote "origin"]\n\turl = git@github.com:acme/outside.git\n',
  );
});
afterAll(() => {
  w?.cleanup();
  if (outside) {
    reapBackground(outside);
    rmSync(outside, { recursive: true, force: true });
  }
});

/** Every file and folder under `dir` with its size and modification time. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const st = statSync(p);
      out[p] = `${e.isDirectory() ? 'd' : 'f'} ${st.size} ${st.mtimeMs}`;
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 4 }),
);

function paths(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc
      .constantFrom(
        () => w.repo,
        () => sentinel,
        () => join(sentinel, 'transcript.jsonl'),
        () => join(sentinel, 'nested'),
        () => outside,
        () => w.home,
        () => '/nonexistent/deep/path',
        () => '../../..',
        () => '',
        () => '/dev/null',
        () => '/',
      )
      .map((f) => f()),
    anyValue,
  );
}

/**
 * A string of up to MAX_STRING characters, kept as a recipe until its payload is sent: 7,000
 * materialised payloads would hold about 10 GB at once.
 */
class Huge {
  constructor(
    readonly n: number,
    readonly unit: string,
  ) {}
  text(): string {
    return this.unit.repeat(Math.ceil(this.n / this.unit.length));
  }
}

const hugeString = fc
  .tuple(
    fc.integer({ min: 1024, max: MAX_STRING }),
    fc.constantFrom('x', 'ledger ', '\u00e9', '\u{1F600}', '\\', '"'),
  )
  .map(([n, unit]) => new Huge(n, unit));

/** Nested arrays or objects `depth` levels deep, as JSON text (JSON.stringify would recurse). */
const deepJson = fc
  .tuple(fc.integer({ min: 100, max: scale(20_000, 200_000) }), fc.boolean())
  .map(([depth, arrays]) => (): Buffer => {
    const inner = arrays
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return Buffer.from(
      `{"session_id":"deep","tool_input":${inner},"tool_response":${inner},"prompt":"ledger"}`,
    );
  });

const shaped = fc
  .record(
    {
      session_id: fc.oneof(fc.string({ maxLength: 40 }), anyValue, hugeString),
      transcript_path: paths(),
      cwd: paths(),
      hook_event_name: fc.oneof(fc.constantFrom(...Object.values(EVENT_NAMES)), anyValue),
      prompt: fc.oneof(fc.string(), hugeString, anyValue, fc.constant('where do payments go? ledger')),
      source: fc.oneof(fc.constantFrom('startup', 'resume', 'compact', 'clear'), anyValue),
      stop_hook_active: anyValue,
      trigger: anyValue,
      reason: anyValue,
      tool_name: fc.oneof(fc.constantFrom('Bash', 'Edit', 'Write', 'MultiEdit', 'Read'), anyValue),
      tool_input: fc.oneof(
        fc.record({
          command: fc.oneof(fc.string(), anyValue),
          file_path: paths(),
          content: fc.oneof(fc.string(), hugeString),
        }),
        anyValue,
      ),
      tool_response: fc.oneof(
        fc.record({
          stdout: fc.oneof(fc.string(), hugeString),
          stderr: fc.oneof(fc.string(), anyValue),
          interrupted: anyValue,
        }),
        anyValue,
      ),
      error: fc.oneof(fc.string(), anyValue),
      old_cwd: paths(),
      new_cwd: paths(),
    },
    { requiredKeys: [] },
  )
  .map((o) => (): Buffer => Buffer.from(JSON.stringify(o, (_k, v) => (v instanceof Huge ? v.text() : v))));

/** A JSON payload with bytes that are not UTF-8 inside its strings. */
const badUtf8 = fc
  .tuple(
    fc.uint8Array({ minLength: 1, maxLength: 64 }),
    fc.constantFrom('prompt', 'cwd', 'session_id', 'transcript_path'),
  )
  .map(([bytes, key]) =>
    Buffer.concat([
      Buffer.from(`{"session_id":"utf","${key}":"ledger `),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, ...bytes, 0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]),
  );

/** A payload is made when it is sent (see Huge). */
type Payload = () => Buffer;
const now =
  <T>(make: (x: T) => Buffer) =>
  (x: T): Payload =>
  () =>
    make(x);

const payload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 6, arbitrary: shaped },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: badUtf8.map(now((b: Buffer) => b)) },
  { weight: 1, arbitrary: fc.string().map(now((x: string) => Buffer.from(x))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2048 }).map(now((a: Uint8Array) => Buffer.from(a))) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', 'null', '[]', '"x"', '{', '{}', '1e999')
      .map(now((x: string) => Buffer.from(x))),
  },
);

interface Tried {
  hook: string;
  bytes: number;
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}

function runHookBytes(hook: string, input: Buffer): Promise<Tried> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, 'hook', hook], {
      cwd: w.repo,
      env: { ...w.env, TMPDIR: join(w.home, 'tmp'), AGENTCTX_BACKGROUND_DEADLINE_MS: '4000' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ hook, bytes: input.length, code, ms: Date.now() - t0, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Why `r` breaks a session, or null when it does not. */
function problem(r: Tried): string | null {
  if (r.code !== 0) return `exit ${r.code} after ${r.ms} ms`;
  if (r.stderr !== '') return `stderr: ${r.stderr.slice(0, 300)}`;
  if (r.stdout.trim() === '') return null;
  try {
    const v = JSON.parse(r.stdout) as {
      hookSpecificOutput?: { hookEventName?: unknown; additionalContext?: unknown };
    };
    if (v.hookSpecificOutput?.hookEventName !== EVENT_NAMES[r.hook])
      return `wrong event in ${r.stdout.slice(0, 200)}`;
    if (typeof v.hookSpecificOutput?.additionalContext !== 'string') return 'no additionalContext string';
    return null;
  } catch {
    return `stdout is not one JSON object: ${r.stdout.slice(0, 200)}`;
  }
}

describe('fuzzed payloads on every hook event', () => {
  it(
    `${RUNS} generated payloads over ${HOOK_NAMES.length} events: exit 0, valid or empty output, nothing written outside the home`,
    async () => {
      const before = tree(outside);
      const repoBefore = tree(w.repo);
      // the whole seeded sample is drawn in every shard, so case i is the same case in all of them
      const all = fc.sample(fc.tuple(fc.constantFrom(...HOOK_NAMES), payload), {
        seed: SEED,
        numRuns: RUNS,
      });
      const cases = all.map((c, i) => ({ i, c })).filter(({ i }) => inShard(i));
      const results: Tried[] = [];
      let next = 0;
      const lane = async () => {
        while (next < cases.length) {
          const j = next++;
          const { i, c } = cases[j]!;
          const r = await runHookBytes(c[0], c[1]());
          results[j] = r;
          // a long run split into shards keeps every case's outcome as it goes (bench:faults --fuzz-log)
          if (FUZZ_LOG)
            appendFileSync(
              FUZZ_LOG,
              `${JSON.stringify({ i, of: RUNS, seed: SEED, hook: r.hook, bytes: r.bytes, code: r.code, ms: r.ms, injected: r.stdout.trim() !== '', problem: problem(r) })}\n`,
            );
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, lane));
      reapBackground(w.home, 30_000);

      const broken = results
        .map((r, j) => ({ i: cases[j]!.i, hook: r.hook, bytes: r.bytes, why: problem(r) }))
        .filter((b) => b.why !== null);
      // a failure names the seed and the case index: fc.sample with the same seed replays it
      expect(broken, `seed ${SEED}`).toEqual([]);
      const ms = results.map((r) => r.ms);
      expect(maxOf(ms)).toBeLessThan(HANG_MS);
      expect(tree(outside)).toEqual(before);
      expect(tree(w.repo)).toEqual(repoBefore);
      expect(storeHealth(w.dbPath)).toEqual({ integrity: 'ok', fts: 'ok' });
      // every event is tried (a shard of a few cases may miss one; the whole run may not)
      for (const hook of SHARD && SHARD.n > 1 ? [] : HOOK_NAMES)
        expect(
          results.some((r) => r.hook === hook),
          hook,
        ).toBe(true);

      const section = SHARD ? `Hook fuzzing (shard ${SHARD.k}/${SHARD.n})` : 'Hook fuzzing';
      figure(section, `payloads tried (of ${RUNS}, over ${HOOK_NAMES.length} events)`, results.length);
      figure(section, 'largest payload', Math.round(maxOf(results.map((r) => r.bytes)) / 1024), 'KB');
      figure(
        section,
        'runs that printed hook JSON (context injected)',
        results.filter((r) => r.stdout.trim() !== '').length,
      );
      figure(section, 'non-zero exits', results.filter((r) => r.code !== 0).length);
      figure(section, 'invalid stdout or any stderr', broken.length);
      figure(
        section,
        'hook time p50 / p99 / max',
        `${percentile(ms, 50)} / ${percentile(ms, 99)} / ${maxOf(ms)}`,
        'ms',
      );
      figure(section, 'files written outside the home', 0);
      total('inputs tried (fuzzed hook payloads)', results.length);
    },
    BENCH ? 3_600_000 * (FULL ? 3 : 1) : 180_000,
  );
});
