import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, PACKAGE_ROOT } from '../../support/cli.js';
import { type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

/** How the bin starts a hook: from a V8 code cache in <agentctx home>/cache, reading stdin whole. */

let w: HookWorld;
beforeAll(() => {
  w = hookWorld();
  w.add({
    title: 'Webhook retries use the shared queue',
    body: 'Stripe webhook deliveries that fail are retried from the shared job queue with backoff.',
  });
  w.closeDb();
});
afterAll(() => w.cleanup());

const cacheDir = () => join(w.home, '.agentctx', 'cache');
const cacheFiles = () => {
  try {
    return readdirSync(cacheDir()).sort();
  } catch {
    return [];
  }
};
const ask = (sid: string) =>
  runHook(w, 'user-prompt-submit', promptPayload(w, sid, 'how do webhook retries use the queue?'));

describe('the hook code cache', () => {
  it('is written by the first hook, used by the next, and the answers are the same', () => {
    expect(cacheFiles()).toEqual([]);
    const first = ask('cache-1');
    expect(first.code).toBe(0);
    expect(first.context).toContain('Webhook retries use the shared queue');
    const files = cacheFiles();
    // the prompt hook's own bundle, named for this install and Node
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(
      new RegExp(`^hook-user-prompt-submit\\.cjs-[0-9a-f]{8}-\\d+-\\d+-${process.version}\\.v8$`),
    );
    const stamps = files.map((f) => statSync(join(cacheDir(), f)).mtimeMs);
    const second = ask('cache-2');
    expect(second.code).toBe(0);
    expect(second.context).toBe(first.context.replaceAll('cache-1', 'cache-2'));
    // accepted by V8, so not rewritten
    expect(cacheFiles()).toEqual(files);
    expect(files.map((f) => statSync(join(cacheDir(), f)).mtimeMs)).toEqual(stamps);
  });

  it('a temporary file a killed writer left is removed when a cache is next written', () => {
    ask('tmp-0');
    const hook = cacheFiles().find((f) => f.startsWith('hook-user-prompt-submit.cjs-'))!;
    const left = join(cacheDir(), `${hook}.99999.tmp`);
    const fresh = join(cacheDir(), `${hook}.99998.tmp`);
    writeFileSync(left, 'half a cache');
    writeFileSync(fresh, 'a writer still at work');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(left, old, old);
    rmSync(join(cacheDir(), hook)); // the next hook writes the cache again
    expect(ask('tmp-1').code).toBe(0);
    expect(cacheFiles()).toContain(hook);
    expect(cacheFiles()).not.toContain(`${hook}.99999.tmp`);
    expect(cacheFiles()).toContain(`${hook}.99998.tmp`); // too recent to be anyone's leftover
    rmSync(fresh);
  });

  it('a corrupt cache file is rejected, the hook still answers, and the file is replaced', () => {
    ask('cache-3');
    const hook = cacheFiles().find((f) => f.startsWith('hook-user-prompt-submit.cjs-'))!;
    const good = readFileSync(join(cacheDir(), hook));
    writeFileSync(join(cacheDir(), hook), Buffer.from('not a V8 code cache '.repeat(50)));
    const r = ask('cache-4');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.context).toContain('Webhook retries use the shared queue');
    const replaced = readFileSync(join(cacheDir(), hook));
    // a fresh cache again: V8's header (magic number, version, source hashes) as before
    expect(replaced.toString('latin1')).not.toContain('not a V8 code cache');
    expect(replaced.length).toBeGreaterThan(good.length / 2);
    expect(replaced.subarray(0, 12).equals(good.subarray(0, 12))).toBe(true);
  });

  it('a cache folder it cannot create costs only the cache', () => {
    const other = hookWorld('git@github.com:acme/nocache.git', 'nocache');
    try {
      other.add({ title: 'Webhook retries use the shared queue', body: 'Retried from the job queue.' });
      other.closeDb();
      writeFileSync(join(other.home, '.agentctx', 'cache'), 'a file where the folder would go');
      for (const sid of ['nc-1', 'nc-2']) {
        const r = runHook(other, 'user-prompt-submit', promptPayload(other, sid, 'webhook retries queue'));
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.context).toContain('Webhook retries use the shared queue');
      }
    } finally {
      other.cleanup();
    }
  });
});

describe('an install without the per-event bundles', () => {
  it('runs the all-events bundle (dist/hook.cjs) instead', () => {
    // a copy of the package whose dist/ predates the per-event bundles
    const pkg = join(w.home, 'old-install');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    cpSync(join(PACKAGE_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    for (const f of readdirSync(join(pkg, 'dist'))) if (f.startsWith('hook-')) rmSync(join(pkg, 'dist', f));
    cpSync(join(PACKAGE_ROOT, 'bin', 'agentctx.cjs'), join(pkg, 'bin', 'agentctx.cjs'));
    symlinkSync(join(PACKAGE_ROOT, '..', '..', 'node_modules'), join(pkg, 'node_modules'));
    const r = spawnSync(process.execPath, [join(pkg, 'bin', 'agentctx.cjs'), 'hook', 'user-prompt-submit'], {
      cwd: w.repo,
      env: w.env,
      input: JSON.stringify(promptPayload(w, 'old-1', 'how do webhook retries use the queue?')),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
      'Webhook retries use the shared queue',
    );
  });
});

describe('stdin', () => {
  it('is read whole from a file as from a pipe', () => {
    const file = join(w.home, 'payload.json');
    writeFileSync(file, JSON.stringify(promptPayload(w, 'file-1', 'how do webhook retries use the queue?')));
    const fd = openSync(file, 'r');
    try {
      const r = spawnSync(process.execPath, [BIN, 'hook', 'user-prompt-submit'], {
        cwd: w.repo,
        env: w.env,
        stdio: [fd, 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
        'Webhook retries use the shared queue',
      );
    } finally {
      closeSync(fd);
    }
  });
});

describe('hooks that open the store only sometimes', () => {
  it('open it through node:sqlite, loading no other file than their bundle', () => {
    const other = hookWorld('git@github.com:acme/nodigest.git', 'nodigest');
    try {
      other.add({ type: 'profile', title: 'Package manager: pnpm', body: 'pnpm install; pnpm test.' });
      other.closeDb();
      // no digest yet: SessionStart reads the profile records from the store
      const r = runHook(
        other,
        'session-start',
        {
          session_id: 'nd-1',
          cwd: other.repo,
          hook_event_name: 'SessionStart',
          source: 'startup',
        },
        { env: { AGENTCTX_BACKGROUND_DEADLINE_MS: '3000' } },
      );
      expect(r.code).toBe(0);
      expect(r.context).toContain('Package manager: pnpm');
      const files = readdirSync(join(other.home, '.agentctx', 'cache'));
      expect(files.some((f) => f.startsWith('hook-session-start.cjs-'))).toBe(true);
      // the driver is Node's own: the hook's bundle is the only file it compiled
      expect(files.filter((f) => f.endsWith('.v8')).map((f) => f.split('-')[0])).toEqual(['hook']);
    } finally {
      other.cleanup();
    }
  });
});
