import { readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { processAlive } from './process-alive.js';

/**
 * The capture spool: writes a hook could not make because another process held the store's
 * write lock past the hook's short wait. One JSON file per write under `<home>/spool/`, named
 * so that names sort in the order the writes happened, created whole (written aside, then
 * renamed) so a reader never sees half of one. Whoever next holds the write lock (the next
 * capture, SessionEnd, `consolidate`) applies them in order and removes each file once
 * its write is committed (core/capture/spool.ts).
 *
 * A file is claimed before it is applied by renaming it to `<name>.claim-<pid>`: one rename
 * wins, so two appliers never apply one file. A claim left by a process that died is given
 * back to the spool by the next applier.
 */

let seq = 0;

/** Spool `data` (JSON-safe) as one file; returns its name. Throws when it cannot be written. */
export function spoolWrite(dir: string, data: unknown, now: Date): string {
  const rand = Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
  const name = `${String(now.getTime()).padStart(14, '0')}-${process.pid}-${(seq++).toString().padStart(4, '0')}-${rand}.json`;
  writeFileAtomic(join(dir, name), `${JSON.stringify(data)}\n`);
  return name;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // no spool folder: nothing was ever spooled
  }
}

/** Names of the spooled files waiting, oldest first. */
export function spoolPending(dir: string): string[] {
  return list(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
}

/** Whether anything waits: a spooled file, or one claimed by a process that no longer runs. */
export function spoolWaiting(dir: string): boolean {
  return list(dir).some((n) => {
    if (n.endsWith('.json')) return true;
    const m = /\.json\.claim-(\d+)$/.exec(n);
    return m !== null && !processAlive(Number(m[1]));
  });
}

/** Give back to the spool the files claimed by processes that no longer run. */
export function spoolRecoverStale(dir: string): number {
  let n = 0;
  for (const name of list(dir)) {
    const m = /^(.+\.json)\.claim-(\d+)$/.exec(name);
    if (!m || processAlive(Number(m[2]))) continue;
    try {
      renameSync(join(dir, name), join(dir, m[1]!));
      n++;
    } catch {
      // another applier gave it back first
    }
  }
  return n;
}

/** Claim a spooled file: its claimed path, or null when another process took it first. */
export function spoolClaim(dir: string, name: string): string | null {
  const claimed = join(dir, `${name}.claim-${process.pid}`);
  try {
    renameSync(join(dir, name), claimed);
    return claimed;
  } catch {
    return null;
  }
}

/** A claimed file's data, or undefined when it does not parse. */
export function spoolRead(claimed: string): unknown {
  try {
    return JSON.parse(readFileSync(claimed, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Its write is committed: remove the claimed file. */
export function spoolDone(claimed: string): void {
  try {
    unlinkSync(claimed);
  } catch {
    // already gone
  }
}

/** Not applied (the store stayed busy): back into the spool under its own name. */
export function spoolRelease(dir: string, name: string, claimed: string): void {
  renameSync(claimed, join(dir, name));
}

/** A file that is not a capture: set aside as `<name>.bad` (kept for a human, never retried). */
export function spoolSetAside(dir: string, name: string, claimed: string): void {
  try {
    renameSync(claimed, join(dir, `${name}.bad`));
  } catch {
    // left claimed; recovered and set aside again by a later applier
  }
}
