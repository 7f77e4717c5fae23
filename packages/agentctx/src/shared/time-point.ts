/**
 * A point in time a user names for a history query (`--as-of`, `--known-at`, `as_of`): an ISO
 * date (`2026-05-01`, meaning the end of that day, UTC: what was true on that date) or an ISO
 * date-time (`2026-05-01T14:30`, UTC unless it names its offset). Returned as the ISO string the
 * store compares with, or null when the text is not such a date.
 */
export function parseTimePoint(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (day) {
    const t = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), 23, 59, 59, 999);
    const d = new Date(t);
    // 2026-02-30 is not a date
    if (d.getUTCMonth() !== Number(day[2]) - 1 || d.getUTCDate() !== Number(day[3])) return null;
    return d.toISOString();
  }
  const m = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (!m) return null;
  const t = Date.parse(m[3] ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
