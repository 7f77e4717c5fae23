import { createRequire } from 'node:module';
import { type Embedder, normalize } from './embedder.js';
import { modelPresent } from './model-files.js';
import type { ModelSpec } from './models.js';

/**
 * The transformers.js (ONNX) embedder. The library is an optional dependency, imported
 * dynamically here and nowhere else; it is never part of the hook bundle.
 */

export interface LoadOptions {
  model: ModelSpec;
  /** Folder holding `<model.id>/…` (~/.agentctx/models, or a fixture folder). */
  modelsDir: string;
  /**
   * Allow fetching a missing model from the Hugging Face hub into `modelsDir`. Only an explicit
   * download (init --download-model, or consolidate on a terminal) sets it; otherwise loading
   * is strictly offline.
   */
  download?: boolean;
  /**
   * Where downloads come from, in the Hugging Face layout (`<host>/<id>/resolve/main/<file>`);
   * the hub by default. Tests point it at a server on 127.0.0.1.
   */
  remoteHost?: string;
  /** One-line notices (e.g. "downloading …"). */
  onNotice?: (line: string) => void;
  /** Download progress, 0..1, per file. */
  onProgress?: (file: string, fraction: number) => void;
  /** Texts per ONNX run. */
  batchSize?: number;
  /**
   * The runtime's CommonJS entry file when it was installed outside this package (into the
   * agentctx home by `init --semantic`); the package is imported by name otherwise.
   */
  runtimeEntry?: string;
}

/** Why the embedding layer is off, as a machine-readable reason. */
export class EmbedderUnavailable extends Error {
  constructor(
    readonly reason: 'no-runtime' | 'no-model' | 'load-failed',
    message: string,
  ) {
    super(message);
  }
}

type FeaturePipe = ((
  texts: string[],
  opts: { pooling: 'cls' | 'mean'; normalize: boolean },
) => Promise<{ data: Float32Array | number[]; dims: number[] }>) & { dispose?: () => Promise<void> };

type TransformersModule = {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    cacheDir: string | null;
    remoteHost: string;
    logLevel?: number;
  };
  pipeline: (
    task: 'feature-extraction',
    model: string,
    opts: Record<string, unknown>,
  ) => Promise<FeaturePipe>;
};

/** Import the optional runtime (by name, or from `entry`); `null` when it is not installed. */
export async function importTransformers(entry?: string): Promise<TransformersModule | null> {
  try {
    if (entry) return createRequire(import.meta.url)(entry) as TransformersModule;
    return (await import('@huggingface/transformers')) as unknown as TransformersModule;
  } catch {
    return null;
  }
}

export async function loadTransformersEmbedder(opts: LoadOptions): Promise<Embedder> {
  const { model, modelsDir } = opts;
  const present = modelPresent(modelsDir, model);
  if (!present && !opts.download) {
    throw new EmbedderUnavailable(
      'no-model',
      `embedding model ${model.name} is not downloaded (run agentctx init --download-model)`,
    );
  }
  const tf = await importTransformers(opts.runtimeEntry);
  if (!tf) {
    throw new EmbedderUnavailable(
      'no-runtime',
      '@huggingface/transformers is not installed (agentctx init --semantic installs it)',
    );
  }
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = modelsDir;
  // transformers.js looks in cacheDir/<id>/ first, and downloads there
  tf.env.cacheDir = modelsDir;
  tf.env.logLevel = 40;
  tf.env.allowRemoteModels = !present && opts.download === true;
  if (opts.remoteHost)
    tf.env.remoteHost = opts.remoteHost.endsWith('/') ? opts.remoteHost : `${opts.remoteHost}/`;
  if (tf.env.allowRemoteModels) {
    opts.onNotice?.(
      `agentctx: downloading the embedding model ${model.name} (~${model.sizeMb} MB) to ${modelsDir} (once)`,
    );
  }
  let pipe: FeaturePipe;
  try {
    pipe = await tf.pipeline('feature-extraction', model.id, {
      dtype: model.dtype,
      device: 'cpu',
      progress_callback: (p: { status?: string; file?: string; progress?: number }) => {
        if (p.status === 'progress' && p.file && typeof p.progress === 'number')
          opts.onProgress?.(p.file, p.progress / 100);
      },
    });
  } catch (err) {
    throw new EmbedderUnavailable(
      'load-failed',
      `embedding model ${model.name} failed to load: ${(err as Error).message}`,
    );
  } finally {
    tf.env.allowRemoteModels = false;
  }
  const batchSize = Math.max(1, opts.batchSize ?? 16);
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += batchSize) {
      const batch = texts.slice(i, i + batchSize);
      const t = await pipe(batch, { pooling: model.pooling, normalize: true });
      const width = t.dims[t.dims.length - 1] ?? 0;
      const data = t.data instanceof Float32Array ? t.data : Float32Array.from(t.data);
      for (let j = 0; j < batch.length; j++) {
        // Matryoshka truncation keeps the leading dimensions, then re-normalises
        out.push(normalize(data.slice(j * width, j * width + model.dims)));
      }
    }
    return out;
  };
  return {
    model,
    embedDocuments: (texts) => run(texts.map((t) => model.documentPrefix + t)),
    embedQuery: async (text) => (await run([model.queryPrefix + text]))[0]!,
    dispose: async () => {
      await pipe.dispose?.();
    },
  };
}
