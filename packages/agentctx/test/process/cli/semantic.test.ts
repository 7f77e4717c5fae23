import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import { BIN, PACKAGE_ROOT, runAgentctx, runJson } from '../../support/cli.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from '../hooks/helpers.js';

/**
 * The semantic layer through the built CLI: glove fixture model, offline (the fixture folder is
 * the only model source and remote models are disallowed), real sqlite-vec.
 */

let w: HookWorld;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  w = hookWorld();
  env = { ...w.env, AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8', AGENTCTX_MODEL_PATH: FIXTURE_MODELS };
});
afterEach(() => w.cleanup());

function seed(n: number): void {
  const db = w.db();
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      w.add({
        type: 'discovery',
        title: `Observation ${i} about module ${i % 37}`,
        body: `While working on feature ${i} we noticed the parser in module ${i % 37} allocates ${i} buffers per request.`,
        confidence: 'explicit',
      });
    }
  })();
  w.closeDb();
}

function counts(): { pending: number; current: number } {
  const db = openDb(w.dbPath, { readonly: true });
  try {
    const pending = db
      .prepare('SELECT COUNT(*) AS n FROM records WHERE pending_embedding = 1 AND superseded_at IS NULL')
      .get() as { n: number };
    const current = db.prepare('SELECT COUNT(*) AS n FROM records WHERE superseded_at IS NULL').get() as {
      n: number;
    };
    return { pending: pending.n, current: current.n };
  } finally {
    db.close();
  }
}

