import { findVerbatim } from '../../database/records-repo.js';
import { clearTeamConflict, noteTeamConflict } from '../../database/team-conflicts-repo.js';
import { deleteTeamLink, setTeamSync, upsertTeamLink } from '../../database/team-repo.js';
import { AgentctxError, errorMessage } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import type { RecordsDeps } from '../records/records.js';
import { retireRecord } from '../records/retire.js';
import { redactSecrets } from '../redaction/redact.js';
import { blockSha, fileSha } from './team-file.js';
import type { ParsedBlock, ParsedFile, ParseError } from './team-parse.js';
import { createChain, type KeyOutcome, resolveKey, type Version, versionsOf } from './team-resolve.js';
import { blockOf, type LinkState, linkStates } from './team-set.js';

/**
 * `agentctx team import`: the explicit round trip of CONTRACTS.md §stored-derived. Every write goes
 * through core/records (source `import`, the redaction gate, the namespace rules). Keys new to this
 * store are created (or matched to an identical record already here), edited blocks supersede
 * the record they came from, a removed block closes its record only when the caller confirmed
 * it, and a block that cannot be read is reported with its line and skipped.
 */

interface ImportItem {
  key: string;
  id: string;
  title: string;
  line?: number;
}

export interface ImportReport {
  created: ImportItem[];
  updated: (ImportItem & { old_id: string })[];
  linked: ImportItem[];
  unchanged: number;
  /**
   * Keys changed on both sides: every version kept (the latest current, the others in its
   * history) and noted for `agentctx review`, where a person chooses among `choices`.
   */
  conflicts: (ImportItem & { versions: number; history: string[]; choices: string[] })[];
  /** Closed: the block left the file and the removal was confirmed. */
  removed: ImportItem[];
  /** Blocks gone from the file whose records were kept, and why. */
  kept: (ImportItem & { reason: string })[];
  errors: ParseError[];
}

interface Removal extends ImportItem {
  /** Changed here since the last export/import: never closed by an import. */
  changedHere: boolean;
}

function emptyReport(errors: ParseError[]): ImportReport {
  return { created: [], updated: [], linked: [], unchanged: 0, conflicts: [], removed: [], kept: [], errors };
}

/** A current record of the project this block already is (same text), or the profile fact of its key. */
function localMatch(deps: RecordsDeps, b: ParsedBlock): ContextRecord | undefined {
  const same = findVerbatim(deps.db, deps.projectId, b.type, b.title, b.body);
  if (same) return same;
  if (b.type !== 'profile') return undefined;
  return deps.db
    .prepare(
      "SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND title = ? AND superseded_at IS NULL LIMIT 1",
    )
    .get(deps.projectId, b.title) as ContextRecord | undefined;
}

