import { indexEntriesOf } from '../../core/retrieval/index-entry.js';
import { search } from '../../core/retrieval/search.js';
import { agentsOf } from '../../database/records-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import { isRecordType, isScope } from '../../shared/types.js';
import { bool, num, str } from '../args.js';
import type { Command } from '../command.js';
import { TIME_OPTIONS, TIME_USAGE, timeTravelFrom } from '../time-flags.js';

/** A line cut to the terminal's width (an ellipsis at the cut); whole when the width is unknown. */
function fitLine(line: string, columns: number | undefined): string {
  const chars = [...line];
  if (!columns || chars.length <= columns) return line;
  return `${chars.slice(0, Math.max(1, columns - 1)).join('')}…`;
}

export const command: Command = {
  name: 'search',
  summary: 'Search the project and the global profile; returns an index of matching records.',
  usage: `agentctx search QUERY [--type T] [--scope project|global] [--limit N] [--history] ${TIME_USAGE} [--json]`,
  group: 'everyday',
  line: 'find records about something (an index: id, type, title, age)',
  options: {
    type: {
      kind: 'string',
      help: 'only records of this type (decision, convention, preference, discovery, bugfix, handover, profile)',
    },
    scope: { kind: 'string', help: 'project or global' },
    limit: { kind: 'number', help: 'at most N results' },
    history: { kind: 'boolean', help: 'include superseded records' },
    ...TIME_OPTIONS,
  },
  examples: ['agentctx search "sqlite concurrency"', 'agentctx search retries --type decision --limit 5'],
  run({ args, app, io }) {
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
    const entries = indexEntriesOf(a.readDb, res.hits, now, false);
    // provenance: which agent's session wrote each (not in ctx_search's budgeted entries)
    let agents = new Map<string, string>();
    try {
      agents = agentsOf(
        a.readDb,
        entries.map((r) => r.id),
      );
    } catch {
      // a read-only snapshot of a store older than migration 17: every record is Claude Code's
    }
    const results = entries.map((r) => ({ ...r, agent: agents.get(r.id) ?? 'claude-code' }));
    const json: Record<string, unknown> = { results };
    if (time) json.as_of = time;
    if (res.degraded) json.degraded = res.degraded;
    // columns: id, type, age, confidence, score, then the title, cut only to the terminal's width
    const lines = results.map((r) =>
      fitLine(
        `${r.id}  ${r.type.padEnd(10)} ${r.age.padStart(8)}  ${r.confidence.padEnd(10)} ${r.score.toFixed(3).padStart(6)}  ${r.title}${r.superseded ? ' (superseded)' : ''}${r.stale ? ` [${r.stale}]` : ''}`,
        io.columns,
      ),
    );
    const text =
      (time ? `(as of ${time.asOf}${time.knownAt ? `, as known at ${time.knownAt}` : ''})\n` : '') +
      (res.degraded ? `(degraded: ${res.degraded})\n` : '') +
      (lines.length ? lines.join('\n') : 'no matches');
    return { json, text };
  },
};
