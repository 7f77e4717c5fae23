/**
 * Embedding models agentctx knows. Pooling, prefixes and dimensions are properties of a model,
 * never constants of the code that uses it: bge wants CLS pooling and an instruction on the
 * query side only; EmbeddingGemma wants mean pooling, task prefixes on both sides and is
 * truncated (Matryoshka) to 256 dimensions; the test fixtures describe themselves the same way.
 */

type Pooling = 'cls' | 'mean';

export interface ModelSpec {
  /** Short name used in config, logs and the vector store's signature. */
  name: string;
  /** Folder (Hugging Face id) under the models directory. */
  id: string;
  dtype: 'q8' | 'q4' | 'fp32';
  pooling: Pooling;
  /** Dimensions stored: the model's own, or fewer for a Matryoshka-truncated model. */
  dims: number;
  /** Prepended to a query before embedding (search side only). */
  queryPrefix: string;
  /** Prepended to a stored record's text. */
  documentPrefix: string;
  /** Approximate download size, for the one-line notice. */
  sizeMb: number;
}

export const MODELS: Readonly<Record<string, ModelSpec>> = {
  'bge-small-en-v1.5': {
    name: 'bge-small-en-v1.5',
    id: 'Xenova/bge-small-en-v1.5',
    dtype: 'q8',
    pooling: 'cls',
    dims: 384,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    documentPrefix: '',
    sizeMb: 34,
  },
  'embeddinggemma-300m': {
    name: 'embeddinggemma-300m',
    id: 'onnx-community/embeddinggemma-300m-ONNX',
    dtype: 'q4',
    pooling: 'mean',
    dims: 256,
    queryPrefix: 'task: search result | query: ',
    documentPrefix: 'title: none | text: ',
    sizeMb: 200,
  },
  // Offline test fixtures (test/fixtures/models): same loading path, tiny files.
  'glove-sif-384-q8': {
    name: 'glove-sif-384-q8',
    id: 'glove-sif-384-q8',
    dtype: 'q8',
    pooling: 'mean',
    dims: 384,
    queryPrefix: '',
    documentPrefix: '',
    sizeMb: 4,
  },
  'tiny-random-bert-384': {
    name: 'tiny-random-bert-384',
    id: 'tiny-random-bert-384',
    dtype: 'q8',
    pooling: 'cls',
    dims: 384,
    queryPrefix: '',
    documentPrefix: '',
    sizeMb: 2,
  },
};

const DEFAULT_MODEL = 'bge-small-en-v1.5';
const QUALITY_MODEL = 'embeddinggemma-300m';

/**
 * The model to use: `AGENTCTX_EMBED_MODEL` (any known name; tests and benchmarks point it at a
 * fixture) else the configured tier.
 */
export function selectModel(tier: 'default' | 'quality', override?: string): ModelSpec {
  if (override) {
    const m = MODELS[override];
    if (!m)
      throw new Error(
        `unknown embedding model ${JSON.stringify(override)}; known: ${Object.keys(MODELS).join(', ')}`,
      );
    return m;
  }
  return MODELS[tier === 'quality' ? QUALITY_MODEL : DEFAULT_MODEL]!;
}

/** Identifies the vectors a model produces: a change means every record is re-embedded. */
export function modelSignature(m: ModelSpec): string {
  return `${m.id}|${m.dtype}|${m.pooling}|${m.dims}|${m.documentPrefix}`;
}
