import { indexEntriesOf } from '../../core/retrieval/index-entry.js';
import { search } from '../../core/retrieval/search.js';
import { AgentctxError } from '../../shared/errors.js';
import { isRecordType, isScope } from '../../shared/types.js';
import { agentsOf } from '../../storage/records-repo.js';
import { bool, num, str } from '../args.js';
import type { Command } from '../command.js';
import { TIME_FLAGS, TIME_USAGE, timeTravelFrom } from '../time-flags.js';

export const command: Command = {
  name: 'search',
  summary: 'Search the project and the global profile; returns an index of matching records.',
  usage: `agentctx search QUERY [--type T] [--scope project|global] [--limit N] [--history] ${TIME_USAGE} [--json]`,
  flags: { type: 'string', scope: 'string', limit: 'number', history: 'boolean', ...TIME_FLAGS },
  run({ args, app }) {
    const query = args.positionals.join(' ');
    if (!query.trim()) throw new AgentctxError('usage', 'search needs a query');
    const type = str(args.flags, 'type');
    if (type !== undefined && !isRecordType(type))
      throw new AgentctxError('usage', `unknown type ${JSON.stringify(type)}`);
    const scope = str(args.flags, 'scope') ?? 'project';
    if (!isScope(scope)) throw new AgentctxError('usage', 'scope must be project or global');
    const limit = num(args.flags, 'limit') ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 50)
      throw new AgentctxError('usage', 'limit must be 1–50');
    const time = timeTravelFrom(args.flags);
    const a = app();
    const now = a.clock();
    const res = search(a.readDb, {
      projectId: a.project.id,
      query,
      types: type ? [type] : undefined,
      scope,
      limit,
      history: bool(args.flags, 'history'),
      time,
      now,
    });
    const entries = indexEntriesOf(a.readDb, res.hits, now);
    // provenance: which agent's session wrote each (not in ctx_search's budgeted entries)
    let agents = new Map<string, string>();
    try {
      agents = agentsOf(
        a.readDb,
        entries.map((r) => r.id),
      );
    } catch {
      // a read-only snapshot of a store older than migration 15: every record is Claude Code's
    }
    const results = entries.map((r) => ({ ...r, agent: agents.get(r.id) ?? 'claude-code' }));
    const json: Record<string, unknown> = { results };
    if (time) json.as_of = time;
    if (res.degraded) json.degraded = res.degraded;
    const lines = results.map(
      (r) =>
        `${r.id}  ${r.type.padEnd(10)} ${r.age.padStart(8)}  ${r.confidence.padEnd(10)} ${r.title}${r.superseded ? ' (superseded)' : ''}`,
    );
    const text =
      (time ? `(as of ${time.asOf}${time.knownAt ? `, as known at ${time.knownAt}` : ''})\n` : '') +
      (res.degraded ? `(degraded: ${res.degraded})\n` : '') +
      (lines.length ? lines.join('\n') : 'no matches');
    return { json, text };
  },
};
