import { AgentctxError, errorMessage } from '../shared/errors.js';

/**
 * A store damaged on disk, told as what it is and what to do, SQLite's own words kept at the
 * end: "database disk image is malformed" or "file is not a database" alone names neither the
 * file nor a way out.
 */

/** Whether SQLite reported the file damaged (cut short, overwritten, not a database). */
export function isDamagedStore(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** The error to show for a damaged store at `path` (the CLI exits 1 on it, MCP marks it degraded). */
export function damagedStore(path: string, err: unknown): AgentctxError {
  return new AgentctxError(
    'store_damaged',
    `the store ${path} is damaged; run \`agentctx doctor\` for what to do (move it aside and start a new one, or salvage its records with sqlite3 .recover) — SQLite: ${errorMessage(err)}`,
    { path, degraded: 'no-store', sqlite: String((err as { code?: unknown })?.code ?? '') },
  );
}
