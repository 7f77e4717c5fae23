import { supersessionChain } from '../../database/records-repo.js';
import { BODY_MAX, type ContextRecord } from '../../shared/types.js';
import { createRecord, type RecordsDeps } from '../records/records.js';
import { redactSecrets } from '../redaction/redact.js';
import { blockSha, normalBody, type TeamBlock } from './team-file.js';
import type { ParsedBlock } from './team-parse.js';
import { blockOf } from './team-set.js';

/**
 * One key of the file against this store (CONTRACTS.md §supersession: new facts supersede, nothing is
 * overwritten). The versions of a key are the file's blocks with that key (two after a union
 * merge of two edits) and, when it changed here since the last export/import, the local head.
 * The winner is the version with the latest `valid_from` (then the larger hash): the same on
 * every clone that reads the same file, so two developers end with the same current text,
 * and every version is in both their histories or in the file.
 */

export const EDIT_RATIONALE = 'edited in .agentctx/context.md';
const WHY = /\n\nWhy it changed: [^\n]*$/;

export interface Version {
  block: TeamBlock;
  sha: string;
  line: number;
}

export interface KeyOutcome {
  head: ContextRecord;
  /** Records this import wrote, oldest first. */
  written: ContextRecord[];
  conflict: boolean;
  /** The hash the link keeps as "what the file holds". */
  syncedSha: string;
  /** An earlier valid_from the file gave the head's unchanged text (team_links.shown_valid_from). */
  shownValidFrom: string | null;
}

export function versionsOf(blocks: readonly ParsedBlock[]): Version[] {
  const seen = new Map<string, Version>();
  for (const b of blocks) {
    const sha = blockSha(b);
    if (!seen.has(sha)) seen.set(sha, { block: b, sha, line: b.line });
  }
  return [...seen.values()].sort(byTime);
}

function byTime(a: { block: TeamBlock; sha: string }, b: { block: TeamBlock; sha: string }): number {
  const ta = a.block.valid_from;
  const tb = b.block.valid_from;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0;
}

/**
 * The body an edit from the file is stored with: a rationale carried over unchanged from the
 * record it replaces is swapped for "edited in .agentctx/context.md"; a body that states its own
 * (a teammate's supersession) is kept as it is, so the text converges on every clone.
 */
function editedBody(incoming: string, previous: string): string {
  const prevWhy = WHY.exec(normalBody(previous))?.[0];
  let body = normalBody(incoming);
  if (prevWhy && body.endsWith(prevWhy)) body = body.slice(0, -prevWhy.length);
  if (WHY.test(body)) return body;
  const withWhy = `${body}\n\nWhy it changed: ${EDIT_RATIONALE}`;
  return [...withWhy].length <= BODY_MAX ? withWhy : body;
}

function write(
  deps: RecordsDeps,
  b: TeamBlock,
  body: string,
  validFrom: string,
  supersedes: ContextRecord | null,
): ContextRecord {
  // the teammate's record keeps the agent that wrote it
  return createRecord(b.agent ? { ...deps, agent: b.agent } : deps, {
    type: b.type,
    title: b.title,
    body,
    scope: 'project',
    confidence: b.confidence,
    pinned: b.pinned,
    source: 'import',
    validFrom,
    supersedes: supersedes?.id ?? null,
  });
}

/** Create a chain from the file's versions of a key new to this store (or closed here). */
export function createChain(deps: RecordsDeps, versions: readonly Version[]): KeyOutcome {
  const now = deps.clock().toISOString();
  const written: ContextRecord[] = [];
  let head: ContextRecord | null = null;
  for (const v of versions) {
    const body = head ? editedBody(v.block.body, head.body) : v.block.body;
    head = write(deps, v.block, body, v.block.valid_from || now, head);
    written.push(head);
  }
  return {
    head: head!,
    written,
    conflict: versions.length > 1,
    syncedSha: versions.at(-1)!.sha,
    shownValidFrom: null,
  };
}

/**
 * Bring a current local head in step with the file's versions of its key. `synced` is the hash
 * the file held at the last export/import ('' when never).
 */
export function resolveKey(
  deps: RecordsDeps,
  head: ContextRecord,
  versions: readonly Version[],
  synced: string,
  shown: string | null = null,
): KeyOutcome {
  const redact = deps.redact ?? redactSecrets;
  const local = blockOf(head, versions[0]!.block.key, redact);
  const localSha = local.sha;
  // a version from the file is in the history when a record holds its text, with or without
  // the "edited in" line its import added (or a second import of a kept conflict writes it again)
  const history = new Set(
    supersessionChain(deps.db, head.id).flatMap((r) => {
      const { block, sha } = blockOf(r, '', redact);
      const edited = `\n\nWhy it changed: ${EDIT_RATIONALE}`;
      return block.body.endsWith(edited)
        ? [sha, blockSha({ ...block, body: block.body.slice(0, -edited.length) })]
        : [sha];
    }),
  );
  const incoming = versions.filter(
    (v) => v.sha !== synced && v.sha !== localSha && !(versions.length > 1 && history.has(v.sha)),
  );
  const single = versions.length === 1 ? versions[0]!.sha : null;
  if (incoming.length === 0) {
    const syncedSha = single ?? (versions.some((v) => v.sha === localSha) ? localSha : synced);
    // the same text with an earlier date elsewhere: the file shows the earliest, on every clone
    const dates = [
      head.valid_from,
      ...(shown ? [shown] : []),
      ...versions.filter((v) => v.sha === localSha).map((v) => v.block.valid_from),
    ];
    const earliest = dates.filter(Boolean).sort()[0]!;
    return {
      head,
      written: [],
      conflict: false,
      syncedSha,
      shownValidFrom: earliest < head.valid_from ? earliest : null,
    };
  }
  const localChanged = localSha !== synced;
  const mine: Version = { block: local.block, sha: localSha, line: 0 };
  const winner = [...versions, ...(localChanged ? [mine] : [])].sort(byTime).at(-1)!;
  const now = deps.clock().toISOString();
  const written: ContextRecord[] = [];
  let cur = head;
  let curSha = localSha;
  for (const v of incoming) {
    // a teammate's export carries a later valid_from; a hand edit keeps the old one: it is new now
    const validFrom = v.block.valid_from > cur.valid_from ? v.block.valid_from : now;
    cur = write(deps, v.block, editedBody(v.block.body, cur.body), validFrom, cur);
    curSha = v.sha;
    written.push(cur);
  }
  if (curSha !== winner.sha) {
    // the latest version is not the last one read: it goes back on top, the others are history
    cur =
      winner.line === 0
        ? write(deps, { ...local.block, title: head.title }, head.body, head.valid_from, cur)
        : write(deps, winner.block, winner.block.body, winner.block.valid_from, cur);
    written.push(cur);
  }
  return {
    head: cur,
    written,
    conflict: incoming.length > 1 || versions.length > 1 || localChanged,
    syncedSha: single ?? winner.sha,
    shownValidFrom: null,
  };
}
