import type { Context } from 'hono';
import type { DashboardContext } from './context.js';
import { type Confidence, isConfidence, isRecordType, type RecordType } from './core.js';
import { invalid } from './errors.js';

const PROJECT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The `project` query parameter, defaulting to the project the dashboard was started in. */
export function projectParam(c: Context, ctx: DashboardContext): string {
  const raw = c.req.query('project');
  if (raw === undefined || raw === '') return ctx.current.id;
  if (!PROJECT_ID.test(raw)) throw invalid('project must be a project id', 'project');
  return raw;
}

export function typesParam(c: Context): RecordType[] {
  const raw = c.req.query('type');
  if (!raw) return [];
  const types = raw.split(',').filter(Boolean);
  for (const t of types)
    if (!isRecordType(t)) throw invalid(`unknown record type ${JSON.stringify(t)}`, 'type');
  return types as RecordType[];
}

export type ScopeFilter = 'all' | 'project' | 'global';

export function scopeParam(c: Context): ScopeFilter {
  const raw = c.req.query('scope') ?? 'all';
  if (raw === '' || raw === 'all') return 'all';
  if (raw === 'project' || raw === 'global') return raw;
  throw invalid('scope must be all, project or global', 'scope');
}

export function confidenceParam(c: Context): Confidence | undefined {
  const raw = c.req.query('confidence');
  if (!raw) return undefined;
  if (!isConfidence(raw)) throw invalid('confidence must be explicit, inferred or reinforced', 'confidence');
  return raw;
}

export function flagParam(c: Context, name: string): boolean {
  const raw = c.req.query(name);
  return raw === '1' || raw === 'true';
}

export function limitParam(c: Context, fallback: number, max: number): number {
  const raw = c.req.query('limit');
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw invalid('limit must be a positive integer', 'limit');
  return Math.min(n, max);
}

/** The JSON object a write sends; anything else is invalid input. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw invalid('the request body must be a JSON object');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
