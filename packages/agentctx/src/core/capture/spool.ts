import { needsWrite } from '../../database/connection.js';
import type { Db } from '../../database/open.js';
import {
  spoolClaim,
  spoolDone,
  spoolPending,
  spoolRead,
  spoolRecoverStale,
  spoolRelease,
  spoolSetAside,
  spoolWrite,
} from '../../files/capture-spool.js';
import type { IdGen } from '../../shared/clock.js';
import type { Redact } from '../redaction/redact.js';
import { applyCapture } from './observe.js';
import type { Capture } from './prepare.js';

/**
 * Captures the hook could not write at once. PostToolUse waits only briefly for the store's
 * write lock (a tool call must not stall behind a consolidation step or a long write
 * elsewhere); when the lock stays busy, the prepared capture — plain data, secrets already
 * redacted, branches already resolved — is spooled (files/capture-spool.ts) with the time it
 * happened and the project and session it belongs to. The next writer that gets the lock
 * applies the spool in order, each capture dated when it happened, so the store ends as if the
 * lock had been free: nothing is lost, nothing is written twice.
 */

interface SpooledCapture {
  v: 1;
  /** When the tool call ended (ISO): the capture's records are dated then. */
  at: string;
  projectId: string;
  projectRoot: string;
  sessionId: string;
  /** The coding agent whose tool call it was (absent in spools written before provenance). */
  agent?: string;
  capture: Capture;
}

/** Whether an error is SQLite's "the write lock stayed busy past the timeout". */
export function isBusy(err: unknown): boolean {
  return String((err as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY');
}

export function spoolCapture(dir: string, entry: Omit<SpooledCapture, 'v'>): string {
  const data: SpooledCapture = { v: 1, ...entry };
  return spoolWrite(dir, data, new Date(entry.at));
}

function isCapture(v: unknown): v is Capture {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  if (typeof c.cwd !== 'string') return false;
  if (c.kind === 'file') return typeof c.file === 'string';
  return c.kind === 'shell' && typeof c.command === 'string' && Array.isArray(c.git);
}

function asSpooled(v: unknown): SpooledCapture | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const ok =
    o.v === 1 &&
    typeof o.at === 'string' &&
    !Number.isNaN(Date.parse(o.at)) &&
    typeof o.projectId === 'string' &&
    o.projectId !== '' &&
    typeof o.projectRoot === 'string' &&
    typeof o.sessionId === 'string' &&
    (o.agent === undefined || typeof o.agent === 'string') &&
    isCapture(o.capture);
  return ok ? (o as unknown as SpooledCapture) : null;
}

interface SpoolDeps {
  db: Db;
  newId: IdGen;
  dir: string;
  redact?: Redact;
}

export interface SpoolResult {
  applied: number;
  /** Files still waiting (the store became busy again); the next writer applies them. */
  left: number;
  /** Files that were not captures, set aside as `.bad`. */
  setAside: number;
}

/**
 * Apply what is spooled, oldest first, each in its own write transaction under the
 * connection's busy timeout. Stops at the first busy lock (the rest waits for the next
 * writer); a full or read-only disk puts the file back and throws; a capture that fails
 * otherwise is set aside as `.bad` so it cannot block the ones after it.
 */
export function applySpooledCaptures(deps: SpoolDeps): SpoolResult {
  const out: SpoolResult = { applied: 0, left: 0, setAside: 0 };
  spoolRecoverStale(deps.dir); // a claim whose applier died is applied again (idempotent)
  const names = spoolPending(deps.dir);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const claimed = spoolClaim(deps.dir, name);
    if (!claimed) continue; // another writer is applying it
    const entry = asSpooled(spoolRead(claimed));
    if (!entry) {
      spoolSetAside(deps.dir, name, claimed);
      out.setAside++;
      continue;
    }
    const at = new Date(entry.at);
    try {
      applyCapture(
        {
          db: deps.db,
          clock: () => at,
          newId: deps.newId,
          projectId: entry.projectId,
          projectRoot: entry.projectRoot,
          sessionId: entry.sessionId,
          ...(entry.agent ? { agent: entry.agent.slice(0, 32) } : {}),
          ...(deps.redact ? { redact: deps.redact } : {}),
        },
        entry.capture,
      );
    } catch (err) {
      if (isBusy(err) || needsWrite(err)) {
        // the lock stayed busy, or the disk is full or read-only: all of it waits for later
        spoolRelease(deps.dir, name, claimed);
        out.left = names.length - i;
        if (isBusy(err)) return out;
        throw err;
      }
      // this capture cannot be written (it would fail every time): kept aside, not retried
      spoolSetAside(deps.dir, name, claimed);
      out.setAside++;
      continue;
    }
    spoolDone(claimed);
    out.applied++;
  }
  return out;
}
