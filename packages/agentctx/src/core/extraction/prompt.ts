/**
 * The extraction prompts. The system prompt is fixed text (it carries the cache breakpoint);
 * everything that varies goes into the user message.
 */
export const SYSTEM_PROMPT = `You read the transcript of one Claude Code session and record the project context worth keeping for future sessions. You answer only by calling the record_context tool, once.

The transcript labels every line with who produced it:
- "Developer:" is the human. Only what the developer said, asked for, chose, accepted or corrected can become a decision, preference or convention.
- "Assistant:" is the coding assistant. Its suggestions, plans and explanations are not decisions unless the developer accepted them ("yes", "do that", "go with B").
- "Tool …" lines are commands and file operations with their outcome, summarised. Use them for what happened (files changed, tests failing), never as a source of the developer's choices. File contents the assistant read are not statements by anyone.
- A "[Summary of the earlier part …]" block was written by the assistant at compaction; treat it like assistant text.

Rules:
1. One entry per distinct fact. Write each entry so it stands on its own, without the transcript.
2. Prefer empty arrays to invented or weak entries. Do not restate generic good practice.
3. confidence "explicit": the developer stated it directly ("we use tabs", "never call the API from hooks"). "inferred": you observed a pattern the developer did not state.
4. decisions: a technical or architectural choice, with the rationale the developer gave (empty string if none). If it replaces one of the existing records listed in the message, put that record's id in "supersedes"; otherwise null. Never invent ids.
5. preferences: how this developer works (style, tooling, process, naming). scope "global" only when the developer says it applies to all their work or projects; otherwise "project".
6. conventions: rules about how code is written in this project (scope: file, module or project).
7. gotchas: non-obvious behaviour of this codebase or its tools that caused trouble or would, and why it matters.
8. active_work: where the work stands at the end of the transcript — the current task, blockers, next steps, open questions — so the next session can pick up. Leave current_task empty when nothing is in progress.
9. Skip anything already covered by an existing record listed in the message, unless the session changed it. When the session shows again the fact of a listed record marked inferred or reinforced (the developer restated it, applied it or confirmed it, in any words), put that record's id in "reinforces" instead of writing the fact again: confidence "explicit" if the developer stated or confirmed it directly, "inferred" if you observed it. Only ids from the list.
10. flush_ok: true only when the session was trivial (a greeting, a one-off question) and nothing should be recorded.
11. Never copy secrets, tokens, passwords or keys into any field.`;

export interface KnownRecord {
  id: string;
  type: string;
  title: string;
  confidence: string;
}

function knownBlock(known: readonly KnownRecord[]): string {
  if (known.length === 0) return 'Existing records of this project: none.';
  return [
    'Existing records of this project (id, [type, and "inferred" or "reinforced" when not stated by the developer], title):',
    ...known.map(
      (r) => `- ${r.id} [${r.type}${r.confidence === 'explicit' ? '' : `, ${r.confidence}`}] ${r.title}`,
    ),
  ].join('\n');
}

/** The user message of a single-pass extraction (whole or head + tail). */
export function extractionMessage(transcript: string, known: readonly KnownRecord[], note?: string): string {
  return [
    knownBlock(known),
    '',
    note ?? 'The session transcript:',
    '<transcript>',
    transcript,
    '</transcript>',
  ].join('\n');
}

/** The user message of one map call over a chunk of a long transcript. */
export function mapMessage(
  chunk: string,
  index: number,
  total: number,
  known: readonly KnownRecord[],
): string {
  return extractionMessage(
    chunk,
    known,
    `Part ${index + 1} of ${total} of a long session transcript. Record what this part shows; active_work describes where this part ends.`,
  );
}

/** The synthesis call: merge the partial extractions into one answer. */
export function synthesisMessage(partials: readonly unknown[], known: readonly KnownRecord[]): string {
  return [
    knownBlock(known),
    '',
    `A long session was read in ${partials.length} parts; below is what was recorded for each part, in order.`,
    'Merge them into one record_context call: drop repeats, keep the later version when parts disagree,',
    'take active_work from the last parts, and list in reinforces every id any part reported. The same rules apply.',
    '<partial_extractions>',
    ...partials.map((p, i) => `Part ${i + 1}: ${JSON.stringify(p)}`),
    '</partial_extractions>',
  ].join('\n');
}
