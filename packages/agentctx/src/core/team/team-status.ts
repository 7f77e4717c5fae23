import { getTeamSync } from '../../database/team-repo.js';
import { type Pending, pendingInFile, type TeamDeps } from './team-export.js';
import { fileSha } from './team-file.js';
import { parseTeamFile } from './team-parse.js';
import { linkStates, teamEntries } from './team-set.js';

/**
 * `agentctx team status`: what is local only, what is in the file, and what changed on either
 * side since the last export or import.
 */

export interface StatusItem {
  key: string;
  id: string;
  type: string;
  title: string;
}

export interface TeamStatus {
  file: {
    exists: boolean;
    blocks: number;
    /** The file is the one this store last exported or imported. */
    in_step: boolean;
    last_sync: { action: string; at: string } | null;
  };
  /** Team records never exported. */
  local_only: StatusItem[];
  /** In the file, changed here since: the next export writes them. */
  changed_here: StatusItem[];
  /** In the file, closed here since: the next export drops them. */
  closed_here: StatusItem[];
  /** What the file holds that this store has not imported. */
  changed_in_file: Pending;
}

export function teamStatus(deps: TeamDeps, text: string | null): TeamStatus {
  const parsed = text === null ? { blocks: [], errors: [] } : parseTeamFile(text);
  const inFile = new Set(parsed.blocks.map((b) => b.key));
  const states = linkStates(deps.db, deps.projectId);
  const { entries } = teamEntries(deps.db, deps.projectId, deps.redact, states);
  const item = (key: string, r: { id: string; type: string; title: string }): StatusItem => ({
    key,
    id: r.id,
    type: r.type,
    title: r.title,
  });
  const local_only: StatusItem[] = [];
  const changed_here: StatusItem[] = [];
  for (const e of entries) {
    const synced = e.links.find((l) => l.synced_sha);
    if (!synced && !e.links.some((l) => inFile.has(l.key))) local_only.push(item(e.key, e.head));
    else if (synced && synced.synced_sha !== e.sha) changed_here.push(item(e.key, e.head));
  }
  const closed_here = states
    .filter(
      (s) => s.link.synced_sha && s.head?.superseded_at && !s.head.superseded_by && inFile.has(s.link.key),
    )
    .map((s) => item(s.link.key, s.head!));
  const sync = getTeamSync(deps.db, deps.projectId);
  return {
    file: {
      exists: text !== null,
      blocks: parsed.blocks.length,
      in_step: text !== null && sync?.file_sha === fileSha(text),
      last_sync: sync ? { action: sync.action, at: sync.synced_at } : null,
    },
    local_only,
    changed_here,
    closed_here,
    changed_in_file:
      text === null
        ? { incoming: [], removed: [], errors: [] }
        : pendingInFile(deps.db, deps.projectId, text, parsed),
  };
}
