import type { Db } from '../../database/open.js';
import {
  closeRecord,
  currentHead,
  currentKeyed,
  getRecord,
  insertRecord,
  linkSuccessor,
} from '../../database/records-repo.js';
import type { Clock, IdGen } from '../../shared/clock.js';
import { AgentctxError } from '../../shared/errors.js';
import {
  type Confidence,
  type ContextRecord,
  GLOBAL_PROJECT,
  type Scope,
  type Source,
} from '../../shared/types.js';
import { type RedactionReport, redactFields } from '../redaction/gate.js';
import { type Redact, redactSecrets } from '../redaction/redact.js';
import { resolveRecordId } from './record-id.js';
import { validateBody, validateRecordFields } from './validation.js';

export interface RecordsDeps {
  db: Db;
  clock: Clock;
  newId: IdGen;
  /** The working project; reads and writes are confined to it and `_global`. */
  projectId: string;
  reinforceThreshold?: number;
  /** The redaction gate's redactor (app/ adds the user's patterns); the built-in rules when absent. */
  redact?: Redact;
  /** Told what the gate took out of a write: kinds and counts, never the values. */
  onRedacted?: (report: RedactionReport) => void;
  /** The coding agent whose session writes (provenance); the store's default when absent. */
  agent?: string;
}

export interface CreateRecordInput {
  type: unknown;
  title: unknown;
  body: unknown;
  scope?: unknown;
  confidence?: Confidence;
  pinned?: boolean;
  source: Source;
  sessionId?: string | null;
  /** When the fact became true; defaults to now. */
  validFrom?: string;
  /** Id of a current record this one replaces (CONTRACTS.md §supersession), in the insert's transaction. */
  supersedes?: string | null;
}

export function namespacesOf(projectId: string): string[] {
  return projectId === GLOBAL_PROJECT ? [GLOBAL_PROJECT] : [projectId, GLOBAL_PROJECT];
}

export function namespaceFor(projectId: string, scope: Scope): string {
  return scope === 'global' ? GLOBAL_PROJECT : projectId;
}

/** A record the working project may see, or a not_found error. */
/** The record of this id, or of this unique id prefix, that the project may see (record-id.ts). */
export function requireVisible(deps: RecordsDeps, id: string): ContextRecord {
  return resolveRecordId(deps.db, id, namespacesOf(deps.projectId));
}

function requireCurrent(deps: RecordsDeps, id: string): ContextRecord {
  const rec = requireVisible(deps, id);
  if (rec.superseded_at) {
    const head = currentHead(deps.db, rec.id);
    throw new AgentctxError(
      'already_superseded',
      `record ${rec.id} was already superseded; supersede the current head ${head?.id ?? 'unknown'} instead`,
      { id: rec.id, current_head: head?.id ?? null },
    );
  }
  return rec;
}

/**
 * The redaction gate: every record text reaches the store through here (issue 24 #5), checked
 * for length as written, then with its secrets replaced by placeholders.
 */
function gateText(deps: RecordsDeps, f: { title: string; body: string }): { title: string; body: string } {
  const { fields, report } = redactFields(deps.redact ?? redactSecrets, { title: f.title, body: f.body });
  if (report.count > 0) deps.onRedacted?.(report);
  return fields;
}

/**
 * Validate and insert a record that replaces `replaces` (explicit supersession) and, by rule,
 * the current record of its key (CONTRACTS.md §keyed: the project's handover, a profile key's
 * record). Replaced records must live in the new record's namespace (CONTRACTS.md §namespaces).
 * They are closed before the insert (the database allows one current record per key), then linked
 * to their successor.
 */
function insertChecked(
  deps: RecordsDeps,
  input: CreateRecordInput,
  now: string,
  replaces: readonly ContextRecord[] = [],
): ContextRecord {
  const checked = validateRecordFields(input);
  const f = { ...checked, ...gateText(deps, checked) };
  const namespace = namespaceFor(deps.projectId, f.scope);
  for (const old of replaces) requireSameNamespace(old, namespace);
  const keyed = currentKeyed(deps.db, namespace, f.type, f.title).filter(
    (k) => !replaces.some((r) => r.id === k.id),
  );
  const closing = [...replaces, ...keyed];
  for (const old of closing) if (!closeRecord(deps.db, old.id, now)) requireCurrent(deps, old.id);
  const id = deps.newId();
  insertRecord(deps.db, {
    id,
    project_id: namespace,
    type: f.type,
    title: f.title,
    body: f.body,
    scope: f.scope,
    pinned: input.pinned ? 1 : 0,
    confidence: input.confidence ?? 'inferred',
    reinforce_count: 0,
    valid_from: input.validFrom ?? now,
    recorded_at: now,
    source: input.source,
    session_id: input.sessionId ?? null,
    ...(deps.agent ? { agent: deps.agent } : {}),
  });
  for (const old of closing) {
    linkSuccessor(deps.db, old.id, id);
    deps.db
      .prepare("INSERT INTO edges (id, from_id, to_id, rel_type) VALUES (?, ?, ?, 'supersedes')")
      .run(deps.newId(), id, old.id);
  }
  return getRecord(deps.db, id)!;
}

