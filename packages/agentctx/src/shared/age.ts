/** A short human age: "just now", "12m", "5h", "3d", "2w", "4mo", "1y". */
export function formatAge(fromIso: string | null | undefined, now: Date): string {
  if (!fromIso) return 'unknown';
  const t = Date.parse(fromIso);
  if (Number.isNaN(t)) return 'unknown';
  const s = Math.max(0, (now.getTime() - t) / 1000);
  if (s < 60) return 'just now';
  const m = s / 60;
  if (m < 60) return `${Math.floor(m)}m`;
  const h = m / 60;
  if (h < 24) return `${Math.floor(h)}h`;
  const d = h / 24;
  if (d < 14) return `${Math.floor(d)}d`;
  if (d < 60) return `${Math.floor(d / 7)}w`;
  if (d < 365) return `${Math.floor(d / 30)}mo`;
  return `${Math.floor(d / 365)}y`;
}

export function ageInDays(fromIso: string | null | undefined, now: Date): number {
  const t = fromIso ? Date.parse(fromIso) : Number.NaN;
  if (Number.isNaN(t)) return 0;
  return Math.max(0, (now.getTime() - t) / 86_400_000);
}
