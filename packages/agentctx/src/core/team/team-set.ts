import type { Db } from '../../database/open.js';
import { currentHead, listRecords, supersessionChain } from '../../database/records-repo.js';
import { listTeamLinks, type TeamLink } from '../../database/team-repo.js';
import type { ContextRecord } from '../../shared/types.js';
import { emptyReport, mergeReports, type RedactionReport, redactFields } from '../redaction/gate.js';
import type { Redact } from '../redaction/redact.js';
import { blockSha, isTeamType, normalBody, normalTitle, type TeamBlock } from './team-file.js';

/**
 * Which records are team context: the project's current decisions, conventions and profile
 * facts that are not inferred, every chain the developer promoted, and every chain that is in
 * the file already (exported or imported). Never handovers, never the global namespace.
 */

/** Types that are team context without being promoted (when not inferred). */
const AUTO_TEAM_TYPES = ['decision', 'convention', 'profile'] as const;

export interface LinkState {
  link: TeamLink;
  /** The chain's current head, or its last record when the chain was closed; undefined when gone. */
  head: ContextRecord | undefined;
}

export interface TeamEntry {
  key: string;
  head: ContextRecord;
  /** The links naming this chain (more than one after two clones exported the same fact). */
  links: TeamLink[];
  block: TeamBlock;
  sha: string;
}

export function linkStates(db: Db, projectId: string): LinkState[] {
  return listTeamLinks(db, projectId).map((link) => ({ link, head: currentHead(db, link.record_id) }));
}

/** The block a record exports as: its text passed through the redaction gate. */
export function blockOf(
  r: ContextRecord,
  key: string,
  redact: Redact,
  shownValidFrom?: string | null,
): { block: TeamBlock; sha: string; report: RedactionReport } {
  if (!isTeamType(r.type)) throw new Error(`a ${r.type} record is not team context`);
  const { fields, report } = redactFields(redact, { title: r.title, body: r.body });
  const block: TeamBlock = {
    key,
    type: r.type,
    title: normalTitle(fields.title),
    body: normalBody(fields.body),
    valid_from: shownValidFrom && shownValidFrom < r.valid_from ? shownValidFrom : r.valid_from,
    confidence: r.confidence,
    pinned: r.pinned === 1,
    ...(r.agent && r.agent !== 'claude-code' ? { agent: r.agent } : {}),
  };
  return { block, sha: blockSha(block), report };
}

function chainRoot(db: Db, id: string): string {
  return supersessionChain(db, id)[0]?.id ?? id;
}

/** The team records of a project now, one entry per chain, keyed. */
export function teamEntries(
  db: Db,
  projectId: string,
  redact: Redact,
  states: LinkState[] = linkStates(db, projectId),
): { entries: TeamEntry[]; redacted: RedactionReport } {
  const byHead = new Map<string, { head: ContextRecord; links: TeamLink[] }>();
  const add = (head: ContextRecord, link?: TeamLink) => {
    const e = byHead.get(head.id) ?? { head, links: [] };
    if (link) e.links.push(link);
    byHead.set(head.id, e);
  };
  for (const s of states) {
    const h = s.head;
    if (!h || h.superseded_at || h.project_id !== projectId || !isTeamType(h.type)) continue;
    if (s.link.synced_sha || s.link.promoted) add(h, s.link);
  }
  const auto = listRecords(db, { namespaces: [projectId], types: AUTO_TEAM_TYPES });
  for (const r of auto) if (r.confidence !== 'inferred' && !byHead.has(r.id)) add(r);
  const reports: RedactionReport[] = [emptyReport()];
  const entries: TeamEntry[] = [];
  for (const { head, links } of byHead.values()) {
    const keys = links.map((l) => l.key).sort();
    const key = keys[0] ?? chainRoot(db, head.id);
    const shown = links.find((l) => l.record_id === head.id && l.shown_valid_from)?.shown_valid_from;
    const { block, sha, report } = blockOf(head, key, redact, shown);
    reports.push(report);
    entries.push({ key, head, links, block, sha });
  }
  return { entries, redacted: mergeReports(reports) };
}
