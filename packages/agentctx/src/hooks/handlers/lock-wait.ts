/**
 * How long a hook that writes waits for the store's write lock held by another process (a
 * consolidation step, a long write elsewhere) before it leaves the write for later: the
 * session waits for the hook, so this stays well under a second. PostToolUse spools its
 * capture, SessionEnd journals the session's end, Stop defers its fold.
 */
export const HOOK_LOCK_WAIT_MS = 250;
