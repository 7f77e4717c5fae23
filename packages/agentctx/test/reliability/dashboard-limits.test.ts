import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookWorld, hookWorld } from '../process/hooks/helpers.js';
import { PACKAGE_ROOT } from '../support/cli.js';
import { BENCH, figure, total } from '../support/faults.js';

/**
 * The dashboard under hostile requests, as a bench figure: oversized bodies (with and without
 * Content-Length), writes without the token, a forged Host, a cross-site Origin, path traversal.
 * Bench mode only: `npm test` already runs the dashboard's own tests of each of these
 * (packages/agentctx-ui/test/body-limit.test.ts for 413 and the server's memory under a 50 MB
 * body, http.test.ts for Host, Origin and token), so the default run skips this file.
 */

const SERVER = join(PACKAGE_ROOT, '..', 'agentctx-ui', 'dist', 'server.js');
const BODY_MB = 50;

let w: HookWorld;
let id = '';
let child: ReturnType<typeof spawn> | undefined;
let port = 0;
let token = '';

interface Sent {
  status: number;
  body: string;
}

function send(opts: {
  method: string;
  path: string;
  headers?: Record<string, string>;
  size?: number;
  chunked?: boolean;
  agent?: Agent;
}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...opts.headers };
    const size = opts.size ?? 0;
    if (size > 0 && !opts.chunked) headers['content-length'] = String(size);
    const req = request(
      { host: '127.0.0.1', port, method: opts.method, path: opts.path, headers, agent: opts.agent ?? false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (body.length < 4096) body += c;
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body });
        res.on('end', done);
        res.on('close', done);
      },
    );
    let answered = false;
    req.on('response', () => {
      answered = true;
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let left = size;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (left > 0 && !answered) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

beforeAll(async () => {
  if (!BENCH || !existsSync(SERVER)) return;
  w = hookWorld('git@github.com:acme/dashboard.git', 'dashboard');
  id = w.add({ title: 'Ledger rule', body: 'Payments go through the ledger.' }).id;
  w.closeDb();
  child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { startDashboard } = await import(${JSON.stringify(SERVER)});
       const d = await startDashboard({ cwd: process.argv[1], env: process.env, port: 0 });
       process.stdout.write(JSON.stringify({ port: d.port, token: d.token }) + '\\n');`,
      w.repo,
    ],
    { env: w.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((r) => createInterface({ input: child!.stdout! }).once('line', r));
  ({ port, token } = JSON.parse(line) as { port: number; token: string });
});
afterAll(() => {
  child?.kill();
  w?.cleanup();
});

const peakMb = () =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child!.pid}/status`, 'utf8'))![1]) / 1024;

describe.skipIf(!BENCH || !existsSync(SERVER) || !existsSync('/proc/self/status'))(
  'dashboard limits (bench)',
  () => {
    it('hostile requests get nowhere; a 50 MB body is refused without being read', async () => {
      const pin = `/api/records/${id}/pin`;
      const json = { 'content-type': 'application/json' };
      await send({ method: 'GET', path: '/api/projects' });
      const idle = peakMb();
      const agent = new Agent({ keepAlive: true });
      const attacks: [string, () => Promise<Sent>, (s: Sent) => boolean][] = [];
      for (const chunked of [false, true])
        for (let i = 0; i < 3; i++)
          attacks.push([
            `${BODY_MB} MB body${chunked ? ', chunked' : ''}`,
            () =>
              send({
                method: 'POST',
                path: pin,
                headers: { ...json, 'x-agentctx-token': token },
                size: BODY_MB * 1024 * 1024,
                chunked,
                agent,
              }),
            (s) => s.status === 413,
          ]);
      const refused = (s: Sent) => s.status >= 400 && s.status < 500;
      attacks.push(
        [
          'write without the token',
          () => send({ method: 'POST', path: pin, headers: json, size: 20 }),
          refused,
        ],
        [
          'write with a wrong token',
          () =>
            send({
              method: 'POST',
              path: pin,
              headers: { ...json, 'x-agentctx-token': 'x'.repeat(token.length) },
              size: 20,
            }),
          refused,
        ],
        [
          'forged Host (DNS rebinding)',
          () => send({ method: 'GET', path: '/api/projects', headers: { host: 'evil.example' } }),
          refused,
        ],
        [
          'cross-site write',
          () =>
            send({
              method: 'POST',
              path: pin,
              headers: { ...json, origin: 'https://evil.example', 'x-agentctx-token': token },
              size: 20,
            }),
          refused,
        ],
      );
      for (const path of [
        '/../../../../etc/passwd',
        '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
        '/assets/..%2f..%2f..%2fpackage.json',
        '/..\\..\\etc\\passwd',
      ])
        attacks.push([
          `traversal ${path}`,
          () => send({ method: 'GET', path }),
          (s) => !/root:|"name":/.test(s.body),
        ]);
      const through: string[] = [];
      for (const [name, run, held] of attacks) {
        const s = await run();
        if (!held(s)) through.push(`${name}: ${s.status}`);
      }
      agent.destroy();
      const grew = peakMb() - idle;
      expect(through).toEqual([]);
      expect(grew).toBeLessThan(64);
      const section = 'Dashboard';
      figure(section, 'hostile requests (oversized bodies, token, Host, Origin, traversal)', attacks.length);
      figure(section, 'got through', through.length);
      figure(section, `server peak memory growth over six ${BODY_MB} MB bodies`, Math.round(grew), 'MB');
      total('inputs tried (dashboard attacks)', attacks.length);
    }, 600_000);
  },
);
