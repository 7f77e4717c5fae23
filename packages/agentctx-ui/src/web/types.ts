import type { ContextRecord, DriftReport } from '../server/core.js';
import type { GraphData } from '../server/graph-data.js';
import type { ProjectSummary } from '../server/projects.js';

export type { ContextRecord, GraphData, ProjectSummary };

export interface Meta {
  version: string;
  current: { id: string; name: string; root: string };
  types: string[];
  confidences: string[];
  token_header: string;
}

type ListedRecord = ContextRecord & { match?: { score: number; coverage: number }; stale?: string };

export interface RecordsAnswer {
  query: string | null;
  degraded: string | null;
  records: ListedRecord[];
}

export interface RecordDetail {
  record: ContextRecord;
  chain: ContextRecord[];
  files: string[];
  /** "may be outdated: …" when a linked file changed since the record was written. */
  stale: string | null;
}

export interface ReviewItemView {
  key: string;
  kind: 'conflict' | 'team' | 'stale' | 'duplicate' | 'inferred';
  title: string;
  detail: string;
  record_ids: string[];
  /** The records' bodies, in the order of record_ids. */
  bodies?: string[];
  actions: ('confirm' | 'supersede' | 'merge' | 'dismiss' | 'choose')[];
  commands: Record<string, string>;
}

export interface ReviewAnswer {
  available: boolean;
  reason?: string;
  items: ReviewItemView[];
}

/** Of a session's injected tokens: those on shown records, those on records it used (judged after it). */
interface SessionUsage {
  tokens_on_records: number;
  tokens_used: number;
  tokens_not_judged: number;
  /** Used tokens over judged tokens; null before any judging. */
  used_share: number | null;
}

export interface SessionRow {
  session_id: string;
  project_id: string | null;
  started_at: string | null;
  ended_at: string | null;
  tokens_injected: number;
  extraction_cost_usd: number;
  usage?: SessionUsage;
}

export interface SessionsAnswer {
  totals: { sessions: number; tokens_injected: number; extraction_cost_usd: number; usage?: SessionUsage };
  sessions: SessionRow[];
}

export type SyncAnswer =
  | { available: false; reason: string }
  | { available: true; root: string; report: DriftReport };