function groupByKey(blocks: readonly ParsedBlock[]): Map<string, ParsedBlock[]> {
  const out = new Map<string, ParsedBlock[]>();
  for (const b of blocks) {
    if (!b.keyed) continue;
    out.set(b.key, [...(out.get(b.key) ?? []), b]);
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Blocks that left the file: linked chains that were in it (exported or imported before) and
 * are current here, whose key is not in the file and whose chain no other key in it names.
 */
export function removals(deps: RecordsDeps, parsed: ParsedFile): Removal[] {
  const present = new Set<string>([
    ...parsed.blocks.map((b) => b.key),
    ...parsed.errors.map((e) => e.key ?? ''),
  ]);
  const states = linkStates(deps.db, deps.projectId);
  const presentHeads = new Set(
    states.filter((s) => present.has(s.link.key) && s.head).map((s) => s.head!.id),
  );
  for (const b of parsed.blocks) {
    if (b.keyed) continue;
    const m = localMatch(deps, b);
    if (m) presentHeads.add(m.id);
  }
  const redact = deps.redact ?? redactSecrets;
  return states
    .filter((s) => s.link.synced_sha && !present.has(s.link.key) && s.head && !s.head.superseded_at)
    .filter((s) => s.head!.project_id === deps.projectId && !presentHeads.has(s.head!.id))
    .map((s) => ({
      key: s.link.key,
      id: s.head!.id,
      title: s.head!.title,
      changedHere: blockOf(s.head!, s.link.key, redact).sha !== s.link.synced_sha,
    }));
}

/** A version's text, without the "Why it changed" line an import adds to an edit. */
function versionText(r: ContextRecord): string {
  return `${r.title}\n${r.body.replace(/\n\nWhy it changed: [^\n]*$/, '')}`;
}

/**
 * The records holding the distinct versions of a conflict, the current head last: the local
 * head before the import and every version the import wrote (the winner written back on top
 * is the same text as the one it beat).
 */
function competing(out: KeyOutcome, before: ContextRecord | null): string[] {
  const byText = new Map<string, string>();
  for (const r of [...(before ? [before] : []), ...out.written]) {
    byText.delete(versionText(r));
    byText.set(versionText(r), r.id);
  }
  byText.delete(versionText(out.head));
  return [...byText.values(), out.head.id];
}

function note(
  deps: RecordsDeps,
  report: ImportReport,
  key: string,
  line: number,
  out: KeyOutcome,
  before: ContextRecord | null,
  versions: readonly Version[] = [],
): void {
  const item = { key, id: out.head.id, title: out.head.title, line };
  const ids = out.conflict && out.written.length > 0 ? competing(out, before) : [];
  if (ids.length > 1) {
    // both versions are kept until a person chooses in `agentctx review` (issue 31 #3)
    noteTeamConflict(deps.db, {
      project_id: deps.projectId,
      key,
      record_ids: ids,
      dates: Object.fromEntries(
        versions.filter((v) => v.block.valid_from).map((v) => [v.sha, v.block.valid_from]),
      ),
      detected_at: deps.clock().toISOString(),
    });
    report.conflicts.push({
      ...item,
      versions: ids.length,
      history: out.written.slice(0, -1).map((r) => r.id),
      choices: ids,
    });
  }
  if (out.written.length === 0) report.unchanged++;
  else if (before) report.updated.push({ ...item, old_id: before.id });
  else report.created.push(item);
}

function linkKey(deps: RecordsDeps, key: string, out: KeyOutcome): void {
  upsertTeamLink(deps.db, {
    project_id: deps.projectId,
    key,
    record_id: out.head.id,
    synced_sha: out.syncedSha,
    shown_valid_from: out.shownValidFrom,
  });
}

function importKey(
  deps: RecordsDeps,
  key: string,
  blocks: ParsedBlock[],
  state: LinkState | undefined,
  report: ImportReport,
): void {
  const versions: Version[] = versionsOf(blocks);
  const line = blocks[0]!.line;
  // while a conflict waits every export writes all its versions: one version in the file means
  // a person chose on another clone, and that choice is imported like any change
  if (versions.length === 1) clearTeamConflict(deps.db, deps.projectId, key);
  const head = state?.head;
  if (!state || !head) {
    const match = localMatch(deps, versions.at(-1)!.block as ParsedBlock);
    if (match) {
      const out = resolveKey(deps, match, versions, '');
      linkKey(deps, key, out);
      if (out.written.length === 0) report.linked.push({ key, id: match.id, title: match.title, line });
      else note(deps, report, key, line, out, match, versions);
      return;
    }
    const out = createChain(deps, versions);
    linkKey(deps, key, out);
    note(deps, report, key, line, out, null, versions);
    return;
  }
  if (head.superseded_at) {
    // closed here; the file still has it: unchanged since, or edited by a teammate (restored)
    const incoming = versions.filter((v) => v.sha !== state.link.synced_sha);
    if (incoming.length === 0) {
      report.unchanged++;
      return;
    }
    const out = createChain(deps, incoming);
    linkKey(deps, key, out);
    note(deps, report, key, line, out, null, incoming);
    return;
  }
  const shown = state.link.record_id === head.id ? state.link.shown_valid_from : null;
  const out = resolveKey(deps, head, versions, state.link.synced_sha, shown);
  linkKey(deps, key, out);
  note(deps, report, key, line, out, head, versions);
}

/** A block added by hand (no marker yet): created once; an identical record here is that block. */
function importUnkeyed(deps: RecordsDeps, b: ParsedBlock, report: ImportReport): void {
  if (localMatch(deps, b)) {
    report.unchanged++;
    return;
  }
  const out = createChain(deps, [{ block: b, sha: blockSha(b), line: b.line }]);
  upsertTeamLink(deps.db, {
    project_id: deps.projectId,
    key: out.head.id,
    record_id: out.head.id,
    synced_sha: '',
  });
  report.created.push({ key: out.head.id, id: out.head.id, title: out.head.title, line: b.line });
}

interface ImportOptions {
  /** Close the records of removed blocks (the developer confirmed, or `--yes`). */
  closeRemoved: boolean;
  /** The file's text, to remember its hash as the one in step with the store. */
  text: string;
}

export function importTeamFile(deps: RecordsDeps, parsed: ParsedFile, opts: ImportOptions): ImportReport {
  const report = emptyReport([...parsed.errors]);
  const states = new Map(linkStates(deps.db, deps.projectId).map((s) => [s.link.key, s]));
  const gone = removals(deps, parsed);
  for (const [key, blocks] of groupByKey(parsed.blocks)) {
    try {
      deps.db.transaction(() => importKey(deps, key, blocks, states.get(key), report)).immediate();
    } catch (err) {
      if (!(err instanceof AgentctxError)) throw err;
      report.errors.push({ line: blocks[0]!.line, message: errorMessage(err), key });
    }
  }
  for (const b of parsed.blocks.filter((x) => !x.keyed)) {
    try {
      deps.db.transaction(() => importUnkeyed(deps, b, report)).immediate();
    } catch (err) {
      if (!(err instanceof AgentctxError)) throw err;
      report.errors.push({ line: b.line, message: errorMessage(err) });
    }
  }
  dropAliases(deps, parsed);
  closeGone(deps, gone, parsed, opts, report);
  report.errors.sort((a, b) => a.line - b.line);
  setTeamSync(deps.db, {
    project_id: deps.projectId,
    file_sha: fileSha(opts.text),
    synced_at: deps.clock().toISOString(),
    action: 'import',
  });
  return report;
}

/**
 * A key gone from the file whose chain another key in the file names (two clones exported the
 * same fact, and an export kept one key): the other key is the chain's name from now on.
 */
function dropAliases(deps: RecordsDeps, parsed: ParsedFile): void {
  const present = new Set(parsed.blocks.map((b) => b.key));
  const states = linkStates(deps.db, deps.projectId);
  const named = new Set(states.filter((s) => present.has(s.link.key) && s.head).map((s) => s.head!.id));
  for (const s of states) {
    if (!present.has(s.link.key) && s.head && named.has(s.head.id))
      deleteTeamLink(deps.db, deps.projectId, s.link.key);
  }
}

function closeGone(
  deps: RecordsDeps,
  gone: Removal[],
  parsed: ParsedFile,
  opts: ImportOptions,
  report: ImportReport,
): void {
  const unreadable = parsed.errors.some((e) => !e.key);
  for (const r of gone) {
    const item = { key: r.key, id: r.id, title: r.title };
    if (r.changedHere)
      report.kept.push({ ...item, reason: 'changed here since the last export: export to share it' });
    else if (unreadable)
      report.kept.push({ ...item, reason: 'the file has blocks that cannot be read: fix them first' });
    else if (!opts.closeRemoved)
      report.kept.push({ ...item, reason: 'not confirmed; run agentctx team import --yes to close it' });
    else {
      // the link stays: a stale copy of the file does not bring the record back
      retireRecord(deps, r.id);
      report.removed.push(item);
    }
  }
}
