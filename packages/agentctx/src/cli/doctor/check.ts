/** One finding of `agentctx doctor`. */
export interface Check {
  /** Stable name, for scripts (`--json`). */
  id: string;
  /** Short label shown in the first column. */
  label: string;
  /** ok: works; warn: works, with something worth knowing; fail: broken (doctor exits 1). */
  status: 'ok' | 'warn' | 'fail';
  /** What was found, in one line. */
  summary: string;
  /** What to do about it (every warn and fail has one). */
  fix?: string;
  /** Figures and paths behind the summary. */
  details?: Record<string, unknown>;
}

export function ok(id: string, label: string, summary: string, details?: Record<string, unknown>): Check {
  return { id, label, status: 'ok', summary, ...(details ? { details } : {}) };
}

/** A finding that needs the user: what was found and what to do about it. */
function needsFix(status: 'warn' | 'fail') {
  return (
    id: string,
    label: string,
    summary: string,
    fix: string,
    details?: Record<string, unknown>,
  ): Check => ({
    id,
    label,
    status,
    summary,
    fix,
    ...(details ? { details } : {}),
  });
}

export const warn = needsFix('warn');
export const fail = needsFix('fail');

/** A byte count for people: 1.2 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
