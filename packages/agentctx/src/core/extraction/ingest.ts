import { AnchorReader, anchorFiles } from '../../database/file-anchors.js';
import { linkRecordEntity, upsertNode } from '../../database/graph-repo.js';
import { findVerbatim, getRecord, listRecords } from '../../database/records-repo.js';
import { BODY_MAX, type ContextRecord, type Source, TITLE_MAX } from '../../shared/types.js';
import { createRecord, namespaceFor, type RecordsDeps } from '../records/records.js';
import { type Candidate, candidatesOf, normalise } from './candidates.js';
import { type EnrichmentReport, emptyEnrichmentReport, enrichStubs } from './enrich-stubs.js';
import type { ExtractionOutput } from './schema.js';
import { recordSighting, type SightingOutcome, sightById } from './sightings.js';

interface IngestOptions {
  sessionId: string;
  source: Source;
  /** Files the session touched (paths as the graph stores them); new project records link to them. */
  files?: readonly string[];
  /** The project's root: the files are anchored as they are now (database/file-anchors.ts). */
  projectRoot?: string;
  /**
   * When this session began. An explicit handover recorded since then (or by this session)
   * is the developer's own word for this session and is never superseded by an inferred one.
   */
  sessionStartedAt?: string | null;
}

export interface IngestReport {
  created: {
    id: string;
    type: string;
    title: string;
    confidence: string;
    scope: string;
    supersedes?: string;
  }[];
  reinforced: { id: string; confidence: string; reinforce_count: number }[];
  dropped: {
    duplicate: number;
    too_long: number;
    invalid_supersedes: number;
    /** `reinforces` ids that name no current record of this project or the global profile. */
    invalid_reinforces: number;
    kept_explicit_handover: number;
  };
  linked_files: number;
  /** Bugfix stubs superseded by their enriched record (enrich-stubs.ts). */
  bugfix_enrichment: EnrichmentReport;
}

function emptyReport(): IngestReport {
  return {
    bugfix_enrichment: emptyEnrichmentReport(),
    created: [],
    reinforced: [],
    dropped: {
      duplicate: 0,
      too_long: 0,
      invalid_supersedes: 0,
      invalid_reinforces: 0,
      kept_explicit_handover: 0,
    },
    linked_files: 0,
  };
}

function currentOfType(deps: RecordsDeps, namespace: string, type: string): ContextRecord[] {
  return listRecords(deps.db, { namespaces: [namespace], types: [type] });
}

/** An existing current record holding the same fact (normalised body), if any. */
function sameFact(deps: RecordsDeps, c: Candidate, namespace: string): ContextRecord | undefined {
  const key = normalise(c.body);
  return currentOfType(deps, namespace, c.type).find((r) => normalise(r.body) === key);
}

function countSighting(report: IngestReport, o: SightingOutcome): void {
  if (o.kind !== 'reinforced') return;
  const r = o.record;
  report.reinforced.push({ id: r.id, confidence: r.confidence, reinforce_count: r.reinforce_count });
}

/** A supersedes id is honoured only when it names a current record of the same namespace and type. */
function validSupersedes(deps: RecordsDeps, c: Candidate, namespace: string): string | null {
  if (!c.supersedes) return null;
  const old = getRecord(deps.db, c.supersedes);
  if (!old || old.superseded_at || old.project_id !== namespace || old.type !== c.type) return null;
  return old.id;
}

/**
 * Write validated extraction output into the store (CONTRACTS.md §extraction-ingest), in one
 * transaction. `flush_ok` writes nothing.
 */
export function ingestExtraction(
  deps: RecordsDeps,
  out: ExtractionOutput,
  opts: IngestOptions,
): IngestReport {
  const report = emptyReport();
  if (out.flush_ok) return report;
  const candidates = candidatesOf(out);
  const run = deps.db.transaction(() => {
    report.bugfix_enrichment = enrichStubs(deps, out.bugfix_enrichments ?? [], opts);
    const seen = new Set<string>();
    for (const c of candidates) ingestOne(deps, c, opts, report, seen);
    for (const r of out.reinforces ?? []) {
      const o = sightById(deps, r, opts.sessionId);
      if (o.kind === 'invalid') report.dropped.invalid_reinforces++;
      else countSighting(report, o);
    }
    report.linked_files = linkFiles(deps, report, opts.files ?? [], opts.projectRoot);
  });
  run.immediate();
  return report;
}

