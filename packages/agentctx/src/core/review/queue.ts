import { countMergeCandidates, listMergeCandidates } from '../../database/consolidation-repo.js';
import type { Db } from '../../database/open.js';
import { staleFilesOf, staleRecordIds } from '../../database/staleness-repo.js';
import { type StaleFile, staleLabel } from '../../shared/stale-label.js';
import type { ContextRecord } from '../../shared/types.js';
import { namespacesOf } from '../records/records.js';
import type { Redact } from '../redaction/redact.js';
import { type WaitingConflict, waitingConflicts } from '../team/team-conflicts.js';
import { readTeamFile, teamFilePath } from '../team/team-io.js';
import { teamStatus } from '../team/team-status.js';

/**
 * The review queue: what needs a human, in the order it is worth their minute — a team record
 * changed on both sides (both versions kept until a person chooses), a team file ahead of the store (a teammate's change), records whose files changed or went, near-duplicate
 * pairs, inferred records waiting for confirmation. Derived on each call from the store and the
 * team file; answering an item (actions.ts) is what removes it.
 */

export type ReviewKind = 'conflict' | 'team' | 'stale' | 'duplicate' | 'inferred';
export type ReviewAction = 'confirm' | 'supersede' | 'merge' | 'dismiss' | 'choose';

export interface ReviewItem {
  /** Stable handle: `conflict:<key>`, `stale:<id>`, `inferred:<id>`, `pair:<a>:<b>`, `team`. */
  key: string;
  kind: ReviewKind;
  title: string;
  /** Why it is here, in a line. */
  detail: string;
  record_ids: string[];
  actions: ReviewAction[];
  /** The CLI command each action runs the service of. */
  commands: Partial<Record<ReviewAction, string>>;
  stale?: StaleFile[];
  /** The records' bodies (redacted), in the order of `record_ids`: what the developer judges. */
  bodies?: string[];
}

interface QueueInput {
  db: Db;
  projectId: string;
  projectRoot: string;
  redact: Redact;
  now: () => Date;
  /** Items per kind (default 50). */
  limit?: number;
}

/**
 * Types a developer confirms. Hook observations (an error stub, a test outcome) are asked about
 * too: prompts show them as "Possibly: …", and whatever a prompt offers as a hypothesis the
 * review must let the developer settle (issue 31 #13). Handovers are task state, never asked.
 */
const CONFIRMABLE = "type IN ('decision', 'convention', 'preference', 'profile', 'discovery', 'bugfix')";

function recordItem(
  kind: 'stale' | 'inferred',
  r: ContextRecord,
  projectId: string,
  redact: Redact,
  stale?: StaleFile[],
): ReviewItem {
  const own = r.project_id === projectId;
  const detail =
    kind === 'stale' && stale
      ? `${staleLabel(stale)}${r.confidence === 'inferred' ? ' (also unconfirmed)' : ''}`
      : `unconfirmed ${r.type} (${r.source === 'hook_observation' ? 'observed by a hook' : 'inferred'}${r.reinforce_count ? `, seen ${r.reinforce_count + 1} times` : ''}): confirm it, correct it, or drop it`;
  return {
    key: `${kind}:${r.id}`,
    kind,
    title: r.title,
    detail,
    record_ids: [r.id],
    bodies: [redact(r.body)],
    // a global preference is not retired from one project (retire refuses it): confirm or correct it
    actions: own ? ['confirm', 'supersede', 'dismiss'] : ['confirm', 'supersede'],
    commands: {
      confirm: `agentctx confirm ${r.id}`,
      supersede: `agentctx supersede ${r.id} --body BODY --rationale WHY`,
      ...(own ? { dismiss: `agentctx retire ${r.id}` } : {}),
    },
    ...(stale ? { stale } : {}),
  };
}

/** A team conflict: every version with its text, numbered in date order, the current one marked. */
function conflictItem(c: WaitingConflict, redact: Redact): ReviewItem {
  const current = c.versions.find((v) => v.current) ?? c.versions.at(-1)!;
  const lines = c.versions.map(
    (v, i) =>
      `${i + 1}) ${v.current ? '[current] ' : ''}${v.id} valid from ${v.valid_from}: ${redact(v.title)} — ${redact(v.body.replace(/\s+/g, ' ')).slice(0, 240)}`,
  );
  return {
    key: `conflict:${c.key}`,
    kind: 'conflict',
    title: `${current.title}: changed on both sides, ${c.versions.length} versions kept`,
    detail: ['choose the version that stays (the others remain in its history):', ...lines].join('\n'),
    record_ids: c.versions.map((v) => v.id),
    actions: ['choose'],
    commands: { choose: `agentctx review --choose conflict:${c.key} --version N` },
  };
}

/** How many items wait, by kind, and the hint that walks them (`agentctx status`). */
export interface ReviewCounts {
  total: number;
  by_kind: Record<ReviewKind, number>;
  hint: string;
}

