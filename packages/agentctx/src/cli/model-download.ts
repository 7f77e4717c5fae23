import type { App } from '../app/context.js';
import { loadEmbedder, semanticConfig } from '../app/semantic.js';
import { modelPresent } from '../embed/model-files.js';
import { createProgress } from './progress.js';

/** What `agentctx init --download-model` did about the embedding model. */
interface ModelDownloadReport {
  model: string | null;
  dir: string;
  status: 'downloaded' | 'present' | 'off' | 'failed';
  reason?: string;
}

/**
 * Fetch the configured embedding model into the models folder now (rather than on the first
 * consolidation at a terminal): a one-line notice, a progress line on a terminal, then one
 * offline load to prove the files work. Never throws; a failure is reported.
 */
export async function downloadModel(
  a: Pick<App, 'config' | 'paths' | 'env'>,
  io: { stderr: (t: string) => void; tty: boolean },
): Promise<ModelDownloadReport> {
  const sc = semanticConfig(a.config, a.paths, a.env);
  if (!sc.enabled || !sc.model)
    return { model: null, dir: sc.modelsDir, status: 'off', reason: sc.offReason ?? 'embeddings are off' };
  const base = { model: sc.model.name, dir: sc.modelsDir };
  if (modelPresent(sc.modelsDir, sc.model)) return { ...base, status: 'present' };
  const bar = createProgress({ write: io.stderr, enabled: io.tty });
  try {
    const emb = await loadEmbedder(sc, {
      download: true,
      onNotice: (line) => io.stderr(`${line}\n`),
      onProgress: (file, x) => bar.update(`  ${file}`, Math.max(0, Math.min(100, Math.round(x * 100))), 100),
    });
    await emb.dispose();
    bar.end();
    if (!modelPresent(sc.modelsDir, sc.model))
      return {
        ...base,
        status: 'failed',
        reason: `the model files are not in ${sc.modelsDir} after loading`,
      };
    return { ...base, status: 'downloaded' };
  } catch (err) {
    bar.end();
    return { ...base, status: 'failed', reason: (err as Error).message.split('\n')[0] ?? 'failed' };
  }
}
