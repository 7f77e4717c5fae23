import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../support/cli.js';
import { runAsync } from '../../support/extract-harness.js';
import { type ModelHost, startModelHost } from '../../support/model-host.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * `agentctx init --download-model` through the built CLI and the real transformers.js download
 * path, against a model host on 127.0.0.1 (AGENTCTX_MODEL_HOST) serving the glove fixture in
 * the Hugging Face layout: no test reaches the network.
 */

const MODEL = 'glove-sif-384-q8';
const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

let host: ModelHost;
beforeAll(async () => {
  host = await startModelHost(FIXTURE_MODELS);
});
afterAll(async () => {
  await host.close();
});

describe('agentctx init --download-model', () => {
  it('downloads the configured model once with a one-line notice, then finds it present', async () => {
    const dir = tempDir();
    try {
      const repo = fakeRepo(dir.path, 'repo', null);
      const models = join(dir.path, 'models');
      const env = isolatedEnv(dir.path, {
        AGENTCTX_NO_CLAUDE_CLI: '1',
        AGENTCTX_EMBED_MODEL: MODEL,
        AGENTCTX_MODEL_PATH: models,
        AGENTCTX_MODEL_HOST: host.url,
      });
      const first = await runAsync(['init', '--download-model'], { cwd: repo, env, timeoutMs: 60_000 });
      expect(first.stderr).toContain(`downloading the embedding model ${MODEL}`);
      // one notice line; no progress bar when stderr is not a terminal
      expect(first.stderr.split('\n').filter((l) => l.includes('downloading'))).toHaveLength(1);
      expect(first.stderr).not.toContain('\r');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`embedding model ${MODEL}: downloaded to ${models}`);
      for (const f of FILES) {
        expect(
          readFileSync(join(models, MODEL, f)).equals(readFileSync(join(FIXTURE_MODELS, MODEL, f))),
        ).toBe(true);
        expect(host.requests.some((r) => r.path === `/${MODEL}/resolve/main/${f}`)).toBe(true);
      }

      const seen = host.requests.length;
      const second = await runAsync(['init', '--download-model', '--json'], {
        cwd: repo,
        env,
        timeoutMs: 60_000,
      });
      expect(second.code).toBe(0);
      const out = JSON.parse(second.stdout) as { model: { status: string; model: string; dir: string } };
      expect(out.model).toEqual({ model: MODEL, dir: models, status: 'present' });
      expect(host.requests.length).toBe(seen);

      // the downloaded model then serves a consolidation strictly offline (host gone)
      const offline = { ...env, AGENTCTX_MODEL_HOST: 'http://127.0.0.1:9/' };
      const cons = await runAsync(['consolidate', '--json'], { cwd: repo, env: offline, timeoutMs: 60_000 });
      expect(cons.code).toBe(0);
      const emb = (JSON.parse(cons.stdout) as { embeddings: { status: string; model: string } }).embeddings;
      expect(emb).toMatchObject({ status: 'on', model: MODEL });
    } finally {
      dir.cleanup();
    }
  });

  it('a model the host does not have: one-line failure, non-zero exit, init itself done', async () => {
    const dir = tempDir();
    try {
      const repo = fakeRepo(dir.path, 'repo', null);
      const env = isolatedEnv(dir.path, {
        AGENTCTX_NO_CLAUDE_CLI: '1',
        AGENTCTX_EMBED_MODEL: 'tiny-random-bert-384',
        AGENTCTX_MODEL_PATH: join(dir.path, 'models'),
        AGENTCTX_MODEL_HOST: `${host.url}nothing-here/`,
      });
      const r = await runAsync(['init', '--download-model', '--json'], { cwd: repo, env, timeoutMs: 60_000 });
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout) as { model: { status: string; reason: string }; store: string };
      expect(out.model.status).toBe('failed');
      expect(out.model.reason).toMatch(/tiny-random-bert-384 failed to load/);
      expect(readFileSync(out.store).length).toBeGreaterThan(0);
    } finally {
      dir.cleanup();
    }
  });
});
