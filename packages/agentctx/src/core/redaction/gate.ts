/**
 * The redaction gate: the one step every stored or exported text passes. It redacts each
 * field and reports what it took out, by kind and count, never the values, so the writer can
 * be told (`agentctx: redacted 2 secrets (github-token, secret) from the body`).
 */
import { PLACEHOLDER_PREFIX } from './placeholder.js';
import type { Redact } from './redact.js';

export interface RedactionReport {
  /** How many secrets were replaced, in all. */
  count: number;
  /** Per kind (the placeholder's type), how many. */
  kinds: Record<string, number>;
  /** The fields they were in, in the order given. */
  fields: string[];
}

const PLACEHOLDER = new RegExp(`${PLACEHOLDER_PREFIX.replace(/[[\]]/g, '\\$&')}([a-z0-9-]+)\\]`, 'g');

function placeholders(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(PLACEHOLDER)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  return counts;
}

export function emptyReport(): RedactionReport {
  return { count: 0, kinds: {}, fields: [] };
}

/** Add what one field lost (placeholders after, less those it already had) to a report. */
function account(report: RedactionReport, field: string, before: string, after: string): void {
  if (before === after) return;
  const had = placeholders(before);
  let added = 0;
  for (const [kind, n] of placeholders(after)) {
    const more = n - (had.get(kind) ?? 0);
    if (more <= 0) continue;
    report.kinds[kind] = (report.kinds[kind] ?? 0) + more;
    added += more;
  }
  if (added === 0) return;
  report.count += added;
  if (!report.fields.includes(field)) report.fields.push(field);
}

/** Redact each field; returns the clean fields and what was taken out of them. */
export function redactFields<T extends Record<string, string>>(
  redact: Redact,
  fields: T,
): { fields: T; report: RedactionReport } {
  const report = emptyReport();
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(fields)) {
    out[name] = redact(text);
    account(report, name, text, out[name]!);
  }
  return { fields: out as T, report };
}

/** Redact one text; returns it and what was taken out (reported as `field`). */
export function redactText(
  redact: Redact,
  text: string,
  field: string,
): { text: string; report: RedactionReport } {
  const { fields, report } = redactFields(redact, { [field]: text });
  return { text: fields[field]!, report };
}

/** Several reports as one (a batch of writes). */
export function mergeReports(reports: readonly RedactionReport[]): RedactionReport {
  const out = emptyReport();
  for (const r of reports) {
    out.count += r.count;
    for (const [k, n] of Object.entries(r.kinds)) out.kinds[k] = (out.kinds[k] ?? 0) + n;
    for (const f of r.fields) if (!out.fields.includes(f)) out.fields.push(f);
  }
  return out;
}

/** One line for a person: `redacted 2 secrets (github-token, secret) from the title and body`. */
export function describeRedaction(report: RedactionReport): string {
  const kinds = Object.keys(report.kinds).join(', ');
  const where =
    report.fields.length <= 1
      ? (report.fields[0] ?? 'the text')
      : `${report.fields.slice(0, -1).join(', ')} and ${report.fields.at(-1)}`;
  const from = report.fields.length === 0 ? where : `the ${where}`;
  return `redacted ${report.count} secret${report.count === 1 ? '' : 's'} (${kinds}) from ${from}`;
}
