/** "3 days ago" style ages, from an ISO timestamp. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  const units: [number, string][] = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
    [86400 * 30, 'month'],
    [86400 * 365, 'year'],
  ];
  let pick = units[0]!;
  for (const u of units) if (s >= u[0]) pick = u;
  const n = Math.floor(s / pick[0]);
  return `${n} ${pick[1]}${n === 1 ? '' : 's'} ago`;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** The day alone, in the reader's locale (chart axes, where a full time would crowd). */
export function dateOnly(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
}

export function usd(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

export function int(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Where a record came from, in words (the store's `source` column; `agentctx show` words it the
 * same way). The page never prints the raw value.
 */
const SOURCE_WORDS: Record<string, string> = {
  llm_extraction: 'extracted from the session transcript',
  hook_observation: 'seen by a hook in the session',
  mcp_tool: 'the agent, through the MCP tool',
  cli: 'by hand (CLI or dashboard)',
  import: 'from the team file',
};

export function sourceWords(source: string): string {
  return SOURCE_WORDS[source] ?? source;
}

/** One colour per record type (graph and badges share it). */
export const TYPE_COLOURS: Record<string, string> = {
  decision: '#4f6bed',
  convention: '#1f9d8b',
  preference: '#b7791f',
  discovery: '#7c5cc4',
  bugfix: '#d1495b',
  handover: '#5a7d9a',
  profile: '#6b8e23',
  file: '#8a8f98',
};
