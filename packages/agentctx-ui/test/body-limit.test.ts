import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDashboard, startDashboard } from '../src/server/start.js';
import { withToken } from './support/http.js';
import { type Seeded, seedStore } from './support/seed.js';

const LIMIT = 64 * 1024;
const DIST_SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server.js');

let seed: Seeded;
let dash: RunningDashboard;
beforeAll(async () => {
  seed = seedStore();
  dash = await startDashboard({ cwd: seed.repo, env: seed.env, port: 0 });
});
afterAll(async () => {
  await dash?.close();
  seed?.cleanup();
});

interface Answer {
  status: number;
  body: string;
  /** Bytes of the request body written before the answer arrived. */
  sentBeforeAnswer: number;
}

/**
 * POST `size` bytes of a JSON object (a valid one, padded with a long string) as a real client
 * does: with Content-Length, or chunked without it. With `hold`, the body is never finished:
 * only an answer given before the end of the body can arrive.
 */
function post(
  port: number,
  token: string,
  opts: {
    path: string;
    size: number;
    mode: 'length' | 'chunked';
    hold?: boolean;
    json?: string;
    agent?: Agent;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const head = opts.json ?? '{"pinned": true, "pad": "';
    const tail = opts.json ? '' : '"}';
    const padding = Math.max(0, opts.size - head.length - tail.length);
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'x-agentctx-token': token,
    };
    if (opts.mode === 'length') headers['content-length'] = String(head.length + padding + tail.length);
    let sent = 0;
    let done = false;
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: opts.path, headers, agent: opts.agent ?? false },
      (res) => {
        // the answer counts from its headers on: a server may close the socket after it, and
        // the write of the rest of the body then fails (EPIPE) as it does for any client
        answered = true;
        const at = sent;
        let body = '';
        const finish = (): void => {
          if (done) return;
          done = true;
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sentBeforeAnswer: at });
        };
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', finish);
        res.on('close', finish);
      },
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const write = (chunk: string): boolean => {
      sent += Buffer.byteLength(chunk);
      return req.write(chunk);
    };
    write(head);
    let left = padding;
    const pump = (): void => {
      while (left > 0 && !answered) {
        const n = Math.min(left, 16 * 1024);
        left -= n;
        if (!write('a'.repeat(n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (answered || opts.hold) return; // with hold, never finish: the answer must come before the end
      req.end(tail);
      sent += tail.length;
    };
    pump();
  });
}

const pinPath = () => `/api/records/${seed.ids.sqlite}/pin`;

describe('the dashboard limits request bodies to 64 KiB, while reading them', () => {
  it('answers 413 to a declared Content-Length over the limit, before the body is sent', async () => {
    const res = await post(dash.port, dash.token, {
      path: pinPath(),
      size: 50 * 1024 * 1024,
      mode: 'length',
      hold: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(res.sentBeforeAnswer).toBeLessThan(50 * 1024 * 1024);
  }, 10_000);

  it('answers 413 to a chunked body without Content-Length once it passes the limit, without waiting for its end', async () => {
    const res = await post(dash.port, dash.token, {
      path: pinPath(),
      size: 4 * 1024 * 1024,
      mode: 'chunked',
      hold: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
  }, 10_000);

  it('changes nothing when it refuses a body', async () => {
    const before = await fetch(`${dash.origin}api/records/${seed.ids.sqlite}`, withToken(dash)).then((r) =>
      r.json(),
    );
    for (const mode of ['length', 'chunked'] as const) {
      const res = await post(dash.port, dash.token, { path: pinPath(), size: LIMIT + 1, mode });
      expect(res.status, mode).toBe(413);
    }
    const after = await fetch(`${dash.origin}api/records/${seed.ids.sqlite}`, withToken(dash)).then((r) =>
      r.json(),
    );
    expect(after).toEqual(before);
  });

  it('takes any body up to the limit and refuses any over it, in both transfer modes (generated sizes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -2048, max: 2048 }),
        fc.constantFrom('length' as const, 'chunked' as const),
        async (delta, mode) => {
          const size = LIMIT + delta;
          const res = await post(dash.port, dash.token, { path: '/api/records/NOPE/pin', size, mode });
          // under the limit the route runs (and finds no record); over it, the limit answers
          if (size > LIMIT) expect(res.status, `${size} ${mode}`).toBe(413);
          else expect(res.status, `${size} ${mode}`).toBe(404);
        },
      ),
      { seed: 8080, numRuns: 24 },
    );
  });

  it('has room for the largest record edit: a full body and title of 4-byte characters, escaped', async () => {
    // body + "\n\nWhy it changed: " (18 characters) + rationale fill the 2,000-character record body
    const rationale = 'the formatter settled on spaces';
    const body = '\u{1F600}'.repeat(2000 - 18 - rationale.length);
    const title = '\u{1F600}'.repeat(120);
    const json = JSON.stringify({ body, title, rationale }).replace(
      /[\u{10000}-\u{10FFFF}]/gu,
      (ch) => `\\u${ch.charCodeAt(0).toString(16)}\\u${ch.charCodeAt(1).toString(16)}`,
    );
    expect(json.length).toBeGreaterThan(24_000);
    const res = await post(dash.port, dash.token, {
      path: `/api/records/${seed.ids.retry}/supersede`,
      size: json.length,
      mode: 'chunked',
      json,
    });
    expect(res.status, res.body).toBe(200);
    const after = await fetch(
      `${dash.origin}api/records/${JSON.parse(res.body).new_id}`,
      withToken(dash),
    ).then((r) => r.json());
    expect([...after.record.body].length).toBe(2000);
  });
});

describe.skipIf(!existsSync('/proc/self/status') || !existsSync(DIST_SERVER))(
  'server memory under a 50 MB body',
  () => {
    it('stays within a few MB of idle, with and without Content-Length', async () => {
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { startDashboard } = await import(${JSON.stringify(DIST_SERVER)});
         const d = await startDashboard({ cwd: process.argv[1], env: process.env, port: 0 });
         process.stdout.write(JSON.stringify({ port: d.port, token: d.token }) + '\\n');`,
          seed.repo,
        ],
        { env: { ...process.env, ...seed.env }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        const line = await new Promise<string>((r) =>
          createInterface({ input: child.stdout! }).once('line', r),
        );
        const { port, token } = JSON.parse(line) as { port: number; token: string };
        const peakMb = () =>
          Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
        // warm up the route so the baseline includes the code a write runs
        await post(port, token, { path: '/api/records/NOPE/pin', size: 1024, mode: 'length' });
        const idle = peakMb();
        // a keep-alive client, as browsers and curl are: the server discards the rest of the
        // upload and the client reads the answer (an agent: false client asks the server to close
        // the connection, and Node's client may then report the failed write before the answer)
        const agent = new Agent({ keepAlive: true });
        for (const mode of ['length', 'chunked'] as const) {
          const res = await post(port, token, {
            path: '/api/records/NOPE/pin',
            size: 50 * 1024 * 1024,
            mode,
            agent,
          });
          expect(res.status, mode).toBe(413);
        }
        agent.destroy();
        expect(peakMb() - idle).toBeLessThan(32);
      } finally {
        child.kill();
      }
    });
  },
);
