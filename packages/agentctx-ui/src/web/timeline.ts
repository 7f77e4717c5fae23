import type { ContextRecord } from './types.js';

/**
 * The timeline of a supersession chain (oldest first): when each version was valid, where it
 * came from (a teammate's change arrives with source `import`) and why it changed. A version is
 * valid from its `valid_from` until its successor's `valid_from`, or until `superseded_at` when
 * it was closed without one (the rule of `agentctx search --as-of`).
 */
interface TimelineEntry {
  id: string;
  title: string;
  from: string;
  /** Null while current. */
  until: string | null;
  source: string;
  /** The rationale its body ends with ("Why it changed: …"), if any. */
  why: string | null;
  closed: boolean;
}

export function chainTimeline(chain: readonly ContextRecord[]): TimelineEntry[] {
  const byId = new Map(chain.map((r) => [r.id, r]));
  return chain.map((r) => {
    const next = r.superseded_by ? byId.get(r.superseded_by) : undefined;
    return {
      id: r.id,
      title: r.title,
      from: r.valid_from,
      until: next ? next.valid_from : r.superseded_at,
      source: r.source,
      why: /\n\nWhy it changed: ([^\n]*)$/.exec(r.body)?.[1] ?? null,
      closed: Boolean(r.superseded_at && !r.superseded_by),
    };
  });
}
