import { join } from 'node:path';
import type { Db } from '../../database/open.js';
import { getRecord } from '../../database/records-repo.js';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { formatAge } from '../../shared/age.js';
import { AgentctxError } from '../../shared/errors.js';
import { type ContextRecord, GLOBAL_PROJECT } from '../../shared/types.js';
import { resolveRecordId } from '../records/record-id.js';
import { type RecordsDeps, supersedeRecord } from '../records/records.js';
import { type RedactionReport, redactText } from '../redaction/gate.js';
import { type Redact, redactSecrets } from '../redaction/redact.js';

/**
 * The developer profile (CONTRACTS.md §confidence, §namespaces): records with `scope = 'global'`
 * under the reserved project `_global`, shared by every project. Inferred entries are hypotheses
 * until reinforced; the developer can correct one (`edit`: supersede with the corrected text,
 * explicit) or clear it (`clear`: closed as history, never read again by default paths).
 * `exportProfile` writes the Markdown view under `~/.agentctx/profile/` (derived; regenerated on
 * every export).
 */

interface ProfileEntry {
  id: string;
  type: string;
  title: string;
  body: string;
  confidence: string;
  reinforce_count: number;
  /** Will the SessionStart digest show it (explicit or reinforced)? */
  in_digest: boolean;
  recorded_at: string;
  age: string;
}

export function listProfile(db: Db, now: Date): ProfileEntry[] {
  const rows = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND superseded_at IS NULL
       ORDER BY type, CASE confidence WHEN 'explicit' THEN 0 WHEN 'reinforced' THEN 1 ELSE 2 END,
         reinforce_count DESC, recorded_at DESC, id DESC`,
    )
    .all(GLOBAL_PROJECT) as ContextRecord[];
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    title: r.title,
    body: r.body,
    confidence: r.confidence,
    reinforce_count: r.reinforce_count,
    in_digest: r.type === 'preference' && r.confidence !== 'inferred',
    recorded_at: r.recorded_at,
    age: formatAge(r.recorded_at, now),
  }));
}

function requireGlobalCurrent(db: Db, id: string): ContextRecord {
  const rec = resolveRecordId(
    db,
    id,
    [GLOBAL_PROJECT],
    'global profile entry',
    '; see agentctx profile show',
  );
  if (rec.superseded_at) {
    throw new AgentctxError('already_superseded', `profile entry ${rec.id} is no longer current`, {
      id: rec.id,
    });
  }
  return rec;
}

/** Correct an entry: a new explicit record with the corrected text supersedes it. */
export function editProfile(
  deps: RecordsDeps,
  id: string,
  input: { body: string; title?: string },
): { old_id: string; new_id: string; record: ContextRecord } {
  requireGlobalCurrent(deps.db, id);
  return supersedeRecord({ ...deps, projectId: GLOBAL_PROJECT }, id, {
    body: input.body,
    title: input.title,
    rationale: 'corrected by the developer (agentctx profile edit)',
    source: 'cli',
    confidence: 'explicit',
  });
}

/** Clear an entry: close it with no successor. It stays as history and is never read by default. */
export function clearProfile(db: Db, id: string, now: Date): ContextRecord {
  return db
    .transaction(() => {
      const rec = requireGlobalCurrent(db, id);
      db.prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL').run(
        now.toISOString(),
        rec.id,
      );
      return getRecord(db, rec.id)!;
    })
    .immediate();
}

const HEADINGS: Record<string, string> = {
  preference: 'Preferences',
  convention: 'Conventions',
  decision: 'Decisions',
  discovery: 'Discoveries',
  bugfix: 'Bug fixes',
};

/** The profile as Markdown: what the developer is like, with how sure agentctx is of each line. */
function profileMarkdown(entries: readonly ProfileEntry[], now: Date): string {
  const parts = [
    '# Developer profile (agentctx)',
    '',
    `Global preferences shared by every project, exported ${now.toISOString()}.`,
    'Confidence: explicit (you said it), reinforced (seen repeatedly or confirmed), inferred (a guess,',
    'kept out of the session digest until reinforced). Correct one with `agentctx profile edit ID --body TEXT`,',
    'remove one with `agentctx profile clear ID`. This file is regenerated; edits here are not read back.',
    '',
  ];
  if (entries.length === 0) parts.push('_No global preferences recorded yet._', '');
  const types = [...new Set(entries.map((e) => e.type))];
  for (const type of types) {
    parts.push(`## ${HEADINGS[type] ?? type}`, '');
    for (const e of entries.filter((x) => x.type === type)) {
      const seen = e.reinforce_count > 0 ? `, seen ${e.reinforce_count + 1}×` : '';
      parts.push(
        `### ${e.title}`,
        '',
        e.body.trim(),
        '',
        `<sub>${e.confidence}${seen} · ${e.age} · id ${e.id}</sub>`,
        '',
      );
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/**
 * Write `<profileDir>/profile.md` atomically, through the redaction gate (entries stored before
 * it existed may hold secrets); returns its path and what was redacted.
 */
export function exportProfile(
  db: Db,
  profileDir: string,
  now: Date,
  redact: Redact = redactSecrets,
): { path: string; entries: number; redacted: RedactionReport } {
  const entries = listProfile(db, now);
  const path = join(profileDir, 'profile.md');
  const { text, report } = redactText(redact, profileMarkdown(entries, now), 'export');
  writeFileAtomic(path, text, 0o600);
  return { path, entries: entries.length, redacted: report };
}
