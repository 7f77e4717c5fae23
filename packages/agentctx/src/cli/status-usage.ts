import { namespacesOf } from '../core/records/records.js';
import type { Db } from '../database/open.js';
import type { TokenWindows } from '../database/sessions-repo.js';
import { projectTaxShare, sessionTaxShare, type TaxShare, usageTotals } from '../database/usage-repo.js';

/** The share of judged injected tokens that went to records the session used; null before any judging. */
function usedShare(t: TaxShare): number | null {
  const judged = t.injected - t.unjudged;
  return judged > 0 ? Math.round((t.used / judged) * 1000) / 1000 : null;
}

function window(tax: number, t: TaxShare) {
  return {
    tokens_injected: tax,
    tokens_on_records: Math.round(t.injected),
    tokens_used: Math.round(t.used),
    tokens_not_judged: Math.round(t.unjudged),
    used_share: usedShare(t),
  };
}

function phrase(label: string, w: ReturnType<typeof window>): string {
  const share =
    w.used_share === null
      ? 'use not judged yet'
      : `${Math.round(w.used_share * 100)}% of them went to records the session used`;
  const pending =
    w.used_share !== null && w.tokens_not_judged > 0 ? ` (${w.tokens_not_judged} not judged yet)` : '';
  return `${label} ${w.tokens_injected} tokens injected, ${share}${pending}`;
}

/**
 * The usage part of `agentctx status`: "is this worth its tokens?" — the last session's and
 * the last 7 days' token tax next to the share of the injected tokens that went to records the
 * sessions used (core/usage judges them after each session), and how many records were shown
 * often and never used.
 */
export function usageStatus(
  db: Db,
  projectId: string,
  windows: TokenWindows,
  now: Date,
): { json: Record<string, unknown>; lines: string[] } {
  const since = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const last = windows.last_session
    ? window(windows.last_session.tokens_injected, sessionTaxShare(db, windows.last_session.session_id))
    : null;
  const week = window(windows.last_7_days, projectTaxShare(db, projectId, since));
  const records = usageTotals(db, namespacesOf(projectId));
  const lines = [
    `value     ${[last ? phrase('last session', last) : 'no session yet', phrase('7 days', week)].join('; ')}`,
    `          ${records.shown} records shown, ${records.used} used at least once, ${records.never_used} shown 3+ times and never used`,
  ];
  return { json: { usage: { last_session: last, last_7_days: week, records } }, lines };
}