/** CONTRACTS.md §namespaces: a write never reaches into another namespace, even one the writer may read. */
function requireSameNamespace(old: ContextRecord, namespace: string): void {
  if (old.project_id === namespace) return;
  const where = (ns: string) => (ns === GLOBAL_PROJECT ? 'the global profile' : 'this project');
  throw new AgentctxError(
    'invalid_input',
    `record ${old.id} belongs to ${where(old.project_id)}; a record of ${where(namespace)} cannot supersede it`,
    { field: 'supersedes', id: old.id },
  );
}

/** Create a record; with `supersedes`, replace that record in the same transaction. */
export function createRecord(deps: RecordsDeps, input: CreateRecordInput): ContextRecord {
  const run = deps.db.transaction(() => {
    const now = deps.clock().toISOString();
    const old = input.supersedes ? requireCurrent(deps, input.supersedes) : null;
    if (old && old.type !== input.type) {
      throw new AgentctxError(
        'invalid_input',
        `a ${String(input.type)} cannot supersede a ${old.type} (record ${old.id})`,
        { field: 'supersedes' },
      );
    }
    return insertChecked(deps, input, now, old ? [old] : []);
  });
  return run.immediate();
}

interface SupersedeInput {
  body: unknown;
  rationale?: unknown;
  title?: unknown;
  source: Source;
  sessionId?: string | null;
  confidence?: Confidence;
}

/** Compose the new body of a superseding record: the new text, then why it changed. */
export function bodyWithRationale(body: unknown, rationale: unknown): unknown {
  if (typeof body !== 'string') return body;
  const why = typeof rationale === 'string' ? rationale.trim() : '';
  return why ? `${body.trim()}\n\nWhy it changed: ${why}` : body;
}

/** ctx_supersede (CONTRACTS.md §supersession): a current record replaced by one of the same type and scope. */
export function supersedeRecord(
  deps: RecordsDeps,
  oldId: string,
  input: SupersedeInput,
): { old_id: string; new_id: string; record: ContextRecord } {
  const run = deps.db.transaction(() => {
    const old = requireCurrent(deps, oldId);
    const now = deps.clock().toISOString();
    const rec = insertChecked(
      deps,
      {
        type: old.type,
        title: input.title ?? old.title,
        body: bodyWithRationale(validateBody(input.body), input.rationale),
        scope: old.scope,
        confidence: input.confidence ?? 'explicit',
        pinned: old.pinned === 1,
        source: input.source,
        sessionId: input.sessionId ?? null,
      },
      now,
      [old],
    );
    return { old_id: old.id, new_id: rec.id, record: rec };
  });
  return run.immediate();
}

export function setPinned(deps: RecordsDeps, id: string, pinned: boolean): ContextRecord {
  const rec = requireVisible(deps, id);
  deps.db.prepare('UPDATE records SET pinned = ? WHERE id = ?').run(pinned ? 1 : 0, rec.id);
  return getRecord(deps.db, rec.id)!;
}

/**
 * CONTRACTS.md §confidence: one more sighting of an inferred record in another session.
 * `reinforce_count` counts the sightings after the first, so the record becomes `reinforced` once
 * it has been seen in `reinforceThreshold` sessions in all (default 3: the first and two more), or at
 * once when `explicit` confirms it. Transitions are one-way: explicit and reinforced records
 * never change confidence here.
 */
export function reinforceRecord(deps: RecordsDeps, id: string, explicit = false): ContextRecord {
  const threshold = deps.reinforceThreshold ?? 3;
  const run = deps.db.transaction(() => {
    const rec = requireVisible(deps, id);
    const count = rec.reinforce_count + 1;
    let confidence: Confidence = rec.confidence;
    if (rec.confidence === 'inferred' && (explicit || 1 + count >= threshold)) confidence = 'reinforced';
    deps.db
      .prepare('UPDATE records SET reinforce_count = ?, confidence = ? WHERE id = ?')
      .run(count, confidence, rec.id);
    return getRecord(deps.db, rec.id)!;
  });
  return run.immediate();
}