function ingestOne(
  deps: RecordsDeps,
  c: Candidate,
  opts: IngestOptions,
  report: IngestReport,
  seen: Set<string>,
): void {
  if ([...c.body].length > BODY_MAX || [...c.title].length > TITLE_MAX) {
    report.dropped.too_long++;
    return;
  }
  const namespace = namespaceFor(deps.projectId, c.scope);
  const key = `${namespace}\u0000${c.type}\u0000${normalise(c.body)}`;
  if (seen.has(key)) {
    report.dropped.duplicate++;
    return;
  }
  seen.add(key);

  if (c.type === 'handover') {
    ingestHandover(deps, c, opts, report);
    return;
  }

  const same = sameFact(deps, c, namespace);
  if (same) {
    // Seen again in a later session: an inferred fact gains weight (CONTRACTS.md §confidence);
    // anything else is a duplicate and is dropped.
    const o = recordSighting(deps, same, opts.sessionId, c.confidence === 'explicit');
    if (o.kind === 'reinforced') countSighting(report, o);
    else report.dropped.duplicate++;
    return;
  }
  if (findVerbatim(deps.db, namespace, c.type, c.title, c.body)) {
    report.dropped.duplicate++;
    return;
  }
  const supersedes = validSupersedes(deps, c, namespace);
  if (c.supersedes && !supersedes) report.dropped.invalid_supersedes++;
  const rec = createRecord(deps, {
    type: c.type,
    title: c.title,
    body: c.body,
    scope: c.scope,
    confidence: c.confidence,
    source: opts.source,
    sessionId: opts.sessionId,
    supersedes,
  });
  reportCreated(report, rec, supersedes);
}

/** A new record, as the report lists it. */
function reportCreated(
  report: IngestReport,
  rec: ContextRecord,
  supersedes: string | null | undefined,
): void {
  report.created.push({
    id: rec.id,
    type: rec.type,
    title: rec.title,
    confidence: rec.confidence,
    scope: rec.scope,
    ...(supersedes ? { supersedes } : {}),
  });
}

/** One current handover per project: a new one supersedes the last (CONTRACTS.md §keyed). */
function ingestHandover(
  deps: RecordsDeps,
  c: Pick<Candidate, 'title' | 'body' | 'confidence'>,
  opts: IngestOptions,
  report: IngestReport,
): void {
  const current = currentOfType(deps, deps.projectId, 'handover');
  const head = current[0];
  if (head && normalise(head.body) === normalise(c.body)) {
    report.dropped.duplicate++;
    return;
  }
  if (head && opts.source === 'hook_observation') {
    // A rule-built snapshot (PreCompact, or no model) is the thinnest handover there is: it
    // never replaces an explicit one, nor one the model wrote for this same session.
    const sameSessionModel = head.source === 'llm_extraction' && head.session_id === opts.sessionId;
    if (head.confidence === 'explicit' || sameSessionModel) {
      report.dropped.kept_explicit_handover++;
      return;
    }
  }
  if (head && head.confidence === 'explicit' && c.confidence !== 'explicit') {
    const sameSession = head.session_id !== null && head.session_id === opts.sessionId;
    const sinceStart = opts.sessionStartedAt ? head.recorded_at >= opts.sessionStartedAt : true;
    if (sameSession || sinceStart) {
      report.dropped.kept_explicit_handover++;
      return;
    }
  }
  const rec = createRecord(deps, {
    type: 'handover',
    title: c.title,
    body: c.body,
    scope: 'project',
    confidence: c.confidence,
    source: opts.source,
    sessionId: opts.sessionId,
    supersedes: head?.id ?? null,
  });
  reportCreated(report, rec, head?.id ?? null);
}

/** Link this session's new project records to the files it touched (record_entities). */
function linkFiles(
  deps: RecordsDeps,
  report: IngestReport,
  files: readonly string[],
  projectRoot: string | undefined,
): number {
  const targets = report.created.filter((r) => r.scope === 'project');
  if (targets.length === 0 || files.length === 0) return 0;
  const nodeIds = files.slice(0, 50).map((f) => upsertNode(deps.db, deps.newId, deps.projectId, 'file', f));
  for (const r of targets) for (const n of nodeIds) linkRecordEntity(deps.db, r.id, n);
  if (projectRoot) {
    const pairs = targets.flatMap((r) => files.slice(0, 50).map((path) => ({ recordId: r.id, path })));
    anchorFiles(deps.db, new AnchorReader(projectRoot), pairs, deps.clock().toISOString());
  }
  return nodeIds.length;
}

/** Write a rule-built handover (no model): the same chaining rules as an extracted one. */
export function ingestRuleHandover(
  deps: RecordsDeps,
  h: { title: string; body: string },
  opts: IngestOptions,
): IngestReport {
  const report = emptyReport();
  const run = deps.db.transaction(() => {
    ingestHandover(deps, { ...h, confidence: 'inferred' }, opts, report);
    report.linked_files = linkFiles(deps, report, opts.files ?? [], opts.projectRoot);
  });
  run.immediate();
  return report;
}
