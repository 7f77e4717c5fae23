import { isAbsolute, relative } from 'node:path';
import { filesTouched, oneLine, type TranscriptEvent } from '../../claude/transcript.js';
import { BODY_MAX, TITLE_MAX } from '../../shared/types.js';

/**
 * CONTRACTS.md §rung-3: without a model, still leave the next session a handover, built by rules
 * from the transcript — the last developer requests, the files changed, the last test run and
 * the assistant's last words. Inferred by construction.
 */

const TEST_COMMAND =
  /\b(vitest|jest|mocha|pytest|tox|rspec|phpunit|go test|cargo test|mvn test|gradle test|(npm|pnpm|yarn|bun)( run)? test|node --test|make test|ctest)\b/;

interface RuleHandover {
  title: string;
  body: string;
  /** Files the session edited (as given, relative to the project root when inside it). */
  files: string[];
}

function shorten(text: string, max: number): string {
  return oneLine(text, max);
}

/** A file path is one long word: keep its start (directory and file name) rather than drop it. */
function shortenPath(path: string, max: number): string {
  return path.length > max ? `${path.slice(0, max - 1)}…` : path;
}

function lastTestRun(events: readonly TranscriptEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind !== 'tool_use' || e.name !== 'Bash' || !TEST_COMMAND.test(e.summary)) continue;
    const result = events.find((r) => r.kind === 'tool_result' && r.toolUseId === e.id);
    if (!result || result.kind !== 'tool_result')
      return `\`${shorten(e.summary, 120)}\` (no result recorded)`;
    const failed = result.isError || /\b(fail(ed|ing|ures?)?|error)\b/i.test(result.summary);
    return `\`${shorten(e.summary, 120)}\` → ${failed ? 'FAILED' : 'passed'}: ${shorten(result.summary, 200)}`;
  }
  return null;
}

const FILES_CHARS = 900;

/** The most recent files that fit the section's share of the body, and how many more there were. */
function filesSection(files: readonly string[]): string {
  const shown: string[] = [];
  let used = 'Files changed:'.length;
  for (let i = files.length - 1; i >= 0 && shown.length < 12; i--) {
    const line = `- ${shortenPath(files[i]!, 120)}`;
    if (used + line.length + 30 > FILES_CHARS) break;
    shown.unshift(line);
    used += line.length + 1;
  }
  const more = files.length - shown.length;
  return ['Files changed:', ...shown, ...(more > 0 ? [`- … and ${more} more`] : [])].join('\n');
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
  // Sections in reading order; `drop` is the order they go in when the body is over the limit.
  const sections: { key: string; text: string }[] = [
    { key: 'last', text: `Last request from the developer: ${shorten(last, 500)}` },
  ];
  if (earlier.length > 0) {
    sections.push({
      key: 'earlier',
      text: ['Earlier requests:', ...earlier.map((r) => `- ${shorten(r, 200)}`)].join('\n'),
    });
  }
  if (files.length > 0) sections.push({ key: 'files', text: filesSection(files) });
  if (test) sections.push({ key: 'test', text: `Last test run: ${redact(test)}` });
  if (lastAssistant && lastAssistant.kind === 'assistant') {
    sections.push({
      key: 'assistant',
      text: `Assistant's last message: ${shorten(redact(lastAssistant.text), 500)}`,
    });
  }
  sections.push({ key: 'footer', text: '(Built by rules from the transcript, without a model.)' });

  const drop = ['footer', 'earlier', 'assistant', 'test', 'files'];
  const join = () => sections.map((x) => x.text).join('\n\n');
  let body = join();
  for (const key of drop) {
    if ([...body].length <= BODY_MAX) break;
    const i = sections.findIndex((x) => x.key === key);
    if (i !== -1) sections.splice(i, 1);
    body = join();
  }
  if ([...body].length > BODY_MAX) body = `${[...body].slice(0, BODY_MAX - 1).join('')}…`;
  const title = shorten(`Handover: ${last}`, TITLE_MAX);
  return { title, body, files };
}