describe('semantic layer through the built CLI', () => {
  it('a backfill killed mid-way leaves the rest pending, and a rerun completes it', async () => {
    seed(1500);
    const child = spawn(process.execPath, [BIN, 'consolidate', '--json'], {
      cwd: w.repo,
      env,
      stdio: 'ignore',
    });
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    let killedAt = -1;
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const c = counts();
      if (c.pending < 1500 && c.pending > 0) {
        child.kill('SIGKILL');
        killedAt = c.pending;
        break;
      }
    }
    await exited;
    expect(killedAt).toBeGreaterThan(0);
    const after = counts();
    expect(after.pending).toBeGreaterThan(0);
    expect(after.pending).toBeLessThan(1500);
    const res = runAgentctx(['consolidate', '--json'], { cwd: w.repo, env, timeoutMs: 100_000 });
    expect(res.code).toBe(0);
    const rerun = {
      json: JSON.parse(res.stdout) as {
        embeddings: { status: string; embedded: number; pending: number; store: string };
        steps: { name: string; ms: number }[];
      },
    };
    expect(rerun.json.embeddings.status).toBe('on');
    expect(rerun.json.embeddings.store).toBe('sqlite-vec');
    expect(rerun.json.embeddings.embedded).toBe(after.pending);
    const st = runJson<{ embeddings: { vectors: number; pending: number } }>(['status', '--verbose'], {
      cwd: w.repo,
      env,
    });
    expect(st.json.embeddings.vectors).toBe(1500);
  }, 120_000);

  it('near-duplicates surface in status and merge on confirmation; --rebuild-embeddings recomputes', () => {
    const a = w.add({
      type: 'decision',
      title: 'Store records in SQLite',
      body: 'We keep all records in one SQLite database file with WAL mode.',
      confidence: 'explicit',
    });
    const b = w.add({
      type: 'decision',
      title: 'Records live in a SQLite database',
      body: 'All records are kept in a single SQLite database file using WAL mode.',
      confidence: 'explicit',
    });
    w.add({
      type: 'decision',
      title: 'Release on Tuesdays',
      body: 'Production releases go out on Tuesday mornings only.',
      confidence: 'explicit',
    });
    w.closeDb();
    expect(runAgentctx(['consolidate'], { cwd: w.repo, env }).code).toBe(0);
    const st = runJson<{
      merge_candidates: { top: { record_a: string; record_b: string; similarity: number }[] };
    }>(['status', '--verbose'], { cwd: w.repo, env });
    const pair = st.json.merge_candidates.top.find((c) => c.record_a === a.id && c.record_b === b.id);
    expect(pair?.similarity).toBeGreaterThan(0.92);
    const merged = runJson<{ keeper: string; superseded: string }>(['merge', b.id, a.id], {
      cwd: w.repo,
      env,
    });
    expect(merged.code).toBe(0);
    expect(merged.json).toMatchObject({ keeper: a.id, superseded: b.id });
    const shown = runJson<{ record: { superseded_by: string } }>(['show', b.id], { cwd: w.repo, env });
    expect(JSON.stringify(shown.json)).toContain(a.id);
    const again = runAgentctx(['merge', b.id, a.id], { cwd: w.repo, env });
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);

    const rebuilt = runJson<{ embeddings: { rebuilt: boolean; embedded: number; pending: number } }>(
      ['consolidate', '--rebuild-embeddings'],
      { cwd: w.repo, env },
    );
    expect(rebuilt.json.embeddings.rebuilt).toBe(true);
    expect(rebuilt.json.embeddings.pending).toBe(0);
    expect(rebuilt.json.embeddings.embedded).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a model change re-embeds; with no model, status says why and nothing fails', () => {
    w.add({ type: 'decision', title: 'Use tabs', body: 'Indent with tabs.', confidence: 'explicit' });
    w.closeDb();
    expect(runJson(['consolidate'], { cwd: w.repo, env }).code).toBe(0);
    const tiny = { ...env, AGENTCTX_EMBED_MODEL: 'tiny-random-bert-384' };
    const re = runJson<{ embeddings: { embedded: number; model: string } }>(['consolidate'], {
      cwd: w.repo,
      env: tiny,
    });
    expect(re.json.embeddings.model).toBe('tiny-random-bert-384');
    expect(re.json.embeddings.embedded).toBeGreaterThanOrEqual(1);
    // the default model is not downloaded in this HOME, and a non-terminal run never downloads
    const bare = { ...w.env };
    const c = runJson<{ embeddings: { status: string; reason: string; pending: number } }>(['consolidate'], {
      cwd: w.repo,
      env: bare,
    });
    expect(c.code).toBe(0);
    expect(c.json.embeddings.reason).toMatch(/not downloaded/);
    const st = runAgentctx(['status', '--verbose'], { cwd: w.repo, env: bare });
    expect(st.code).toBe(0);
    expect(st.stdout).toMatch(/vectors\s+off: model bge-small-en-v1.5 is not downloaded/);
    const off = runAgentctx(['config', '--no-embeddings'], { cwd: w.repo, env: bare });
    expect(off.code).toBe(0);
    expect(runAgentctx(['status', '--verbose'], { cwd: w.repo, env: bare }).stdout).toMatch(
      /vectors\s+off: turned off/,
    );
  }, 60_000);

  it('with the optional packages absent every command still works and status says so', () => {
    // the built package in a folder with an empty node_modules (agentctx has no runtime dependency)
    const pkg = join(w.home, 'pkg');
    mkdirSync(join(pkg, 'node_modules'), { recursive: true });
    cpSync(join(PACKAGE_ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
    cpSync(join(PACKAGE_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), readFileSync(join(PACKAGE_ROOT, 'package.json')));
    const bin = join(pkg, 'bin', 'agentctx.cjs');
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [bin, ...args], {
        cwd: w.repo,
        env: { ...env, NODE_PATH: '' },
        encoding: 'utf8',
      });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    expect(
      run(['record', '--type', 'decision', '--title', 'Use SQLite', '--body', 'One file, WAL mode.']).code,
    ).toBe(0);
    const cons = run(['consolidate', '--json']);
    expect(cons.code).toBe(0);
    const emb = JSON.parse(cons.stdout).embeddings;
    expect(emb.status).toBe('off');
    expect(emb.reason).toMatch(/transformers is not installed/);
    expect(emb.store).toBe('js');
    const st = run(['status', '--json']);
    expect(st.code).toBe(0);
    const s = JSON.parse(st.stdout).embeddings;
    expect(s).toMatchObject({ status: 'off', runtime_installed: false, vector_store: 'js' });
    expect(s.vector_store_reason).toMatch(/sqlite-vec is not installed/);
    expect(run(['status', '--verbose']).stdout).toMatch(
      /vectors\s+off: @huggingface\/transformers is not installed/,
    );
    const found = run(['search', 'sqlite', '--json']);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('Use SQLite');
    expect(run(['merge', 'x', 'y']).code).not.toBe(0);
  }, 60_000);

  it('no hook process loads transformers.js, onnxruntime or sqlite-vec', () => {
    const bundles = readdirSync(join(PACKAGE_ROOT, 'dist')).filter((f) => /^hook.*\.cjs$/.test(f));
    expect(bundles).toContain('hook-user-prompt-submit.cjs');
    const bundle = bundles.map((f) => readFileSync(join(PACKAGE_ROOT, 'dist', f), 'utf8')).join('\n');
    for (const name of ['@huggingface/transformers', 'onnxruntime', 'sqlite-vec', 'vec0', 'vec_distance'])
      expect(bundle.includes(name), name).toBe(false);
    // every module each hook process loads, recorded by a preload script
    const out = join(w.home, 'modules');
    mkdirSync(out);
    const preload = join(w.home, 'preload.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => { if (!process.argv.includes('hook')) return;
        require('node:fs').writeFileSync(${JSON.stringify(out)} + '/' + process.pid + '.json',
          JSON.stringify({ argv: process.argv, modules: Object.keys(require.cache) })); });`,
    );
    w.add({
      type: 'decision',
      title: 'Checkout uses Stripe',
      body: 'Payments go through Stripe checkout.',
      confidence: 'explicit',
    });
    w.closeDb();
    expect(runAgentctx(['consolidate'], { cwd: w.repo, env }).code).toBe(0);
    const hookEnv = { ...env, NODE_OPTIONS: `--require ${preload}` };
    runHook(w, 'session-start', basePayload(w, 's1', 'SessionStart'), { env: hookEnv });
    const r = runHook(w, 'user-prompt-submit', promptPayload(w, 's2', 'how does checkout use stripe'), {
      env: hookEnv,
    });
    expect(r.context).toContain('Stripe');
    const files = readdirSync(out);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const { modules } = JSON.parse(readFileSync(join(out, f), 'utf8')) as { modules: string[] };
      // the hook bundles run from the code cache (not through require); what was required is Node's
      expect(modules.some((m) => m.includes('agentctx.cjs'))).toBe(true);
      expect(modules.filter((m) => /transformers|onnxruntime|sqlite-vec/.test(m))).toEqual([]);
    }
  }, 60_000);
});
