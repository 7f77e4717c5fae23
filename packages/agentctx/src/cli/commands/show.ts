import { requireVisible } from '../../core/records/records.js';
import { agentLabel } from '../../shared/agents.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import { chainVersionAt, type TimeTravel } from '../../storage/as-of.js';
import type { Db } from '../../storage/open.js';
import { supersessionChain } from '../../storage/records-repo.js';
import { usageOf } from '../../storage/usage-repo.js';
import type { Command } from '../command.js';
import { TIME_FLAGS, TIME_USAGE, timeTravelFrom } from '../time-flags.js';

/** The version of a record's chain that was valid at that time, or a not_found error. */
function versionAt(db: Db, id: string, time: TimeTravel): ContextRecord {
  const hit = chainVersionAt(db, id, time);
  if (!hit) {
    throw new AgentctxError('not_found', `no version of record ${id} was valid at ${time.asOf}`, { id });
  }
  return hit;
}

export const command: Command = {
  name: 'show',
  summary:
    'Show one record, every column, and its supersession chain (with --as-of: the version of the chain valid then).',
  usage: `agentctx show ID ${TIME_USAGE} [--json]`,
  flags: { ...TIME_FLAGS },
  run({ args, app }) {
    const id = args.positionals[0];
    if (!id) throw new AgentctxError('usage', 'show needs a record id');
    const time = timeTravelFrom(args.flags);
    const a = app();
    const db = a.readDb; // reads only: works on a full disk or a read-only home too
    const asked = requireVisible({ db, clock: a.clock, newId: a.newId, projectId: a.project.id }, id);
    const record = time ? versionAt(db, asked.id, time) : asked;
    const chain = supersessionChain(db, record.id).map((r) => ({
      id: r.id,
      title: r.title,
      valid_from: r.valid_from,
      superseded_at: r.superseded_at,
      superseded_by: r.superseded_by,
    }));
    // usage evidence (stored counts; what the sessions shown it did with it)
    let stored: ReturnType<typeof usageOf> = null;
    try {
      stored = usageOf(db, record.id);
    } catch {
      stored = null; // a snapshot of a store older than the usage tables
    }
    const usage = stored ?? {
      record_id: record.id,
      shown_count: 0,
      used_count: 0,
      contradicted_count: 0,
      last_shown_at: null,
      last_used_at: null,
    };
    const text = [
      `${record.title}`,
      `${record.type} · ${record.scope} · ${record.confidence}${record.pinned ? ' · pinned' : ''} · written in ${agentLabel(record.agent)}${record.superseded_at ? ` · superseded ${record.superseded_at} by ${record.superseded_by}` : ''}`,
      '',
      record.body,
      '',
      ...Object.entries(record)
        .filter(([k]) => k !== 'title' && k !== 'body')
        .map(([k, v]) => `${k}: ${v ?? ''}`),
      `usage: shown in ${usage.shown_count} session(s), used in ${usage.used_count}, contradicted in ${usage.contradicted_count}`,
      ...(chain.length > 1
        ? [
            '',
            'supersession chain (oldest first):',
            ...chain.map((c) => `  ${c.id === record.id ? '*' : ' '} ${c.id}  ${c.valid_from}  ${c.title}`),
          ]
        : []),
    ].join('\n');
    const when = time ? `(as of ${time.asOf}${time.knownAt ? `, as known at ${time.knownAt}` : ''})\n` : '';
    const { record_id: _, ...counts } = usage;
    return {
      json: { record, chain, usage: counts, ...(time ? { as_of: time } : {}) },
      text: `${when}${text}`,
    };
  },
};
