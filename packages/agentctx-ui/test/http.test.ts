import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDashboard, startDashboard } from '../src/server/start.js';
import { rawRequest } from './support/http.js';
import { type Seeded, seedStore } from './support/seed.js';

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

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.setTimeout(1500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

describe('the running server, over real HTTP', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(dash.origin).toBe(`http://127.0.0.1:${dash.port}/`);
    expect(dash.url).toBe(`http://127.0.0.1:${dash.port}/?token=${dash.token}`);
    expect(await reachable('127.0.0.1', dash.port)).toBe(true);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const addr of external) expect(await reachable(addr, dash.port), addr).toBe(false);
  });

  it('serves the page and the API to a same-origin client', async () => {
    const page = await rawRequest(dash.port, {
      path: new URL(dash.url).pathname + new URL(dash.url).search,
      headers: { host: `127.0.0.1:${dash.port}` },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain(dash.token);
    const api = await rawRequest(dash.port, {
      path: '/api/projects',
      headers: { host: `localhost:${dash.port}`, 'x-agentctx-token': dash.token },
    });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body).projects.length).toBe(3);
  });

  it('refuses every read to a local client without the token, with a wrong one, or with a spoofed Host', async () => {
    // what `curl` run by another account on this machine can send
    const reads = [
      '/',
      '/assets/app.js',
      '/api/projects',
      '/api/records',
      `/api/records/${seed.ids.sqlite}`,
      '/api/profile',
    ];
    const wrong = `${dash.token.slice(0, -1)}${dash.token.endsWith('A') ? 'B' : 'A'}`;
    const attempts: [string, Record<string, string>][] = [];
    for (const path of reads) {
      const q = path.includes('?') ? '&' : '?';
      for (const host of [`127.0.0.1:${dash.port}`, `localhost:${dash.port}`, 'attacker.example']) {
        attempts.push([path, { host }]);
        attempts.push([path, { host, 'x-agentctx-token': wrong }]);
        attempts.push([`${path}${q}token=${wrong}`, { host }]);
        attempts.push([`${path}${q}token=`, { host }]);
      }
      // the right token but a spoofed Host
      attempts.push([path, { host: 'attacker.example', 'x-agentctx-token': dash.token }]);
      attempts.push([`${path}${q}token=${dash.token}`, { host: `attacker.example:${dash.port}` }]);
    }
    for (const [path, headers] of attempts) {
      const res = await rawRequest(dash.port, { path, headers });
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(res.body).not.toContain(dash.token);
      expect(res.body).not.toContain(seed.ids.sqlite);
      expect(res.body).not.toContain('projects');
    }
    // the same reads with the token, as the page sends them: served
    for (const path of reads) {
      const res = await rawRequest(dash.port, {
        path,
        headers: { host: `127.0.0.1:${dash.port}`, 'x-agentctx-token': dash.token },
      });
      expect(res.status, path).toBe(200);
    }
  });

  it('rejects a foreign Host with 403 (DNS rebinding)', async () => {
    for (const host of ['attacker.example', `attacker.example:${dash.port}`, `127.0.0.1:${dash.port + 1}`]) {
      const res = await rawRequest(dash.port, { path: '/api/projects', headers: { host } });
      expect(res.status, host).toBe(403);
      expect(res.body).not.toContain('projects');
    }
    const page = await rawRequest(dash.port, { path: '/', headers: { host: 'attacker.example' } });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain(dash.token);
  });

  it('rejects a cross-site request with 403 (CSRF)', async () => {
    const res = await rawRequest(dash.port, {
      method: 'POST',
      path: `/api/records/${seed.ids.sqlite}/pin`,
      headers: {
        host: `127.0.0.1:${dash.port}`,
        'sec-fetch-site': 'cross-site',
        origin: 'https://attacker.example',
        'content-type': 'application/json',
        'x-agentctx-token': dash.token,
      },
      body: JSON.stringify({ pinned: true }),
    });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(Object.keys(res.headers).some((h) => h.startsWith('access-control-'))).toBe(false);
  });

  it('rejects a write without the token with 403 and accepts it with the token', async () => {
    const path = `/api/records/${seed.ids.sqlite}/pin`;
    const headers = { host: `127.0.0.1:${dash.port}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ pinned: true });
    const refused = await rawRequest(dash.port, { method: 'POST', path, headers, body });
    expect(refused.status).toBe(403);
    const detail = await rawRequest(dash.port, {
      path: `/api/records/${seed.ids.sqlite}`,
      headers: { ...headers, 'x-agentctx-token': dash.token },
    });
    expect(JSON.parse(detail.body).record.pinned).toBe(0);
    const ok = await rawRequest(dash.port, {
      method: 'POST',
      path,
      headers: { ...headers, 'x-agentctx-token': dash.token },
      body,
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).record.pinned).toBe(1);
  });
});
