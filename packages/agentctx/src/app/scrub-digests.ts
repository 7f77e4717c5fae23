import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeStampedDigest } from '../core/digest/current-digest.js';
import { composeDigest } from '../core/digest/digest.js';
import { readDigest, removeDigest, writeDigest } from '../core/digest/digest-file.js';
import { emptyReport, mergeReports, type RedactionReport, redactText } from '../core/redaction/gate.js';
import { scrubTextFile } from '../core/redaction/scrub-files.js';
import type { App } from './context.js';

interface DigestScrubReport {
  rewritten: number;
  removed: number;
  secrets: RedactionReport;
}

/** The projects that have digest files (`<id>.digest.json`, or an older `<id>.md`). */
function digestProjects(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const n of names) {
    const m = /^(.+?)\.(?:digest\.json|md)$/.exec(n);
    if (m) ids.add(m[1]!);
  }
  return [...ids].sort();
}

/**
 * The digests after a scrub (core/digest/digest-file.ts). One that shows a rewritten record, or
 * holds a secret itself: this project's is composed again from the scrubbed store (removed when
 * no settled moment comes to stamp it: SessionStart then composes from the store); another
 * project's is removed when it shows a rewritten record (a secret cut short there may escape the
 * redactor; its next SessionStart composes it from the store), else redacted in place (removing
 * it would only have it written, and checked, again). Then every people's copy (`<id>.md`) is
 * checked on its own.
 */
export function scrubDigests(a: App, changed: ReadonlySet<string>): DigestScrubReport {
  const out: DigestScrubReport = { rewritten: 0, removed: 0, secrets: emptyReport() };
  const dir = a.paths.digests;
  const reports: RedactionReport[] = [];
  for (const projectId of digestProjects(dir)) {
    const digest = readDigest(dir, projectId);
    if (!digest) continue;
    const leak = redactText(a.redact, digest.text, 'digest');
    const shows = digest.ids.some((id) => changed.has(id));
    if (leak.text === digest.text && !shows) continue;
    reports.push(leak.report);
    if (projectId === a.project.id) {
      const now = a.clock();
      const written = writeStampedDigest(a.db, dir, projectId, () => {
        const d = composeDigest(a.db, a.project, { now });
        return { ...d, text: redactText(a.redact, d.text, 'digest').text };
      });
      if (written.digest) out.rewritten++;
      else {
        removeDigest(dir, projectId);
        out.removed++;
      }
    } else if (shows) {
      removeDigest(dir, projectId);
      out.removed++;
    } else {
      writeDigest(dir, projectId, { ...digest, text: leak.text });
      out.rewritten++;
    }
  }
  for (const projectId of digestProjects(dir)) {
    const copy = scrubTextFile(join(dir, `${projectId}.md`), a.redact, 'digest');
    if (copy && copy.count > 0) reports.push(copy);
  }
  out.secrets = mergeReports(reports);
  return out;
}
