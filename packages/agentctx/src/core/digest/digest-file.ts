import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic-write.js';

/**
 * The pre-computed SessionStart digest of one project (derived, CONTRACTS.md §stored-derived), in
 * one file, `<digests>/<project_id>.digest.json`: the text exactly as injected, the ids of the
 * records it shows (they join the session's dedup set), its token estimate, and `retire_stamp`, the
 * store's retirement count it was composed at (database/retirement.ts; core/digest/current-digest.ts
 * decides from it whether the digest is still current). One file, written atomically, so the
 * text and its stamp are always read together. `<project_id>.md` beside it is a copy of the text
 * for people; nothing reads it.
 */
interface DigestMeta {
  ids: string[];
  tokens: number;
  generated_at: string;
  /**
   * Whose records it was composed from (database/writer-filter.ts writerKey): '' or absent for
   * every writer's. A digest composed under another filter than the reader's is not shown.
   */
  writers?: string;
}

/** A digest as composed. */
export interface Digest extends DigestMeta {
  text: string;
}

/** A digest as stored: with the retirement count it was composed at. */
export interface StampedDigest extends Digest {
  /** The `begun` retirement count it was composed at; -1 when unknown (never current). */
  retire_stamp: number;
}

function files(dir: string, projectId: string): { json: string; text: string; legacyMeta: string } {
  return {
    json: join(dir, `${projectId}.digest.json`),
    text: join(dir, `${projectId}.md`),
    legacyMeta: join(dir, `${projectId}.ids.json`),
  };
}

/** Write the digest atomically (the JSON file is the one read), then the people's copy. */
export function writeDigest(dir: string, projectId: string, digest: StampedDigest): void {
  const f = files(dir, projectId);
  const body: StampedDigest = {
    text: digest.text,
    ids: digest.ids,
    tokens: digest.tokens,
    generated_at: digest.generated_at,
    ...(digest.writers ? { writers: digest.writers } : {}),
    retire_stamp: digest.retire_stamp,
  };
  writeFileAtomic(f.json, `${JSON.stringify(body)}\n`, 0o600);
  writeFileAtomic(f.text, digest.text, 0o600);
  rmSync(f.legacyMeta, { force: true });
}

/** Remove the digest files of a project (nothing to remove is fine). */
export function removeDigest(dir: string, projectId: string): void {
  const f = files(dir, projectId);
  for (const p of [f.json, f.text, f.legacyMeta]) rmSync(p, { force: true });
}

function fromJson(raw: Partial<StampedDigest>): StampedDigest | null {
  if (typeof raw.text !== 'string') return null;
  return {
    text: raw.text,
    ids: Array.isArray(raw.ids) ? raw.ids.filter((x): x is string => typeof x === 'string') : [],
    tokens: typeof raw.tokens === 'number' ? raw.tokens : 0,
    generated_at: typeof raw.generated_at === 'string' ? raw.generated_at : '',
    ...(typeof raw.writers === 'string' && raw.writers ? { writers: raw.writers } : {}),
    retire_stamp: Number.isSafeInteger(raw.retire_stamp) ? (raw.retire_stamp as number) : -1,
  };
}

/** A digest written before the stamp existed (text + `.ids.json`): shown only once recomposed. */
function readLegacy(f: ReturnType<typeof files>): StampedDigest | null {
  try {
    const text = readFileSync(f.text, 'utf8');
    let meta: Partial<StampedDigest> = {};
    try {
      meta = JSON.parse(readFileSync(f.legacyMeta, 'utf8')) as Partial<StampedDigest>;
    } catch {
      meta = {};
    }
    return fromJson({ ...meta, text, retire_stamp: -1 });
  } catch {
    return null;
  }
}

/** The digest, or null when there is none yet (or it cannot be read). Never throws. */
export function readDigest(dir: string, projectId: string): StampedDigest | null {
  const f = files(dir, projectId);
  let raw: string;
  try {
    raw = readFileSync(f.json, 'utf8');
  } catch {
    return readLegacy(f);
  }
  try {
    return fromJson(JSON.parse(raw) as Partial<StampedDigest>);
  } catch {
    return null;
  }
}
