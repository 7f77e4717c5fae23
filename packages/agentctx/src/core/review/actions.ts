import { AgentctxError } from '../../shared/errors.js';
import { dismissPair, mergePair } from '../consolidation/merge-pair.js';
import { confirmRecord } from '../records/confirm.js';
import { type RecordsDeps, supersedeRecord } from '../records/records.js';
import { retireRecord } from '../records/retire.js';
import { chooseVersion } from '../team/team-conflicts.js';
import type { ReviewAction, ReviewItem } from './queue.js';

/**
 * One answer to one review item, through the service of the equivalent CLI command (the item's
 * `commands`): confirm → `agentctx confirm`, supersede → `agentctx supersede`, dismiss of a record
 * → `agentctx retire`, merge / dismiss of a pair → `agentctx merge [--dismiss]`, confirm of a
 * team-file change → `agentctx team import --yes` (the caller supplies it: it refreshes the digest),
 * choose of a team conflict → the version kept (core/team/team-conflicts.ts).
 */

interface ActDeps {
  records: RecordsDeps;
  projectRoot: string;
  /** Takes in the team file, closing removed blocks (the developer answered for them). */
  teamImport?: () => Promise<unknown>;
}

interface ActInput {
  /** choose: the version that stays, by number (date order, 1 = oldest) or record id. */
  version?: string;
  body?: string;
  rationale?: string;
  title?: string;
}

export interface ActOutcome {
  key: string;
  action: ReviewAction;
  result: unknown;
}

export async function actOnItem(
  deps: ActDeps,
  item: ReviewItem,
  action: ReviewAction,
  input: ActInput = {},
): Promise<ActOutcome> {
  if (!item.actions.includes(action)) {
    throw new AgentctxError(
      'invalid_input',
      `${item.key} cannot be answered with ${action}; it takes ${item.actions.join(', ')}`,
      { key: item.key, action },
    );
  }
  const done = (result: unknown): ActOutcome => ({ key: item.key, action, result });
  if (item.kind === 'conflict') {
    if (!input.version?.trim())
      throw new AgentctxError(
        'usage',
        `say which version stays: --version 1–${item.record_ids.length} or a record id`,
      );
    return done(chooseVersion(deps.records, item.key.slice('conflict:'.length), input.version.trim()));
  }
  if (item.kind === 'team') {
    if (!deps.teamImport)
      throw new AgentctxError('invalid_input', 'the team file is imported from its repository');
    return done(await deps.teamImport());
  }
  if (item.kind === 'duplicate') {
    const [a, b] = item.record_ids as [string, string];
    return done(action === 'merge' ? mergePair(deps.records, a, b) : dismissPair(deps.records, a, b));
  }
  const id = item.record_ids[0]!;
  if (action === 'confirm') {
    const c = confirmRecord({ ...deps.records, projectRoot: deps.projectRoot }, id);
    return done({
      id: c.record.id,
      confidence: c.record.confidence,
      reanchored: c.reanchored,
      dropped: c.dropped,
    });
  }
  if (action === 'supersede') {
    if (!input.rationale?.trim())
      throw new AgentctxError('usage', 'supersede needs a rationale: say why it changed');
    const res = supersedeRecord(deps.records, id, {
      body: input.body,
      rationale: input.rationale,
      title: input.title,
      source: 'cli',
    });
    return done({ old_id: res.old_id, new_id: res.new_id });
  }
  const r = retireRecord(deps.records, id);
  return done({ id: r.id, superseded_at: r.superseded_at });
}

/** The item with this key in the queue, or a clear error (the queue moved on, or a typo). */
export function findItem(queue: readonly ReviewItem[], key: string): ReviewItem {
  const item = queue.find((i) => i.key === key);
  if (!item) {
    throw new AgentctxError(
      'not_found',
      `no review item ${JSON.stringify(key)}: run agentctx review --json for the queue`,
      {
        key,
      },
    );
  }
  return item;
}
