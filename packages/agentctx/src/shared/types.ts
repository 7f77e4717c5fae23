export const RECORD_TYPES = [
  'decision',
  'convention',
  'preference',
  'discovery',
  'bugfix',
  'handover',
  'profile',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const CONFIDENCES = ['explicit', 'inferred', 'reinforced'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const SCOPES = ['project', 'global'] as const;
export type Scope = (typeof SCOPES)[number];

export const SOURCES = ['llm_extraction', 'hook_observation', 'mcp_tool', 'cli', 'import'] as const;
export type Source = (typeof SOURCES)[number];

/** The reserved namespace of the developer's global profile (SPEC §3.4). */
export const GLOBAL_PROJECT = '_global';

export const TITLE_MAX = 120;
export const BODY_MAX = 2000;

/** One row of `records`, every column. */
export interface ContextRecord {
  id: string;
  project_id: string;
  type: RecordType;
  title: string;
  body: string;
  scope: Scope;
  pinned: number;
  confidence: Confidence;
  reinforce_count: number;
  valid_from: string;
  recorded_at: string;
  superseded_at: string | null;
  superseded_by: string | null;
  access_count: number;
  last_accessed: string | null;
  score: number;
  claudemd_drift_score: number;
  source: Source;
  session_id: string | null;
  /** The coding agent whose session wrote it ('claude-code', 'codex'; migration 15). */
  agent: string;
  pending_embedding: number;
  /** Consolidation's exact-duplicate key (derived; NULL until keyed, and after any rewrite). */
  content_key: string | null;
}

export function isRecordType(v: unknown): v is RecordType {
  return typeof v === 'string' && (RECORD_TYPES as readonly string[]).includes(v);
}

export function isScope(v: unknown): v is Scope {
  return typeof v === 'string' && (SCOPES as readonly string[]).includes(v);
}

export function isConfidence(v: unknown): v is Confidence {
  return typeof v === 'string' && (CONFIDENCES as readonly string[]).includes(v);
}
