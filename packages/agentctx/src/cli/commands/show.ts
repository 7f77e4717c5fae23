import { requireVisible } from '../../core/records/records.js';
import { chainVersionAt, type TimeTravel } from '../../database/as-of.js';
import type { Db } from '../../database/open.js';
import { supersessionChain } from '../../database/records-repo.js';
import { usageOf } from '../../database/usage-repo.js';
import { agentLabel } from '../../shared/agents.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import type { Command } from '../command.js';
import { count as plural } from '../style.js';
import { TIME_OPTIONS, TIME_USAGE, timeTravelFrom } from '../time-flags.js';

/**
 * The record's fields in words (issue 31 #18: the raw column names were printed). Fields that
 * say nothing yet (no supersession, never read) are left out; `--json` has every column.
 */
const SOURCE_WORDS: Record<ContextRecord['source'], string> = {
  llm_extraction: 'extraction from the session transcript',
  hook_observation: 'a hook, from what the session did',
  mcp_tool: 'the agent, through the MCP tool',
  cli: 'a person (the CLI or the dashboard)',
  import: 'an import',
};

/** Where the record came from, for the header: an agent's session, or a person's hand. */
function provenance(r: ContextRecord): string {
  if (r.source === 'cli') return 'written by hand';
  if (r.source === 'import') return 'imported';
  return `written in ${agentLabel(r.agent)}`;
}

function fieldLines(r: ContextRecord, projectName: string | null): string[] {
  const rows: [string, string | null][] = [
    ['id', r.id],
    ['valid from', r.valid_from],
    ['recorded', r.recorded_at],
    [
      'superseded',
      r.superseded_at
        ? `${r.superseded_at}${r.superseded_by ? ` by ${r.superseded_by}` : ' (closed)'}`
        : null,
    ],
    [
      'seen again',
      r.reinforce_count > 0 ? `${r.reinforce_count} time${r.reinforce_count === 1 ? '' : 's'}` : null,
    ],
    [
      'read',
      r.access_count > 0
        ? `${r.access_count} time${r.access_count === 1 ? '' : 's'}, last ${r.last_accessed ?? '?'}`
        : null,
    ],
    ['ranking score', String(r.score)],
    ['CLAUDE.md drift', r.claudemd_drift_score > 0 ? String(r.claudemd_drift_score) : null],
    ['written by', SOURCE_WORDS[r.source] ?? r.source],
    ['session', r.session_id],
    ['project', r.project_id === '_global' ? 'global profile' : (projectName ?? r.project_id.slice(0, 12))],
  ];
  return rows.filter((x): x is [string, string] => !!x[1]).map(([k, v]) => `${`${k}:`.padEnd(17)}${v}`);
}

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
  group: 'everyday',
  line: 'one record in full, with its supersession chain',
  options: {
    ...TIME_OPTIONS,
  },
  examples: [
    'agentctx show 01JDQ8ZK4M3N5P7Q9R1S3T5V7W',
    'agentctx show 01JDQ8ZK4M3N5P7Q9R1S3T5V7W --as-of 2026-06-01',
  ],
  run({ args, app }) {
    const id = args.positionals[0];
    if (!id) throw new AgentctxError('usage', 'show needs a record id');
    const time = timeTravelFrom(args.flags);
    const a = app();
    const db = a.readDb; // reads only: works on a full disk or a read-only home too
    const asked = requireVisible({ db, clock: a.clock, newId: a.newId, projectId: a.project.id }, id);
    const record = time ? versionAt(db, asked.id, time) : asked;
    // in date order, as labelled: after a team conflict the supersession order is not the dates'
    const byDate = supersessionChain(db, record.id).sort(
      (x, y) => x.valid_from.localeCompare(y.valid_from) || x.recorded_at.localeCompare(y.recorded_at),
    );
    const chain = byDate.map((r) => ({
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
      `${record.type} · ${record.scope} · ${record.confidence}${record.pinned ? ' · pinned' : ''} · ${provenance(record)}${record.superseded_at ? ` · superseded ${record.superseded_at} by ${record.superseded_by}` : ''}`,
      '',
      record.body,
      '',
      ...fieldLines(record, record.project_id === a.project.id ? a.project.name : null),
      `usage: shown in ${plural(usage.shown_count, 'session')}, used in ${usage.used_count}, contradicted in ${usage.contradicted_count}`,
      ...(chain.length > 1
        ? [
            '',
            'supersession chain (by date valid from, oldest first):',
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