/** The queue with every kind counted in full, not just the page of items `limit` allows. */
interface ReviewSelection {
  items: ReviewItem[];
  counts: ReviewCounts;
}

/** The queue and its full counts; reads only (a read-only snapshot of the store serves). */
export function reviewSelection(input: QueueInput): ReviewSelection {
  const { db } = input;
  const limit = input.limit ?? 50;
  const items: ReviewItem[] = [];
  const by_kind: Record<ReviewKind, number> = { conflict: 0, team: 0, stale: 0, duplicate: 0, inferred: 0 };
  const namespaces = namespacesOf(input.projectId);
  const conflicts = waitingConflicts({ db, projectId: input.projectId });
  by_kind.conflict = conflicts.length;
  for (const c of conflicts.slice(0, limit)) items.push(conflictItem(c, input.redact));
  const text = readTeamFile(teamFilePath(input.projectRoot));
  if (text !== null) {
    const pending = teamStatus(
      { db, projectId: input.projectId, redact: input.redact, now: input.now },
      text,
    ).changed_in_file;
    const n = pending.incoming.length + pending.removed.length;
    if (n > 0) {
      by_kind.team = 1;
      const parts = [
        pending.incoming.length ? `${pending.incoming.length} new or changed` : '',
        pending.removed.length ? `${pending.removed.length} removed` : '',
      ].filter(Boolean);
      items.push({
        key: 'team',
        kind: 'team',
        title: `.agentctx/context.md changed: ${parts.join(', ')}`,
        detail: [
          ...pending.incoming.map((b) => `+ ${b.title}`),
          ...pending.removed.map((b) => `- ${b.title}`),
        ]
          .slice(0, 8)
          .join('\n'),
        record_ids: [],
        actions: ['confirm'],
        commands: { confirm: 'agentctx team import --yes' },
      });
    }
  }

  const allStale = staleRecordIds(db, input.projectId);
  by_kind.stale = allStale.length;
  const staleIds = allStale.slice(0, limit);
  const staleFiles = staleFilesOf(db, staleIds);
  const get = db.prepare('SELECT * FROM records WHERE id = ?');
  for (const id of staleIds) {
    const r = get.get(id) as ContextRecord | undefined;
    if (r) items.push(recordItem('stale', r, input.projectId, input.redact, staleFiles.get(id)));
  }

  by_kind.duplicate = countMergeCandidates(db, namespaces);
  const redact = input.redact;
  const bodyOf = (id: string) => (get.get(id) as ContextRecord | undefined)?.body ?? '';
  for (const c of listMergeCandidates(db, namespaces, limit)) {
    items.push({
      key: `pair:${c.record_a}:${c.record_b}`,
      kind: 'duplicate',
      title: `${c.title_a} ≈ ${c.title_b}`,
      detail: `near-duplicate ${c.type}s (similarity ${c.similarity.toFixed(2)}): merge keeps the older, the newer becomes history`,
      record_ids: [c.record_a, c.record_b],
      bodies: [c.record_a, c.record_b].map((id) => redact(bodyOf(id))),
      actions: ['merge', 'dismiss'],
      commands: {
        merge: `agentctx merge ${c.record_a} ${c.record_b}`,
        dismiss: `agentctx merge ${c.record_a} ${c.record_b} --dismiss`,
      },
    });
  }

  // a stale record is asked about as stale (its detail says when it is unconfirmed too), on
  // this page or a later one. The count and the page share one WHERE; the page sorts ids only.
  const marks = namespaces.map(() => '?').join(',');
  const waiting = `FROM records
     WHERE project_id IN (${marks}) AND superseded_at IS NULL AND confidence = 'inferred'
       AND ${CONFIRMABLE}
       AND id NOT IN (SELECT record_id FROM record_staleness WHERE project_id = ?)`;
  const params = [...namespaces, input.projectId];
  by_kind.inferred = (db.prepare(`SELECT COUNT(*) AS n ${waiting}`).get(...params) as { n: number }).n;
  const page = db
    .prepare(`SELECT id ${waiting} ORDER BY reinforce_count DESC, recorded_at DESC, id DESC LIMIT ?`)
    .all(...params, limit) as { id: string }[];
  for (const { id } of page) {
    const r = get.get(id) as ContextRecord | undefined;
    if (r) items.push(recordItem('inferred', r, input.projectId, input.redact));
  }
  const total = by_kind.conflict + by_kind.team + by_kind.stale + by_kind.duplicate + by_kind.inferred;
  return { items, counts: { total, by_kind, hint: 'agentctx review' } };
}

/** What `agentctx review` lists: at most `limit` items of each kind, most worth a minute first. */
export function reviewQueue(input: QueueInput): ReviewItem[] {
  return reviewSelection(input).items;
}
