import { copyRecordEntities } from '../../database/bugfix-stubs-repo.js';
import { linkRecordEntity, upsertNode } from '../../database/graph-repo.js';
import { getRecord } from '../../database/records-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import { BODY_MAX, TITLE_MAX } from '../../shared/types.js';
import { bodyWithRationale, type RecordsDeps, supersedeRecord } from '../records/records.js';
import type { BugfixEnrichment } from './bugfix-stubs.js';

/**
 * Ingest of bugfix enrichments (CONTRACTS.md §types, §supersession): each names a stub by id; a
 * valid one — a current `bugfix` stub PostToolUse wrote in this session and project — is superseded
 * by a record stating the cause and the fix, followed by the stub's own command and error line. The
 * new record keeps the stub's file links and gains the session's files. Anything else is
 * counted and dropped; the store is never touched for it.
 */

export const ENRICHED_RATIONALE = 'enriched by extraction';

export interface EnrichmentReport {
  enriched: { id: string; stub_id: string; title: string }[];
  dropped: {
    /** Not a current bugfix stub of this session and project (unknown, foreign, already enriched…). */
    invalid_stub: number;
    /** The same stub twice in one answer. */
    duplicate: number;
    /** Cause and fix too long for one record. */
    too_long: number;
  };
}

export function emptyEnrichmentReport(): EnrichmentReport {
  return { enriched: [], dropped: { invalid_stub: 0, duplicate: 0, too_long: 0 } };
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cps = [...flat];
  return cps.length <= max ? flat : `${cps.slice(0, max - 1).join('')}…`;
}

/** Cause, fix, then as much of the stub's body as fits (with the rationale supersession adds). */
export function enrichedBody(e: Pick<BugfixEnrichment, 'cause' | 'fix'>, stubBody: string): string | null {
  const head = `Cause: ${e.cause.trim()}\nFix: ${e.fix.trim()}`;
  const room = BODY_MAX - [...(bodyWithRationale('x', ENRICHED_RATIONALE) as string)].length + 1;
  const headLen = [...head].length;
  if (headLen > room) return null;
  const left = room - headLen - 2;
  const stub = [...stubBody.trim()];
  if (left < 20) return head;
  return `${head}\n\n${stub.length <= left ? stub.join('') : `${stub.slice(0, left - 1).join('')}…`}`;
}

export function enrichStubs(
  deps: RecordsDeps,
  items: readonly BugfixEnrichment[],
  opts: { sessionId: string; files?: readonly string[] },
): EnrichmentReport {
  const report = emptyEnrichmentReport();
  const seen = new Set<string>();
  for (const e of items) {
    if (seen.has(e.stub_id)) {
      report.dropped.duplicate++;
      continue;
    }
    seen.add(e.stub_id);
    const stub = getRecord(deps.db, e.stub_id);
    const valid =
      stub !== undefined &&
      stub.project_id === deps.projectId &&
      stub.type === 'bugfix' &&
      stub.source === 'hook_observation' &&
      stub.session_id === opts.sessionId &&
      !stub.superseded_at;
    if (!valid) {
      report.dropped.invalid_stub++;
      continue;
    }
    const body = enrichedBody(e, stub.body);
    if (!body) {
      report.dropped.too_long++;
      continue;
    }
    const title = e.title ? oneLine(e.title, TITLE_MAX) : stub.title;
    try {
      const { new_id } = supersedeRecord(deps, stub.id, {
        title,
        body,
        rationale: ENRICHED_RATIONALE,
        source: 'llm_extraction',
        sessionId: opts.sessionId,
        confidence: 'inferred',
      });
      copyRecordEntities(deps.db, stub.id, new_id);
      for (const f of (opts.files ?? []).slice(0, 50)) {
        linkRecordEntity(deps.db, new_id, upsertNode(deps.db, deps.newId, deps.projectId, 'file', f));
      }
      report.enriched.push({ id: new_id, stub_id: stub.id, title });
    } catch (err) {
      if (!(err instanceof AgentctxError)) throw err;
      report.dropped.invalid_stub++;
    }
  }
  return report;
}
