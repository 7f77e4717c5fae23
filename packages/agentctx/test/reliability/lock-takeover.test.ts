import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript } from '../support/child-bundle.js';
import { PACKAGE_ROOT } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/**
 * One holder at a time, across real processes racing for one lock while earlier holders die
 * holding it. Before the fix, two waiters could both judge a dead holder's lock stale: A removed
 * it and created its own, then B's removal deleted A's fresh lock and B created another, and
 * both ran. Each waiter logs `enter` after taking the lock and `exit` (or `crash`, when it dies
 * holding it) before letting it go, with O_APPEND, so the log is the order things happened in:
 * two `enter`s in a row are two holders at once.
 */

let t: ReturnType<typeof tempDir>;
let waiter: string;

beforeAll(() => {
  t = tempDir('agentctx-lock-race-');
  waiter = bundleChildScript(
    t.path,
    'waiter',
    `import { appendFileSync } from 'node:fs';
import { tryLock } from ${JSON.stringify(join(PACKAGE_ROOT, 'src', 'app', 'lock.ts'))};
import { olderTryLock } from ${JSON.stringify(join(PACKAGE_ROOT, 'test', 'support', 'older-lock.ts'))};
const [dir, log, times, holdMs, crash, deadline, older] = process.argv.slice(2);
const take = older === '1' ? olderTryLock : tryLock;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let held = 0;
while (held < Number(times) && Date.now() < Number(deadline)) {
  const lock = take(dir, 'job', 60_000);
  if (!lock) {
    pause(Math.random() < 0.5 ? 0 : 1);
    continue;
  }
  appendFileSync(log, 'enter ' + process.pid + '\\n');
  held++;
  const until = Date.now() + Number(holdMs);
  while (Date.now() < until) {} // hold the lock while others spin on it
  if (crash === '1' && held === Number(times)) {
    appendFileSync(log, 'crash ' + process.pid + '\\n');
    process.exit(0); // dies holding the lock: the next taker must judge it stale
  }
  appendFileSync(log, 'exit ' + process.pid + '\\n');
  lock.release();
}
`,
  );
});
afterAll(() => t.cleanup());

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [waiter, ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** The holders in log order, or the first line where a second holder entered. */
function checkOneAtATime(lines: string[]): { overlap: string | null; enters: number } {
  let holder: string | null = null;
  let enters = 0;
  for (const [i, line] of lines.entries()) {
    const [what, pid] = line.split(' ');
    if (what === 'enter') {
      if (holder !== null) return { overlap: `line ${i + 1}: ${pid} entered while ${holder} held`, enters };
      holder = pid ?? null;
      enters++;
    } else {
      if (holder !== pid) return { overlap: `line ${i + 1}: ${pid} left without holding`, enters };
      holder = null;
    }
  }
  return { overlap: null, enters };
}

let round = 0;

describe('lock takeover', () => {
  it('never lets two processes hold one lock, whatever dies holding it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ crash: fc.boolean(), times: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 4,
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 3 }),
        async (waiters, holdMs) => {
          const dir = join(t.path, `round-${round++}`);
          mkdirSync(dir);
          const log = join(dir, 'holders.log');
          writeFileSync(log, '');
          const deadline = String(Date.now() + 20_000);
          const codes = await Promise.all(
            waiters.map((w) =>
              run([join(dir, 'locks'), log, String(w.times), String(holdMs), w.crash ? '1' : '0', deadline]),
            ),
          );
          expect(codes.every((c) => c === 0)).toBe(true);
          const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
          const { overlap, enters } = checkOneAtATime(lines);
          expect(overlap).toBeNull();
          // every waiter got its turns, dead holders' locks included: none was left held forever
          expect(enters).toBe(waiters.reduce((n, w) => n + w.times, 0));
        },
      ),
      { numRuns: 12 },
    );
  }, 240_000);

  it('never lets a process of an older version (one <name>.lock) and current ones hold it at once', async () => {
    // no holder dies here: two older versions taking over a dead holder's lock race each other
    // (the race generations remove), and a current version cannot make an older one safe
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.record({ older: fc.boolean(), times: fc.integer({ min: 1, max: 3 }) }), {
            minLength: 3,
            maxLength: 6,
          })
          .filter((ws) => ws.some((w) => w.older) && ws.some((w) => !w.older)),
        fc.integer({ min: 0, max: 3 }),
        async (waiters, holdMs) => {
          const dir = join(t.path, `round-${round++}`);
          mkdirSync(dir);
          const log = join(dir, 'holders.log');
          writeFileSync(log, '');
          const deadline = String(Date.now() + 20_000);
          const args = (w: { older: boolean; times: number }) => [
            join(dir, 'locks'),
            log,
            String(w.times),
            String(holdMs),
            '0',
            deadline,
            w.older ? '1' : '0',
          ];
          const codes = await Promise.all(waiters.map((w) => run(args(w))));
          expect(codes.every((c) => c === 0)).toBe(true);
          const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
          const { overlap, enters } = checkOneAtATime(lines);
          expect(overlap).toBeNull();
          expect(enters).toBe(waiters.reduce((n, w) => n + w.times, 0));
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});
