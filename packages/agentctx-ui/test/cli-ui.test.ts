import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from './support/http.js';
import { type Seeded, seedStore } from './support/seed.js';

const BIN = join(import.meta.dirname, '..', '..', 'agentctx', 'bin', 'agentctx.cjs');

function envFor(seed: Seeded, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // PATH without an opener would also be fine: --no-open is what keeps the test from launching one.
  return { PATH: process.env.PATH, ...seed.env, CLAUDE_CONFIG_DIR: join(seed.dir, '.claude'), ...extra };
}

let child: ChildProcess | undefined;
let seed: Seeded | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  seed?.cleanup();
  seed = undefined;
});

describe('agentctx ui', () => {
  it('runs the built CLI (npm run build first)', () => {
    expect(existsSync(join(import.meta.dirname, '..', '..', 'agentctx', 'dist', 'cli.js'))).toBe(true);
  });

  it('starts on 127.0.0.1, prints the URL, serves the store and stops on Ctrl-C', async () => {
    seed = seedStore();
    child = spawn(process.execPath, [BIN, 'ui', '--no-open', '--port', '0'], {
      cwd: seed.repo,
      env: envFor(seed),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out} ${err}`)), 20_000);
      child!.stdout!.on('data', (d) => {
        out += d;
        const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9_-]{32}/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child!.once('exit', (code) => reject(new Error(`exited ${code}: ${out} ${err}`)));
    });
    expect(out).toContain('agentctx dashboard for shop');
    // the printed URL carries the token; every request needs it, reads included
    const port = Number(new URL(url).port);
    const token = new URL(url).searchParams.get('token')!;
    const bare = await rawRequest(port, { path: '/api/projects', headers: { host: `127.0.0.1:${port}` } });
    expect(bare.status).toBe(403);
    const res = await rawRequest(port, {
      path: '/api/projects',
      headers: { host: `127.0.0.1:${port}`, 'x-agentctx-token': token },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).projects[0].label).toBe('shop');
    const page = await rawRequest(port, { path: `/?token=${token}`, headers: { host: `localhost:${port}` } });
    expect(page.body).toContain(`<meta name="agentctx-token" content="${token}"`);
    const exit = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(out).toContain('dashboard stopped');
    expect(err).toBe('');
    await expect(rawRequest(port, { path: '/', headers: { host: `127.0.0.1:${port}` } })).rejects.toThrow();
  });

  it('says how to install the dashboard when it is missing', () => {
    seed = seedStore();
    const res = spawnSync(process.execPath, [BIN, 'ui', '--no-open'], {
      cwd: seed.repo,
      env: envFor(seed, { AGENTCTX_UI_MODULE: join(seed.dir, 'not-installed', 'server.js') }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(res.status).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('npm install -g @agentctxhq/agentctx-ui');
  });

  it('rejects a bad port in one line', () => {
    seed = seedStore();
    const res = spawnSync(process.execPath, [BIN, 'ui', '--no-open', '--port', '70000'], {
      cwd: seed.repo,
      env: envFor(seed),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('--port must be');
  });
});
