import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSpec } from './models.js';

const ONNX_FILE: Record<ModelSpec['dtype'], string> = {
  q8: 'model_quantized.onnx',
  q4: 'model_q4.onnx',
  fp32: 'model.onnx',
};

/** The files transformers.js reads for a model, relative to the models folder. */
function modelFiles(m: ModelSpec): string[] {
  return [
    join(m.id, 'config.json'),
    join(m.id, 'tokenizer.json'),
    join(m.id, 'tokenizer_config.json'),
    join(m.id, 'onnx', ONNX_FILE[m.dtype]),
  ];
}

/** Whether the model is on disk under `dir` (checked without loading any runtime). */
export function modelPresent(dir: string, m: ModelSpec): boolean {
  return modelFiles(m).every((f) => existsSync(join(dir, f)));
}
