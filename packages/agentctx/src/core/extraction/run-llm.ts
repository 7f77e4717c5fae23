import type { LlmClient, StructuredResponse } from '../../llm/client.js';
import { type StubForPrompt, stubsBlock } from './bugfix-stubs.js';
import type { InputPlan } from './input-policy.js';
import {
  extractionMessage,
  type KnownRecord,
  mapMessage,
  SYSTEM_PROMPT,
  synthesisMessage,
} from './prompt.js';
import { type ParsedOutput, parseExtractionOutput } from './schema.js';
import { RECORD_CONTEXT_TOOL } from './tool-schema.js';

interface LlmRunHooks {
  /** Called after every answered call, before the next one: store its cost here. */
  onCall: (resp: StructuredResponse, purpose: 'extract' | 'map' | 'synthesis') => void;
  /** Asked before every call; false stops the run (daily cost cap reached). */
  canSpend: () => boolean;
  /** The session's bugfix stubs, listed in every call for enrichment (bugfix-stubs.ts). */
  stubs?: readonly StubForPrompt[];
}

/** The model gave no usable answer (not an object), or the cost cap stopped the run. */
class ExtractionFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionFailed';
  }
}

interface LlmRunResult {
  parsed: ParsedOutput;
  calls: number;
}

async function call(
  llm: LlmClient,
  user: string,
  purpose: 'extract' | 'map' | 'synthesis',
  hooks: LlmRunHooks,
): Promise<ParsedOutput> {
  if (!hooks.canSpend()) throw new ExtractionFailed('daily cost cap reached');
  const resp = await llm.structured({
    system: SYSTEM_PROMPT,
    user: `${stubsBlock(hooks.stubs ?? [], purpose)}${user}`,
    tool: RECORD_CONTEXT_TOOL as unknown as {
      name: string;
      description: string;
      input_schema: Record<string, unknown>;
    },
  });
  hooks.onCall(resp, purpose);
  const parsed = parseExtractionOutput(resp.output);
  if (!parsed) throw new ExtractionFailed(`the ${purpose} answer was not a JSON object`);
  return parsed;
}

/**
 * Run the model over the planned input: one call for a whole or head + tail transcript; for a
 * long one, a call per chunk and one synthesis call over their results.
 */
export async function runLlmExtraction(
  llm: LlmClient,
  plan: InputPlan,
  known: readonly KnownRecord[],
  hooks: LlmRunHooks,
): Promise<LlmRunResult> {
  if (plan.mode !== 'map_reduce') {
    const note =
      plan.mode === 'head_tail'
        ? 'The session transcript (long: its beginning and its most recent part; the middle is omitted):'
        : undefined;
    return { parsed: await call(llm, extractionMessage(plan.text, known, note), 'extract', hooks), calls: 1 };
  }
  const partials: ParsedOutput['output'][] = [];
  for (const [i, chunk] of plan.chunks.entries()) {
    const p = await call(llm, mapMessage(chunk, i, plan.chunks.length, known), 'map', hooks);
    partials.push(p.output);
  }
  const merged = await call(llm, synthesisMessage(partials, known), 'synthesis', hooks);
  return { parsed: merged, calls: plan.chunks.length + 1 };
}
