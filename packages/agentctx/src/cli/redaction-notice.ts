import { describeRedaction, mergeReports, type RedactionReport } from '../core/redaction/gate.js';
import type { CommandIO } from './command.js';

/**
 * What the redaction gate took out of a command's writes or exports, said on stderr (kinds and
 * counts, never the values): `agentctx: redacted 2 secrets (github-token, secret) from the body`.
 */
export function redactionNotice(io: Pick<CommandIO, 'stderr'>): {
  onRedacted: (report: RedactionReport) => void;
  /** Say it (once) and return the merged report, or null when nothing was redacted. */
  flush: () => RedactionReport | null;
} {
  const reports: RedactionReport[] = [];
  return {
    onRedacted: (r) => {
      if (r.count > 0) reports.push(r);
    },
    flush: () => {
      if (reports.length === 0) return null;
      const merged = mergeReports(reports);
      reports.length = 0;
      io.stderr(`agentctx: ${describeRedaction(merged)}`);
      return merged;
    },
  };
}
