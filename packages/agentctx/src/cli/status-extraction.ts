import type { App } from '../app/context.js';
import { type ExtractionRun, latestExtractionRuns } from '../database/extraction-runs-repo.js';
import { dailyExtractionCost } from '../database/extraction-state-repo.js';
import type { Db } from '../database/open.js';
import { type BackendDecision, decideBackend } from '../llm/select.js';

/**
 * Which extraction backend agentctx uses, told from two sides (issue 31 #2). The Stop hook runs
 * `agentctx extract` in the agent's environment, which may hold an API key the developer's shell
 * does not, so the shell's own decision says nothing about what the hooks pay for. What the last
 * extractions used comes from their own rows (database/extraction-runs-repo.ts); what the next
 * one will use is said for each environment: the agent's sessions (as the last hook run, unless
 * the config or the daily cap changed that) and this shell (decided here, now).
 */
export interface ExtractionBackends {
  last: ExtractionRun | null;
  /** The latest run the hooks made (the agent's environment), when there is one. */
  last_hook: ExtractionRun | null;
  next: {
    sessions: { backend: string | null; known: boolean; reason: string };
    shell: { backend: string | null; reason: string };
  };
  shell_decision: BackendDecision;
}

function label(backend: string | null): string {
  return backend ?? 'none (rule-based)';
}

export function extractionBackends(a: App, db: Db): ExtractionBackends {
  const runs = latestExtractionRuns(db, a.project.id, 20);
  const last = runs[0] ?? null;
  const lastHook = runs.find((r) => r.via === 'hook') ?? null;
  const shell = decideBackend(a.config.llm, a.env);
  const day = a.clock().toISOString().slice(0, 10);
  const capReached = dailyExtractionCost(db, day) >= a.config.llm.dailyCostCapUsd;
  const off = !a.config.llm.enabled || a.config.llm.backend === 'off';
  let sessions: ExtractionBackends['next']['sessions'];
  if (off) sessions = { backend: null, known: true, reason: shell.reason };
  else if (capReached)
    sessions = {
      backend: null,
      known: true,
      reason: "today's cost cap is reached; rules until the next UTC day",
    };
  else if (lastHook && lastHook.configured === a.config.llm.backend && lastHook.mode !== 'rules')
    sessions = {
      backend: lastHook.backend,
      known: true,
      reason: `as the last session's: ${lastHook.reason}`,
    };
  else if (lastHook && lastHook.configured === a.config.llm.backend)
    sessions = { backend: null, known: true, reason: `as the last session's: ${lastHook.reason}` };
  else
    sessions = {
      backend: null,
      known: false,
      reason: "decided in the agent's environment when the next session ends (its API key, its PATH)",
    };
  return {
    last,
    last_hook: lastHook,
    next: { sessions, shell: { backend: shell.active, reason: shell.reason } },
    shell_decision: shell,
  };
}

function describeRun(r: ExtractionRun): string {
  const what = r.backend ? `${r.backend}${r.model ? ` (${r.model})` : ''}` : 'rules';
  const from = r.via === 'hook' ? 'a session hook' : 'a shell';
  return `${what}, from ${from}, ${r.at.slice(0, 16).replace('T', ' ')} UTC, $${r.cost_usd.toFixed(4)}`;
}

/** The lines `status` and `doctor` print. */
export function extractionLines(b: ExtractionBackends): string[] {
  const sessions = b.next.sessions.known ? label(b.next.sessions.backend) : 'not known yet';
  return [
    `extraction last ${b.last ? describeRun(b.last) : 'none yet'}`,
    `          next in sessions: ${sessions} (${b.next.sessions.reason})`,
    `          next from this shell: ${label(b.next.shell.backend)} (${b.next.shell.reason})`,
  ];
}
