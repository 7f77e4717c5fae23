import {
  claudeTranscriptReader,
  filesTouched,
  type TranscriptEvent,
  type TranscriptReader,
} from '../../claude/transcript.js';
import { currentSessionStubs } from '../../database/bugfix-stubs-repo.js';
import {
  addDailyExtractionCost,
  dailyExtractionCost,
  getExtractionState,
  setExtractionOffset,
} from '../../database/extraction-state-repo.js';
import { addExtractionCost } from '../../database/sessions-repo.js';
import type { LlmClient } from '../../llm/client.js';
import { errorMessage } from '../../shared/errors.js';
import type { RecordsDeps } from '../records/records.js';
import { STUBS_LISTED, stubForPrompt } from './bugfix-stubs.js';
import { type IngestReport, ingestExtraction, ingestRuleHandover } from './ingest.js';
import { planInput } from './input-policy.js';
import { knownRecords } from './known-records.js';
import { holdsWork } from './no-work.js';
import { renderTranscript } from './render.js';
import { buildRuleHandover, displayPath } from './rule-handover.js';
import { runLlmExtraction } from './run-llm.js';

interface SessionExtractInput {
  records: RecordsDeps;
  sessionId: string;
  transcriptPath: string;
  /** How the agent that wrote the transcript is read (Claude Code's transcripts by default). */
  reader?: TranscriptReader;
  projectRoot: string;
  /** null → rules only, for `llmSkipReason`. */
  llm: LlmClient | null;
  llmSkipReason?: string;
  dailyCostCapUsd: number;
  /** PreCompact: write only the rule-built handover candidate; leave the read offset alone. */
  precompact?: boolean;
  /** Applied to all transcript text before it leaves the machine or is stored. */
  redact?: (text: string) => string;
  log: (message: string) => void;
}

export interface SessionExtractSummary {
  session_id: string;
  mode: 'llm' | 'rules' | 'precompact' | 'nothing_new' | 'flush';
  reason?: string;
  input?: { policy: string; tokens: number; calls: number; dropped_chunks?: number };
  invalid_entries?: Record<string, number>;
  cost_usd: number;
  offset: { from: number; to: number; advanced: boolean };
  garbage_lines: number;
  written: IngestReport | null;
}

/** Files this session touched: PostToolUse's observed_in edges, plus the edits in the transcript. */
function sessionFiles(
  deps: RecordsDeps,
  sessionId: string,
  events: readonly TranscriptEvent[],
  root: string,
): string[] {
  const fromGraph = deps.db
    .prepare(
      `SELECT n.name AS name FROM edges e JOIN nodes n ON n.id = e.from_id
       WHERE e.rel_type = 'observed_in' AND e.to_id = ? AND n.kind = 'file' AND n.project_id = ?`,
    )
    .all(sessionId, deps.projectId) as { name: string }[];
  const prefix = `${deps.projectId}:file:`;
  const out = new Set<string>(
    fromGraph.map((r) => (r.name.startsWith(prefix) ? r.name.slice(prefix.length) : r.name)),
  );
  for (const f of filesTouched(events)) out.add(displayPath(f, root));
  return [...out];
}

function today(deps: RecordsDeps): string {
  return deps.clock().toISOString().slice(0, 10);
}

/**
 * Extract one session (or the part of it not yet read): the model when there is one, rules
 * otherwise or when it fails. Never throws for model trouble; store errors do propagate.
 */
