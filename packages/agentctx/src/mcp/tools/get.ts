import { appendLog } from '../../app/log.js';
import { namespacesOf } from '../../core/records/records.js';
import { chainVersionAt, type TimeTravel } from '../../database/as-of.js';
import { bumpAccess, currentHead, getVisibleRecords } from '../../database/records-repo.js';
import { staleFilesOf } from '../../database/staleness-repo.js';
import { writerAllowed } from '../../database/writer-filter.js';
import { errorMessage } from '../../shared/errors.js';
import { staleLabel } from '../../shared/stale-label.js';
import type { ContextRecord } from '../../shared/types.js';
import { mcpWriters, type ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { incognitoSession, type Json, registerTool } from '../result.js';
import { array, boolean, optional, string } from '../schema.js';
import { asOfField, timeTravelOf } from './as-of.js';

const GET_MAX = 10;

const description = `Read full records by id — the body, when the fact became true (valid_from), when it was recorded, whether and by what it was superseded, its confidence and where it came from (source, session). Use it after ctx_search or ctx_related, for the few index entries you actually need (at most 10 ids per call).
Ids that do not exist in this project come back in "missing". A superseded record is listed under "superseded" with the id of its current replacement (current_head), unless history is true. With as_of, each id gives the version of its record that was valid on that date (requested_id says which id asked for it); ids with no version valid then come back in "not_valid_then".`;

/** A record as the model sees it: everything but the project hash and internal derived flags. */
function present(r: ContextRecord): Json {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    body: r.body,
    scope: r.scope,
    confidence: r.confidence,
    pinned: r.pinned === 1,
    reinforce_count: r.reinforce_count,
    valid_from: r.valid_from,
    recorded_at: r.recorded_at,
    superseded_at: r.superseded_at,
    superseded_by: r.superseded_by,
    source: r.source,
    session_id: r.session_id,
    access_count: r.access_count,
    last_accessed: r.last_accessed,
    score: r.score,
  };
}

/** How long the access counters wait for another process's write lock before giving up. */
const COUNT_LOCK_WAIT_MS = 500;

/**
 * Count an access to the records returned: a side write of a read. A full disk, a read-only
 * store or a long write lock elsewhere leaves the counters as they were and the read goes on.
 * Returns whether they were written. An incognito session reads without leaving a trace: no
 * counters, no log line.
 */
function countAccess(ctx: ToolContext, ids: readonly string[]): boolean {
  if (ids.length === 0 || incognitoSession(ctx)) return false;
  const db = ctx.app.db;
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  try {
    db.pragma(`busy_timeout = ${COUNT_LOCK_WAIT_MS}`);
    db.transaction(() => bumpAccess(db, ids, ctx.app.clock().toISOString())).immediate();
    return true;
  } catch (err) {
    appendLog(ctx.app.paths.logs, 'mcp', `ctx_get: access counters not updated: ${errorMessage(err)}`);
    return false;
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}

/**
 * The records of these ids the project may see and this server's agent may be shown (a record
 * kept to another agent, `agents.isolate`, reads as missing).
 */
function readable(ctx: ToolContext, ids: readonly string[], namespaces: string[]): ContextRecord[] {
  const writers = mcpWriters(ctx);
  return getVisibleRecords(ctx.app.db, ids, namespaces).filter((r) => writerAllowed(writers, r.agent));
}

/** ctx_get with as_of: per id, the version of its chain valid then (CONTRACTS.md §history). */
function getAsOf(ctx: ToolContext, ids: readonly string[], time: TimeTravel): Json {
  const db = ctx.app.db;
  const namespaces = namespacesOf(ctx.app.project.id);
  const known = new Map(readable(ctx, ids, namespaces).map((r) => [r.id, r]));
  const versions: { requested: string; record: ContextRecord }[] = [];
  const notValid: string[] = [];
  for (const id of ids) {
    if (!known.has(id)) continue;
    const v = chainVersionAt(db, id, time);
    if (v && namespaces.includes(v.project_id)) versions.push({ requested: id, record: v });
    else notValid.push(id);
  }
  countAccess(ctx, [...new Set(versions.map((v) => v.record.id))]);
  const out: Json = {
    as_of: time.asOf,
    records: versions.map((v) => ({
      ...present(v.record),
      ...(v.requested !== v.record.id ? { requested_id: v.requested } : {}),
    })),
    missing: ids.filter((id) => !known.has(id)),
  };
  if (notValid.length > 0) out.not_valid_then = notValid;
  return out;
}

export function registerGet(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_get',
    title: 'Read context records',
    description,
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      ids: array(string({ min: 1, max: 64 }), {
        min: 1,
        max: GET_MAX,
        description: 'Record ids from ctx_search / ctx_related, 1–10.',
      }),
      history: optional(boolean({ description: 'Return superseded records too, in full.' })),
      as_of: asOfField,
    },
    run(args, call): Json {
      const { app } = ctx;
      const ids = [...new Set(args.ids)];
      const time = timeTravelOf(args.as_of);
      if (time) return getAsOf(ctx, ids, time);
      const db = app.db;
      const namespaces = namespacesOf(app.project.id);
      const found = db.transaction(() => readable(ctx, ids, namespaces))();
      const byId = new Map(found.map((r) => [r.id, r]));
      const returned = ids.filter((id) => {
        const r = byId.get(id);
        return r && (args.history || !r.superseded_at);
      });
      const bumped = countAccess(call, returned);
      // with the counters updated, return them as they now are
      const fresh = bumped ? new Map(readable(ctx, returned, namespaces).map((r) => [r.id, r])) : byId;
      const superseded = ids
        .map((id) => byId.get(id))
        .filter((r): r is ContextRecord => !!r && !!r.superseded_at && !args.history)
        .map((r) => ({
          id: r.id,
          superseded_by: r.superseded_by,
          current_head: currentHead(db, r.id)?.id ?? null,
        }));
      // a record whose linked files changed since it was written says so (never shown as current)
      const stale = staleFilesOf(db, returned);
      const res = {
        records: returned.map((id) => {
          const files = stale.get(id);
          const shown = present((fresh.get(id) ?? byId.get(id))!);
          return files ? { ...shown, stale: staleLabel(files) } : shown;
        }),
        missing: ids.filter((id) => !byId.has(id)),
        superseded,
      };
      const out: Json = { records: res.records, missing: res.missing };
      if (res.superseded.length > 0) out.superseded = res.superseded;
      return out;
    },
  });
}
