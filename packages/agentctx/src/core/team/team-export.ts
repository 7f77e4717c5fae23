import type { Db } from '../../database/open.js';
import { listTeamConflicts } from '../../database/team-conflicts-repo.js';
import { deleteTeamLink, getTeamSync, setTeamSync, upsertTeamLink } from '../../database/team-repo.js';
import type { ContextRecord } from '../../shared/types.js';
import type { RedactionReport } from '../redaction/gate.js';
import type { Redact } from '../redaction/redact.js';
import { blockSha as blockShaOf, fileSha, renderTeamFile, type TeamBlock } from './team-file.js';
import { type ParsedFile, parseTeamFile } from './team-parse.js';
import { blockOf, linkStates, type TeamEntry, teamEntries } from './team-set.js';

/**
 * `agentctx team export`: the project's team records as `.agentctx/context.md` (derived,
 * CONTRACTS.md §stored-derived). Deterministic: the same records give the same bytes on every
 * clone. Before it replaces a file, it checks that the file holds nothing this store has not
 * imported (a teammate's block, a hand edit, a removal): those would be lost, so it asks for `team
 * import` first.
 */

export interface TeamDeps {
  db: Db;
  projectId: string;
  redact: Redact;
  now: () => Date;
}

export interface Pending {
  /** Blocks of the file this store has not imported: new keys, or changed since the last sync. */
  incoming: { key: string; line: number; title: string }[];
  /** Keys that were in the file at the last sync and are gone from it. */
  removed: { key: string; title: string }[];
  errors: { line: number; message: string }[];
}

/** What the file holds that this store has not taken in (empty when the file is the last one synced). */
export function pendingInFile(db: Db, projectId: string, text: string, parsed?: ParsedFile): Pending {
  const out: Pending = { incoming: [], removed: [], errors: [] };
  if (getTeamSync(db, projectId)?.file_sha === fileSha(text)) return out;
  const file = parsed ?? parseTeamFile(text);
  const states = linkStates(db, projectId);
  const byKey = new Map(states.map((s) => [s.link.key, s]));
  for (const b of file.blocks) {
    const s = b.keyed ? byKey.get(b.key) : undefined;
    if (!s?.head) {
      out.incoming.push({ key: b.key, line: b.line, title: b.title });
      continue;
    }
    if (s.link.synced_sha !== blockShaOf(b)) out.incoming.push({ key: b.key, line: b.line, title: b.title });
  }
  const present = new Set([...file.blocks.map((b) => b.key), ...file.errors.map((e) => e.key ?? '')]);
  for (const s of states) {
    if (s.link.synced_sha && !present.has(s.link.key) && s.head && !s.head.superseded_at) {
      out.removed.push({ key: s.link.key, title: s.head.title });
    }
  }
  out.errors = file.errors.map((e) => ({ line: e.line, message: e.message }));
  return out;
}

export function hasPending(p: Pending): boolean {
  return p.incoming.length > 0 || p.removed.length > 0 || p.errors.length > 0;
}

export interface ExportResult {
  text: string;
  blocks: number;
  redacted: RedactionReport;
}

/**
 * The other versions of each key whose conflict waits for a person: written beside the current
 * block (same key), so the other clone's import sees the conflict too and nothing is lost.
 */
function waitingVersions(deps: TeamDeps, entries: readonly TeamEntry[]): TeamBlock[] {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const get = deps.db.prepare('SELECT * FROM records WHERE id = ?');
  const out: TeamBlock[] = [];
  for (const c of listTeamConflicts(deps.db, deps.projectId)) {
    const e = byKey.get(c.key);
    if (!e) continue;
    const seen = new Set([e.sha]);
    for (const id of c.record_ids) {
      const r = get.get(id) as ContextRecord | undefined;
      if (!r || r.id === e.head.id || r.project_id !== deps.projectId) continue;
      const { sha } = blockOf(r, c.key, deps.redact);
      if (seen.has(sha)) continue;
      // the date the file gave this text, not the clone's own record of it: the same bytes everywhere
      const { block } = blockOf(r, c.key, deps.redact, c.dates[sha] ?? null);
      seen.add(sha);
      out.push(block);
    }
  }
  return out;
}

/** Render the file from the store (no writes). */
export function renderTeamExport(
  deps: TeamDeps,
): ExportResult & { entries: ReturnType<typeof teamEntries>['entries'] } {
  const { entries, redacted } = teamEntries(deps.db, deps.projectId, deps.redact);
  const blocks = [...entries.map((e) => e.block), ...waitingVersions(deps, entries)];
  return { text: renderTeamFile(blocks), blocks: blocks.length, redacted, entries };
}

/**
 * Remember what was written: each chain's key and block hash, the file's hash. Keys that named
 * the same chain as the one written (two clones exported one fact) are dropped.
 */
export function recordExport(deps: TeamDeps, res: ReturnType<typeof renderTeamExport>): void {
  deps.db
    .transaction(() => {
      for (const e of res.entries) {
        upsertTeamLink(deps.db, {
          project_id: deps.projectId,
          key: e.key,
          record_id: e.head.id,
          synced_sha: e.sha,
          shown_valid_from: e.block.valid_from !== e.head.valid_from ? e.block.valid_from : null,
        });
        for (const alias of e.links)
          if (alias.key !== e.key) deleteTeamLink(deps.db, deps.projectId, alias.key);
      }
      setTeamSync(deps.db, {
        project_id: deps.projectId,
        file_sha: fileSha(res.text),
        synced_at: deps.now().toISOString(),
        action: 'export',
      });
    })
    .immediate();
}
