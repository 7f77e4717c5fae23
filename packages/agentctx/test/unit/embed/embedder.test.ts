import { describe, expect, it } from 'vitest';
import { cosine } from '../../../src/embed/embedder.js';
import { MODELS, type ModelSpec, selectModel } from '../../../src/embed/models.js';
import { recordEmbeddingText } from '../../../src/embed/record-text.js';
import { EmbedderUnavailable, loadTransformersEmbedder } from '../../../src/embed/transformers.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { tempDir } from '../../support/tmp.js';

describe('transformers.js embedder (fixture models, remote models disallowed)', () => {
  it('glove fixture (mean pooling): related sentences score well above unrelated ones', async () => {
    const e = await loadTransformersEmbedder({
      model: MODELS['glove-sif-384-q8']!,
      modelsDir: FIXTURE_MODELS,
    });
    const [a, b, c] = await e.embedDocuments([
      'we store the records in a sqlite database file',
      'the data lives in one sqlite database',
      'my favourite football team won the match',
    ]);
    expect(a).toHaveLength(384);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 4);
    const related = cosine(a!, b!);
    const unrelated = cosine(a!, c!);
    expect(related).toBeGreaterThan(0.5);
    expect(related - unrelated).toBeGreaterThan(0.3);
    await e.dispose();
  });

  it('tiny fixture (CLS pooling): 384 non-zero dimensions, deterministic', async () => {
    const m = MODELS['tiny-random-bert-384']!;
    expect(m.pooling).toBe('cls');
    const e = await loadTransformersEmbedder({ model: m, modelsDir: FIXTURE_MODELS });
    const [x, y] = await e.embedDocuments(['hello world', 'hello world']);
    expect(x).toHaveLength(384);
    expect(x!.some((v) => v !== 0)).toBe(true);
    expect(Array.from(x!)).toEqual(Array.from(y!));
    await e.dispose();
  });

  it('the query prefix and truncation are properties of the model', async () => {
    const base = MODELS['glove-sif-384-q8']!;
    const prefixed: ModelSpec = { ...base, queryPrefix: 'football match team ', dims: 128 };
    const e = await loadTransformersEmbedder({ model: prefixed, modelsDir: FIXTURE_MODELS });
    const q = await e.embedQuery('sqlite database');
    const [d] = await e.embedDocuments(['sqlite database']);
    expect(q).toHaveLength(128);
    expect(Math.hypot(...q)).toBeCloseTo(1, 4);
    // the instruction goes on the query side only
    expect(cosine(q, d!)).toBeLessThan(0.99);
    await e.dispose();
    expect(MODELS['bge-small-en-v1.5']!.queryPrefix).toMatch(/^Represent this sentence/);
    expect(MODELS['bge-small-en-v1.5']!.pooling).toBe('cls');
    expect(MODELS['embeddinggemma-300m']!.dims).toBe(256);
    expect(selectModel('quality').name).toBe('embeddinggemma-300m');
    expect(selectModel('default').name).toBe('bge-small-en-v1.5');
  });

  it('a missing model fails at once with no-model, without a download', async () => {
    const dir = tempDir();
    try {
      const err = await loadTransformersEmbedder({
        model: MODELS['bge-small-en-v1.5']!,
        modelsDir: dir.path,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmbedderUnavailable);
      expect((err as EmbedderUnavailable).reason).toBe('no-model');
    } finally {
      dir.cleanup();
    }
  });

  it('embedded text carries type, date and title', () => {
    expect(
      recordEmbeddingText({
        type: 'decision',
        valid_from: '2026-11-30T10:00:00.000Z',
        title: 'Use SQLite',
        body: 'One file,\n WAL mode.',
      }),
    ).toBe('[decision] [2026-11-30] Use SQLite — One file, WAL mode.');
  });
});
