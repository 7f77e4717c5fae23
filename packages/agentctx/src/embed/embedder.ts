import type { ModelSpec } from './models.js';

/**
 * Turns text into unit-length vectors. The model's query instruction and document prefix are
 * applied here, so callers never know which model is behind it.
 */
export interface Embedder {
  readonly model: ModelSpec;
  /** Stored records' texts, in order; one unit vector of `model.dims` each. */
  embedDocuments(texts: readonly string[]): Promise<Float32Array[]>;
  /** A search query (the model's query prefix is added). */
  embedQuery(text: string): Promise<Float32Array>;
  dispose(): Promise<void>;
}

/** Scale to unit length in place (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Cosine of two vectors (dot product over the norms). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
