import { relative, isAbsolute } from 'node:path';
import { filesTouched, oneLine, type TranscriptEvent } from '../claude/transcript.js';
import { BODY_MAX, TITLE_MAX } from './types.js';

/**
 * SPEC §8 rung 3: without a model, still leave the next session a handover, built by rules
 * from the transcript — the last developer requests, the files changed, the last test run and
 * the assistant's last words. Inferred by construction.
 */

const TEST_COMMAND =
  /\b(vitest|jest|mocha|pytest|tox|rspec|phpunit|go test|cargo test|mvn test|gradle test|(npm|pnpm|yarn|bun)( run)? test|node --test|make test|ctest)\b/;

export interface RuleHandover {
  title: string;
  body: string;
  /** Files the session edited (as given, relative to the project root when inside it). */
  files: string[];
}

function shorten(text: string, max: number): string {
  return oneLine(text, max);
}

function lastTestRun(events: readonly TranscriptEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind !== 'tool_use' || e.name !== 'Bash' || !TEST_COMMAND.test(e.summary)) continue;
    const result = events.find((r) => r.kind === 'tool_result' && r.toolUseId === e.id);
    if (!result || result.kind !== 'tool_result') return `\`${shorten(e.summary, 120)}\` (no result recorded)`;
    const failed = result.isError || /\b(fail(ed|ing|ures?)?|error)\b/i.test(result.summary);
    return `\`${shorten(e.summary, 120)}\` → ${failed ? 'FAILED' : 'passed'}: ${shorten(result.summary, 200)}`;
  }
  return null;
}

export function displayPath(file: string, projectRoot?: string): string {
  if (projectRoot && isAbsolute(file)) {
    const rel = relative(projectRoot, file);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return file;
}

/** Build the handover, or null when the transcript holds no developer request at all. */
export function buildRuleHandover(
  events: readonly TranscriptEvent[],
  projectRoot?: string,
  redact: (s: string) => string = (s) => s,
): RuleHandover | null {
  const requests = events.filter((e) => e.kind === 'user').map((e) => redact(e.text));
  if (requests.length === 0) return null;
  const files = filesTouched(events).map((f) => displayPath(f, projectRoot));
  const lastAssistant = [...events].reverse().find((e) => e.kind === 'assistant');
  const test = lastTestRun(events);

  const last = requests[requests.length - 1]!;
  const earlier = requests.slice(-3, -1);
  const sections: string[] = [`Last request from the developer: ${shorten(last, 500)}`];
  if (earlier.length > 0) {
    sections.push(['Earlier requests:', ...earlier.map((r) => `- ${shorten(r, 200)}`)].join('\n'));
  }
  if (files.length > 0) {
    const shown = files.slice(-12);
    const more = files.length - shown.length;
    sections.push(
      ['Files changed:', ...shown.map((f) => `- ${f}`), ...(more > 0 ? [`- … and ${more} more`] : [])].join('\n'),
    );
  }
  if (test) sections.push(`Last test run: ${redact(test)}`);
  if (lastAssistant && lastAssistant.kind === 'assistant') {
    sections.push(`Assistant's last message: ${shorten(redact(lastAssistant.text), 500)}`);
  }
  sections.push('(Built by rules from the transcript, without a model.)');

  // Fit the body limit by dropping from the least important end, then cutting.
  let body = sections.join('\n\n');
  while ([...body].length > BODY_MAX && sections.length > 2) {
    sections.splice(sections.length - 2, 1);
    body = sections.join('\n\n');
  }
  if ([...body].length > BODY_MAX) body = `${[...body].slice(0, BODY_MAX - 1).join('')}…`;
  const title = shorten(`Handover: ${last}`, TITLE_MAX);
  return { title, body, files };
}
