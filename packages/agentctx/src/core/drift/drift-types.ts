/**
 * The CLAUDE.md drift report (CONTRACTS.md §ctx-sync-claudemd), shared by the consolidation
 * scan, the MCP tool and the dashboard. Bounded: at most `limit` entries per list.
 */
export interface DriftEntry {
  record_id: string;
  type: string;
  title: string;
  /** Why it was flagged, in a few words. */
  reason: string;
  /** For contradicted entries: the CLAUDE.md file and line that matches the superseded record. */
  file?: string;
  line?: number;
  excerpt?: string;
  /** The record's drift score, 0 (CLAUDE.md says it) .. 1 (nothing like it there). */
  score?: number;
  /** For contradicted entries: the current record that replaced the superseded one. */
  current_id?: string;
  current_title?: string;
}

export interface DriftReport {
  missing: DriftEntry[];
  contradicted: DriftEntry[];
  proposed_diff: string;
  /** How many candidates exist in all, before the limit. */
  total: { missing: number; contradicted: number };
  /** True when the lists were cut to the limit; page with `offset`. */
  truncated: boolean;
  /** The CLAUDE.md files read, relative to the project root. */
  files: string[];
}

export interface DriftOptions {
  limit?: number;
  offset?: number;
  now: Date;
}
