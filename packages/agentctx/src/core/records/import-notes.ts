import type { RecordType } from '../../shared/types.js';
import { BODY_MAX, TITLE_MAX } from '../../shared/types.js';
import { redactFields } from '../redaction/gate.js';
import { redactSecrets } from '../redaction/redact.js';
import { createRecord, type RecordsDeps } from './records.js';

/**
 * Notes written by another memory tool (Claude Code's auto-memory) taken in as records: through
 * createRecord (validation, the redaction gate), provenance `import`, confidence `inferred`
 * (the model wrote them, the developer did not state them). A note whose text the project's
 * current records already hold is skipped, so a second import writes nothing; a note from a
 * file imported before whose text changed supersedes the record that file gave.
 */

interface ImportNote {
  /** Where the note came from (a file name); a key that names one note supersedes its earlier import. */
  origin: string;
  /** Whether `origin` names this note alone (a topic file) rather than one of many (an index). */
  ownsOrigin: boolean;
  /** The other tool's note type (auto-memory: user, feedback, project, reference). */
  kind: string;
  title: string;
  body: string;
}

interface ImportResult {
  created: string[];
  superseded: string[];
  /** Notes the store already held. */
  unchanged: number;
}

const KIND_TYPES: Record<string, RecordType> = {
  user: 'preference',
  feedback: 'preference',
  project: 'decision',
  reference: 'discovery',
};

function recordTypeFor(kind: string): RecordType {
  return KIND_TYPES[kind] ?? 'discovery';
}

function provenance(label: string, origin: string): string {
  return `\n\n(Imported from ${label}: ${origin}.)`;
}

const PROVENANCE = /\n\n\(Imported from [^\n]*: ([^\n]*)\.\)$/;

function norm(text: string): string {
  return text.replace(PROVENANCE, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** `text` in at most `max` code points, cut at a word where one is near. */
function cut(text: string, max: number): string {
  const cps = [...text];
  if (cps.length <= max) return text;
  let head = cps.slice(0, max - 1).join('');
  const soft = head.lastIndexOf(' ');
  if (soft > head.length * 0.6) head = head.slice(0, soft);
  return `${head.trimEnd()}…`;
}

interface Current {
  id: string;
  type: string;
  title: string;
  body: string;
  source: string;
}

export function importNotes(deps: RecordsDeps, notes: readonly ImportNote[], label: string): ImportResult {
  const current = deps.db
    .prepare(
      `SELECT id, type, title, body, source FROM records
       WHERE project_id IN (?, '_global') AND superseded_at IS NULL`,
    )
    .all(deps.projectId) as Current[];
  const held = new Set(current.map((r) => norm(r.body)));
  const heldPairs = new Set(current.map((r) => `${norm(r.title)}\u0000${norm(r.body)}`));
  const byOrigin = new Map<string, { id: string; type: string }>();
  for (const r of current) {
    const m = r.source === 'import' ? PROVENANCE.exec(r.body) : null;
    if (m && r.body.includes(`(Imported from ${label}:`)) byOrigin.set(m[1]!, { id: r.id, type: r.type });
  }
  const result: ImportResult = { created: [], superseded: [], unchanged: 0 };
  for (const note of notes) {
    // compared as they would be stored: redacted, cut to the record limits
    const { fields, report } = redactFields(deps.redact ?? redactSecrets, {
      title: note.title,
      body: note.body,
    });
    const suffix = provenance(label, note.origin);
    const title = cut(fields.title.replace(/\s+/g, ' ').trim(), TITLE_MAX);
    const body = cut(fields.body.trim(), BODY_MAX - [...suffix].length);
    if (!title || !body) continue;
    const key = norm(body);
    if (held.has(key) || heldPairs.has(`${norm(title)}\u0000${key}`)) {
      result.unchanged += 1;
      continue;
    }
    const type = recordTypeFor(note.kind);
    // a record of another type cannot be superseded by this one: it stays, the new one joins it
    const prior = note.ownsOrigin ? byOrigin.get(note.origin) : undefined;
    const previous = prior?.type === type ? prior.id : undefined;
    // the gate runs again in createRecord, on text already clean: the report is this one
    if (report.count > 0) deps.onRedacted?.(report);
    const rec = createRecord(deps, {
      type,
      title,
      body: `${body}${suffix}`,
      confidence: 'inferred',
      source: 'import',
      supersedes: previous ?? null,
    });
    held.add(key);
    if (note.ownsOrigin) byOrigin.set(note.origin, { id: rec.id, type });
    result.created.push(rec.id);
    if (previous) result.superseded.push(previous);
  }
  return result;
}
