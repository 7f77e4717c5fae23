import { closeSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { copilotEventsReader } from '../../agents/copilot-events.js';
import { geminiChatReader } from '../../agents/gemini-chat.js';
import { opencodeMessagesReader } from '../../agents/opencode-messages.js';
import { qwenChatReader } from '../../agents/qwen-chat.js';
import { usageEventsOf } from '../../agents/usage-events.js';
import type { App } from '../../app/context.js';
import { refreshDigest } from '../../app/digest-refresh.js';
import { tryLock } from '../../app/lock.js';
import { appendLog } from '../../app/log.js';
import { judgeSessionUsage } from '../../app/usage.js';
import { claudeTranscriptReader, type TranscriptReader } from '../../claude/transcript.js';
import { codexRolloutReader } from '../../codex/rollout.js';
import { extractSession, type SessionExtractSummary } from '../../core/extraction/session-extract.js';
import { describeRedaction } from '../../core/redaction/gate.js';
import { compileExtraPatterns } from '../../core/redaction/redact.js';
import { redactingClient } from '../../core/redaction/redacting-client.js';
import { recordExtractionRun } from '../../database/extraction-runs-repo.js';
import { openRegularForRead } from '../../files/regular-file.js';
import { codexModel } from '../../llm/codex-detect.js';
import { type BackendDecision, cliModel, selectLlm } from '../../llm/select.js';
import { HOOK_AGENTS, type HookAgent, isHookAgent } from '../../shared/agents.js';
import { AgentctxError, errorMessage } from '../../shared/errors.js';
import { bool, str } from '../args.js';
import type { Command } from '../command.js';

/** Each agent's transcript reader: one neutral event list for the extraction core. */
const READERS: Partial<Record<HookAgent, TranscriptReader>> = {
  'claude-code': claudeTranscriptReader,
  codex: codexRolloutReader,
  qwen: qwenChatReader,
  gemini: geminiChatReader,
  opencode: opencodeMessagesReader,
  copilot: copilotEventsReader,
};

/** Hard lifetime of one extraction (manual runs too); the Stop hook adds its own deadline. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** How long the digest refresh after an extraction waits for a consolidation in progress. */
const DIGEST_WAIT_MS = 60_000;

function text(s: SessionExtractSummary): string {
  const w = s.written;
  const lines = [`session   ${s.session_id}`, `mode      ${s.mode}${s.reason ? ` (${s.reason})` : ''}`];
  if (s.input) lines.push(`input     ${s.input.policy}, ~${s.input.tokens} tokens, ${s.input.calls} call(s)`);
  lines.push(`cost      $${s.cost_usd.toFixed(5)}`);
  if (w) {
    for (const c of w.created) {
      lines.push(
        `created   ${c.id} ${c.type} [${c.confidence}${c.scope === 'global' ? ', global' : ''}] ${c.title}`,
      );
    }
    for (const r of w.reinforced) lines.push(`reinforced ${r.id} (${r.reinforce_count}, ${r.confidence})`);
    for (const e of w.bugfix_enrichment.enriched) lines.push(`enriched  ${e.stub_id} → ${e.id} ${e.title}`);
    const d = Object.entries(w.dropped).filter(([, n]) => n > 0);
    if (d.length > 0) lines.push(`dropped   ${d.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const ds = Object.entries(w.bugfix_enrichment.dropped).filter(([, n]) => n > 0);
    if (ds.length > 0) lines.push(`dropped   enrichments: ${ds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * Keep what this extraction actually used, for `status` and `doctor`: the hooks run it in the
 * agent's environment, which may hold an API key the developer's shell does not.
 */
function recordRun(a: App, s: SessionExtractSummary, decision: BackendDecision | null): void {
  if (s.mode !== 'llm' && s.mode !== 'flush' && s.mode !== 'rules') return;
  const used = s.mode === 'rules' ? null : (decision?.active ?? null);
  recordExtractionRun(a.db, a.project.id, {
    session_id: s.session_id,
    at: a.clock().toISOString(),
    via: a.env.AGENTCTX_DETACHED === '1' ? 'hook' : 'manual',
    mode: s.mode,
    configured: decision?.configured ?? a.config.llm.backend,
    backend: used,
    model:
      used === 'claude-cli'
        ? cliModel(a.config.llm, a.env)
        : used === 'codex-cli'
          ? (codexModel(a.env) ?? 'codex default')
          : used
            ? a.config.llm.model
            : null,
    calls: s.input?.calls ?? 0,
    cost_usd: s.cost_usd,
    // through the gate: a model's error may quote what it was sent
    reason: a.redact(s.mode === 'rules' ? (s.reason ?? 'no model') : (decision?.reason ?? '')),
  });
}

export const command: Command = {
  name: 'extract',
  summary:
    "Turn a session's transcript (Claude Code's, Codex's rollout, Qwen Code's or Gemini CLI's chat file, Copilot CLI's events.jsonl) into records (run by the Stop and PreCompact hooks).",
  usage:
    'agentctx extract --session-id ID --transcript PATH [--agent claude-code|codex|qwen|gemini|opencode|copilot] [--precompact] [--cwd DIR] [--json]',
  group: 'maintenance',
  line: "turn a session's transcript into records (run by the Stop hook)",
  options: {
    'session-id': { kind: 'string', help: "the agent's session id" },
    transcript: { kind: 'string', help: "the session's transcript file (.jsonl; Codex: its rollout file)" },
    precompact: { kind: 'boolean', help: 'write only the rule-built handover (PreCompact)' },
    agent: {
      kind: 'string',
      help: 'whose transcript it is: claude-code (the default), codex, qwen, gemini, opencode or copilot',
    },
  },
  examples: ['agentctx extract --session-id 3f2a… --transcript ~/.claude/projects/my-app/3f2a….jsonl'],
  async run({ args, app }) {
    const sessionId = str(args.flags, 'sessionId');
    const transcriptArg = str(args.flags, 'transcript');
    if (!sessionId?.trim()) throw new AgentctxError('usage', '--session-id is required');
    if (!transcriptArg) throw new AgentctxError('usage', '--transcript is required');
    const agentArg = str(args.flags, 'agent') ?? 'claude-code';
    if (!isHookAgent(agentArg))
      throw new AgentctxError('usage', `--agent must be one of ${HOOK_AGENTS.join(', ')}; got ${agentArg}`);
    const agent: HookAgent = agentArg;
    const reader = READERS[agent];
    // Cursor's transcripts are not documented: its hooks never ask for this
    if (!reader) throw new AgentctxError('usage', `agentctx cannot read ${agent}'s transcripts`);
    const transcriptPath = resolve(transcriptArg);
    if (!existsSync(transcriptPath)) {
      throw new AgentctxError('invalid_input', `no transcript at ${transcriptPath}`);
    }
    // a FIFO, a device or a directory is refused here, before any lock is taken
    closeSync(openRegularForRead(transcriptPath));
    const a = app();
    const log = (m: string) => appendLog(a.paths.logs, 'extract', m);

    const lifetime = Number(a.env.AGENTCTX_EXTRACT_LIFETIME_MS) || DEFAULT_LIFETIME_MS;
    const timer = setTimeout(() => {
      log(`extract ${sessionId}: lifetime of ${lifetime} ms reached; exiting`);
      process.exit(124);
    }, lifetime);
    timer.unref();

    const lock = tryLock(a.paths.locks, `extract-${a.project.id}`);
    if (!lock) {
      log(`extract ${sessionId}: another extraction holds this project's lock; skipped`);
      return {
        json: {
          session_id: sessionId,
          mode: 'skipped',
          reason: 'another extraction is running for this project',
        },
        text: 'skipped: another extraction is running for this project',
      };
    }
    try {
      const precompact = bool(args.flags, 'precompact');
      const choice = precompact
        ? { client: null, reason: 'precompact' }
        : selectLlm(a.config.llm, a.env, { log, scratchRoot: a.paths.tmp });
      if (choice.client && choice.decision) log(`extract ${sessionId}: backend ${choice.decision.reason}`);
      const redact = a.redact;
      for (const e of compileExtraPatterns(a.config.redact?.extraPatterns).errors)
        log(`extract ${sessionId}: redact pattern ${JSON.stringify(e.pattern)} skipped: ${e.error}`);
      const summary = await extractSession({
        records: {
          ...a.records(),
          agent,
          onRedacted: (r) => log(`extract ${sessionId}: ${describeRedaction(r)}`),
        },
        sessionId: sessionId.trim(),
        transcriptPath,
        reader,
        projectRoot: a.project.root,
        llm: choice.client ? redactingClient(choice.client, redact) : null,
        redact,
        llmSkipReason: choice.reason,
        dailyCostCapUsd: a.config.llm.dailyCostCapUsd,
        precompact,
        log,
      });
      recordRun(a, summary, choice.decision ?? null);
      if (summary.mode === 'precompact') {
        log(`extract ${sessionId}: precompact handover ${summary.written?.created[0]?.id ?? 'not written'}`);
      }
      // which of the records the session was shown it used (offline, after the extraction)
      // another agent's transcript is read for usage through its own reader
      const usage = precompact
        ? null
        : judgeSessionUsage(
            a,
            sessionId.trim(),
            transcriptPath,
            agent === 'claude-code' ? undefined : usageEventsOf(reader.read(transcriptPath, 0).events),
          );
      const w = summary.written;
      if (w && w.created.length + w.reinforced.length + w.bugfix_enrichment.enriched.length > 0) {
        // The digest must show what was just written: SessionEnd's consolidation often ran
        // while the model was still answering.
        // the records are written: a digest that cannot be refreshed (derived) is only logged
        const refreshed = await refreshDigest(a, DIGEST_WAIT_MS).catch((err: unknown) => {
          log(`extract ${sessionId}: digest not refreshed: ${errorMessage(err)}`);
          return true;
        });
        if (!refreshed) log(`extract ${sessionId}: digest not refreshed (a consolidation is still running)`);
      }
      const usageLine = usage
        ? `\nusage     ${usage.shown} shown, ${usage.used} used, ${usage.unused} unused, ${usage.contradicted} contradicted`
        : '';
      return { json: usage ? { ...summary, usage } : summary, text: `${text(summary)}${usageLine}` };
    } catch (err) {
      log(`extract ${sessionId}: failed: ${errorMessage(err)}`);
      throw err;
    } finally {
      lock.release();
      clearTimeout(timer);
    }
  },
};
