/**
 * The incognito session: one Claude Code session in which every agentctx hook does nothing
 * (nothing captured, nothing injected). State is one small file, `<home>/incognito.json`:
 * `{ since, session }`. `session: null` is armed (from the shell, for the next session to
 * start); a session id is that session. The next SessionStart of any other session removes it,
 * so incognito never outlives the session it was meant for. The hot path pays one stat when off.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.js';
import { readRegularFile } from '../files/regular-file.js';
import type { Paths } from './paths.js';

export interface IncognitoState {
  since: string;
  /** The incognito session's id, or null while armed for the next session. */
  session: string | null;
}

function incognitoPath(paths: Paths): string {
  return join(paths.home, 'incognito.json');
}

/**
 * The most of the file read: what setIncognito writes is under 200 bytes. A bigger file is not
 * ours, and is read cut short (so it does not parse, and incognito is off) rather than whole on
 * every hook.
 */
const READ_MAX_BYTES = 64 * 1024;

/**
 * The state, or null when off (no file, or one that does not parse: then it is off). Whatever
 * is in the file's place, a hook neither waits on it (a FIFO is refused) nor reads it whole.
 */
export function readIncognito(paths: Paths): IncognitoState | null {
  const file = incognitoPath(paths);
  if (!statSync(file, { throwIfNoEntry: false })) return null;
  try {
    const v = JSON.parse(readRegularFile(file, READ_MAX_BYTES)) as Partial<IncognitoState>;
    if (!v || typeof v !== 'object' || typeof v.since !== 'string') return null;
    const session = typeof v.session === 'string' && v.session !== '' ? v.session : null;
    return { since: v.since, session };
  } catch {
    return null;
  }
}

/** Switch on: for `session`, or (null) for the next session to start. */
export function setIncognito(paths: Paths, session: string | null, now: Date): IncognitoState {
  const state: IncognitoState = { since: now.toISOString(), session };
  writeFileAtomic(incognitoPath(paths), `${JSON.stringify(state)}\n`, 0o600);
  return state;
}

/** Switch off; true when it was on. */
export function clearIncognito(paths: Paths): boolean {
  const file = incognitoPath(paths);
  const was = Boolean(statSync(file, { throwIfNoEntry: false }));
  rmSync(file, { force: true });
  return was;
}

/** What a hook needs to know of its event. */
interface IncognitoEvent {
  kind: string;
  sessionId: string;
}

/**
 * Does this hook stand aside? A SessionStart binds an armed state to its session, or, when the
 * state belongs to another session, switches it off. Any other hook stands aside only in the
 * incognito session itself. Never throws: a state that cannot be written leaves this session
 * incognito rather than capturing it.
 */
export function incognitoHook(paths: Paths, ev: IncognitoEvent, now: Date): boolean {
  const state = readIncognito(paths);
  if (!state || !ev.sessionId) return false;
  if (state.session === ev.sessionId) return true;
  if (ev.kind !== 'session-start') return false;
  try {
    if (state.session === null) {
      setIncognito(paths, ev.sessionId, now);
      return true;
    }
    clearIncognito(paths);
  } catch {
    return state.session === null;
  }
  return false;
}
