import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../storage/atomic-write.js';

/**
 * The pre-computed SessionStart digest of one project (derived, SPEC §7): the text exactly as
 * injected, in `<digests>/<project_id>.md`, and beside it `<project_id>.ids.json` with the ids
 * of the records it shows (they join the session's dedup set) and its token estimate.
 */
export interface DigestMeta {
  ids: string[];
  tokens: number;
  generated_at: string;
}

export interface Digest extends DigestMeta {
  text: string;
}

function files(dir: string, projectId: string): { text: string; meta: string } {
  return { text: join(dir, `${projectId}.md`), meta: join(dir, `${projectId}.ids.json`) };
}

/** Write both files atomically; the metadata first, so a reader never sees text without ids. */
export function writeDigest(dir: string, projectId: string, digest: Digest): void {
  const f = files(dir, projectId);
  const meta: DigestMeta = { ids: digest.ids, tokens: digest.tokens, generated_at: digest.generated_at };
  writeFileAtomic(f.meta, `${JSON.stringify(meta)}\n`, 0o600);
  writeFileAtomic(f.text, digest.text, 0o600);
}

/** The digest, or null when there is none yet (or it cannot be read). Never throws. */
export function readDigest(dir: string, projectId: string): Digest | null {
  const f = files(dir, projectId);
  try {
    if (!existsSync(f.text)) return null;
    const text = readFileSync(f.text, 'utf8');
    let meta: Partial<DigestMeta> = {};
    try {
      meta = JSON.parse(readFileSync(f.meta, 'utf8')) as Partial<DigestMeta>;
    } catch {
      meta = {};
    }
    return {
      text,
      ids: Array.isArray(meta.ids) ? meta.ids.filter((x): x is string => typeof x === 'string') : [],
      tokens: typeof meta.tokens === 'number' ? meta.tokens : 0,
      generated_at: typeof meta.generated_at === 'string' ? meta.generated_at : '',
    };
  } catch {
    return null;
  }
}