export async function extractSession(input: SessionExtractInput): Promise<SessionExtractSummary> {
  const deps = input.records;
  const redact = input.redact ?? ((s: string) => s);
  const reader = input.reader ?? claudeTranscriptReader;
  const startedAt = reader.firstTimestamp(input.transcriptPath);
  const base = { session_id: input.sessionId, cost_usd: 0, garbage_lines: 0, written: null };

  const ruleHandover = (reason: string | undefined, from: number, to: number, advance: boolean) => {
    const whole = reader.read(input.transcriptPath, 0);
    const h = buildRuleHandover(whole.events, input.projectRoot, redact);
    const written = h
      ? ingestRuleHandover(deps, h, {
          sessionId: input.sessionId,
          source: 'hook_observation',
          files: sessionFiles(deps, input.sessionId, whole.events, input.projectRoot),
          projectRoot: input.projectRoot,
          sessionStartedAt: startedAt,
        })
      : null;
    if (advance)
      setExtractionOffset(deps.db, input.sessionId, input.transcriptPath, to, deps.clock().toISOString());
    return { written, garbage: whole.garbage, reason, from, to, advanced: advance };
  };

  if (input.precompact) {
    const r = ruleHandover('precompact snapshot', 0, 0, false);
    return {
      ...base,
      mode: 'precompact',
      garbage_lines: r.garbage,
      written: r.written,
      offset: { from: 0, to: 0, advanced: false },
    };
  }

  const state = getExtractionState(deps.db, input.sessionId);
  const from = state && state.transcript_path === input.transcriptPath ? state.byte_offset : 0;
  const read = reader.read(input.transcriptPath, from);
  const to = read.endOffset;
  const meaningful = read.events.some(
    (e) => e.kind === 'user' || e.kind === 'assistant' || e.kind === 'compact_summary',
  );
  // A part with no work (a greeting, no tool use) costs no model call and leaves no handover.
  const work = meaningful && holdsWork(read.events);
  if (!work) {
    setExtractionOffset(deps.db, input.sessionId, input.transcriptPath, to, deps.clock().toISOString());
    if (meaningful)
      input.log(`extract ${input.sessionId}: no work in this part (no tool use, no request); skipped`);
    return {
      ...base,
      mode: 'nothing_new',
      ...(meaningful ? { reason: 'no work: no tool use and no request of substance' } : {}),
      garbage_lines: read.garbage,
      offset: { from, to, advanced: true },
    };
  }

  // No model to ask: the rule-built handover only, and the offset moves on.
  const rulesOnly = (reason: string) => {
    input.log(`extract ${input.sessionId}: rules only (${reason})`);
    const r = ruleHandover(reason, from, to, true);
    return {
      ...base,
      mode: 'rules' as const,
      reason,
      garbage_lines: read.garbage,
      written: r.written,
      offset: { from, to, advanced: true },
    };
  };
  if (!input.llm) return rulesOnly(input.llmSkipReason ?? 'no model');

  const spent = dailyExtractionCost(deps.db, today(deps));
  if (spent >= input.dailyCostCapUsd) {
    return rulesOnly(`daily cost cap reached ($${spent.toFixed(4)} of $${input.dailyCostCapUsd})`);
  }

  const lines = renderTranscript(read.events).map(redact);
  const plan = planInput(lines);
  let cost = 0;
  let calls = 0;
  const policy = {
    policy: plan.mode,
    tokens: plan.tokens,
    calls: 0,
    ...(plan.mode === 'map_reduce' && plan.droppedChunks > 0 ? { dropped_chunks: plan.droppedChunks } : {}),
  };
  try {
    const stubs = currentSessionStubs(deps.db, deps.projectId, input.sessionId, STUBS_LISTED).map(
      stubForPrompt,
    );
    const result = await runLlmExtraction(input.llm, plan, knownRecords(deps), {
      stubs,
      canSpend: () => dailyExtractionCost(deps.db, today(deps)) < input.dailyCostCapUsd,
      onCall: (resp) => {
        calls++;
        cost += resp.costUsd;
        const at = deps.clock().toISOString();
        deps.db.transaction(() => {
          addExtractionCost(deps.db, input.sessionId, deps.projectId, resp.costUsd, at);
          addDailyExtractionCost(deps.db, today(deps), resp.costUsd);
        })();
      },
    });
    const { output } = result.parsed;
    const written = ingestExtraction(deps, output, {
      sessionId: input.sessionId,
      source: 'llm_extraction',
      files: sessionFiles(deps, input.sessionId, read.events, input.projectRoot),
      projectRoot: input.projectRoot,
      sessionStartedAt: startedAt,
    });
    setExtractionOffset(deps.db, input.sessionId, input.transcriptPath, to, deps.clock().toISOString());
    input.log(
      `extract ${input.sessionId}: ${input.llm.name} ${plan.mode} ${plan.tokens}t ${result.calls} call(s) $${cost.toFixed(5)}; ` +
        `${output.flush_ok ? 'flush_ok' : `${written.created.length} created, ${written.reinforced.length} reinforced, ${written.bugfix_enrichment.enriched.length} stub(s) enriched`}; ` +
        `dropped ${JSON.stringify({ ...written.dropped, invalid: result.parsed.invalid })}`,
    );
    return {
      ...base,
      mode: output.flush_ok ? 'flush' : 'llm',
      input: { ...policy, calls: result.calls },
      invalid_entries: result.parsed.invalid,
      cost_usd: cost,
      garbage_lines: read.garbage,
      written,
      offset: { from, to, advanced: true },
    };
  } catch (err) {
    // Model trouble: logged, never surfaced. The offset stays, so the next Stop retries this part.
    const reason = `model failed: ${errorMessage(err)}`;
    input.log(`extract ${input.sessionId}: ${reason}; rule-based handover instead`);
    const r = ruleHandover(reason, from, to, false);
    return {
      ...base,
      mode: 'rules',
      reason,
      input: { ...policy, calls },
      cost_usd: cost,
      garbage_lines: read.garbage,
      written: r.written,
      offset: { from, to: from, advanced: false },
    };
  }
}
