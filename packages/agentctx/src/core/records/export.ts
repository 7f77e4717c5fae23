import { listRecordsAt, type TimeTravel } from '../../database/as-of.js';
import type { Db } from '../../database/open.js';
import { listRecords, profileNameOf } from '../../database/records-repo.js';
import { formatAge } from '../../shared/age.js';
import { type ContextRecord, GLOBAL_PROJECT, RECORD_TYPES } from '../../shared/types.js';
import { type RedactionReport, redactText } from '../redaction/gate.js';
import { type Redact, redactSecrets } from '../redaction/redact.js';
import { namespacesOf } from './records.js';

const HEADINGS: Record<string, string> = {
  profile: 'Project profile',
  decision: 'Decisions',
  convention: 'Conventions',
  preference: 'Preferences',
  handover: 'Handover',
  bugfix: 'Bug fixes',
  discovery: 'Discoveries',
};

const ORDER = ['profile', 'decision', 'convention', 'preference', 'handover', 'bugfix', 'discovery'] as const;

function recordMarkdown(r: ContextRecord, now: Date): string {
  const meta = [
    r.confidence,
    r.scope === 'global' ? 'global' : null,
    r.pinned ? 'pinned' : null,
    `since ${r.valid_from.slice(0, 10)} (${formatAge(r.valid_from, now)})`,
    r.superseded_at ? `superseded ${r.superseded_at.slice(0, 10)} by ${r.superseded_by}` : null,
    `id ${r.id}`,
  ].filter(Boolean);
  return `### ${r.title}\n\n${r.body}\n\n<sub>${meta.join(' · ')}</sub>\n`;
}

/**
 * The whole project and the global profile as Markdown, grouped by type (with `time`: as it
 * was then, database/as-of.ts). Never truncated. It
 * leaves the machine (a file, a commit), so it passes the redaction gate on the way out: records
 * stored before the gate existed lose their secrets here too.
 */
export function exportMarkdown(
  db: Db,
  project: { id: string; name: string },
  now: Date,
  history = false,
  redact: Redact = redactSecrets,
  time?: TimeTravel,
): { markdown: string; count: number; redacted: RedactionReport } {
  const namespaces = namespacesOf(project.id);
  const records = time ? listRecordsAt(db, { namespaces, time }) : listRecords(db, { namespaces, history });
  const when = time ? ` as of ${time.asOf}${time.knownAt ? ` (as known at ${time.knownAt})` : ''}` : '';
  const parts = [
    `# ${profileNameOf(db, project.id) ?? project.name} — agentctx export`,
    '',
    `Exported ${now.toISOString()}${when}; ${records.length} records.`,
    '',
  ];
  for (const type of ORDER) {
    const own = records.filter((r) => r.type === type && r.project_id !== GLOBAL_PROJECT);
    if (own.length === 0) continue;
    parts.push(`## ${HEADINGS[type]}`, '', ...own.map((r) => recordMarkdown(r, now)));
  }
  const global = records.filter((r) => r.project_id === GLOBAL_PROJECT);
  if (global.length > 0) {
    parts.push('## Global developer profile', '');
    for (const type of RECORD_TYPES) {
      for (const r of global.filter((g) => g.type === type)) parts.push(recordMarkdown(r, now));
    }
  }
  const { text, report } = redactText(redact, `${parts.join('\n').trimEnd()}\n`, 'export');
  return { markdown: text, count: records.length, redacted: report };
}
