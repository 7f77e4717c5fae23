/**
 * Per-agent scoping of records (issue 30 #4, decision 0113). `agents.isolate` in config.json
 * names agents whose records stay with them: such an agent is shown only the records it wrote,
 * and no other agent is shown them, in the SessionStart digest, the per-prompt and subagent
 * injections and ctx_search. Everyone else shares the rest, as before. Agent names end here:
 * core/ gets a WriterFilter of opaque `records.agent` values.
 */

import type { WriterFilter } from '../database/writer-filter.js';
import { type HookAgent, isHookAgent } from '../shared/agents.js';
import { type Config, loadConfigOrDefault } from './config.js';

/** The isolated agents a config names (unknown names in a hand-edited file are ignored). */
export function isolatedAgents(config: Pick<Config, 'agents'>): HookAgent[] {
  const list = config.agents?.isolate;
  return Array.isArray(list) ? [...new Set(list.filter(isHookAgent))] : [];
}

/** What `agent` may be shown; undefined when nothing is isolated (every record, no filter). */
function writersFor(config: Pick<Config, 'agents'>, agent: HookAgent): WriterFilter | undefined {
  const isolated = isolatedAgents(config);
  if (isolated.length === 0) return undefined;
  return isolated.includes(agent) ? { only: [agent] } : { except: isolated };
}

/**
 * The filter of the digest file every non-isolated agent reads; what consolidation composes
 * it under. Undefined when nothing is isolated.
 */
export function sharedWriters(config: Pick<Config, 'agents'>): WriterFilter | undefined {
  const isolated = isolatedAgents(config);
  return isolated.length > 0 ? { except: isolated } : undefined;
}

/**
 * The hook path's reading: one small file read (a stat when there is no config file), never a
 * failure (a broken file is the defaults: nothing isolated). `own`: the agent is isolated.
 */
export function hookScope(configPath: string, agent: HookAgent): { writers?: WriterFilter; own: boolean } {
  const config = loadConfigOrDefault(configPath);
  const writers = writersFor(config, agent);
  return writers ? { writers, own: writers.only !== undefined } : { own: false };
}

/** `{ writers }` to spread into a search's options, or nothing. */
export function writersOnly(scope: { writers?: WriterFilter }): { writers?: WriterFilter } {
  return scope.writers ? { writers: scope.writers } : {};
}
