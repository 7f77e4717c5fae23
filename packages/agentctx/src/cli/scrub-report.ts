import type { ScrubOutcome, ScrubSummary } from '../app/scrub.js';
import type { RedactionReport } from '../core/redaction/gate.js';

/**
 * How a scrub is told to a person (`agentctx scrub`, and one line of `agentctx consolidate`):
 * kinds and counts, never a value.
 */

function kindsText(r: RedactionReport): string {
  const kinds = Object.entries(r.kinds).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k));
  return `${r.count} secret${r.count === 1 ? '' : 's'}${kinds.length ? ` (${kinds.join(', ')})` : ''}`;
}

/** Secrets taken out of files (digests, profile export, logs), in all. */
function fileSecrets(s: ScrubSummary): number {
  return s.digests.secrets.count + s.profile.secrets.count + s.logs.secrets.count;
}

/** The one line `agentctx consolidate` prints. */
export function scrubLine(outcome: ScrubOutcome | { error: string }): string {
  if ('error' in outcome) return `failed: ${outcome.error} (agentctx scrub says more)`;
  if ('skipped' in outcome) return 'skipped: another scrub is running';
  const s = outcome;
  const what =
    s.changed === 0 && fileSecrets(s) === 0
      ? `nothing to remove (${s.scanned} rows checked)`
      : `${kindsText(s.secrets)} removed from ${s.changed} records${s.history_changed ? ` (${s.history_changed} history)` : ''}${fileSecrets(s) ? `, ${fileSecrets(s)} from files` : ''}`;
  return `${what}${s.complete ? '' : '; time box reached, the next run continues'}`;
}

/** The full report of `agentctx scrub`. */
export function scrubText(outcome: ScrubOutcome): string {
  if ('skipped' in outcome) return 'agentctx scrub is already running; nothing to do.';
  const s = outcome;
  const pass = s.full_pass
    ? 'every stored text checked with the current redactor'
    : 'texts written since the last check checked';
  return [
    `scrub: ${pass} (${s.ms} ms)${s.complete ? '' : '; time box reached, the next run continues'}`,
    `  records          ${s.scanned} checked, ${s.changed} rewritten in place${s.history_changed ? ` (${s.history_changed} history)` : ''}`,
    `  secrets removed  ${kindsText(s.secrets)}`,
    `  embeddings       ${s.embeddings_dropped} dropped${s.changed ? ' (the next backfill embeds the new text)' : ''}`,
    `  full-text index  ${s.fts_optimized ? `merged${s.term_df_rebuilt ? '; word frequencies rebuilt' : ''}` : 'unchanged'}`,
    `  store file       ${s.vacuumed ? 'rebuilt (freed pages hold no old text)' : 'unchanged'}${s.wal_truncated ? '; WAL emptied' : ''}`,
    `  digests          ${s.digests.rewritten} composed again, ${s.digests.removed} removed`,
    `  profile export   ${s.profile.rewritten ? `rewritten, ${kindsText(s.profile.secrets)}` : 'unchanged'}`,
    `  logs             ${s.logs.checked} checked, ${s.logs.rewritten} rewritten${s.logs.rewritten ? `, ${kindsText(s.logs.secrets)}` : ''}`,
  ].join('\n');
}
