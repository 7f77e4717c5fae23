import { requireVisible } from '../../core/records/records.js';
import { AgentctxError } from '../../shared/errors.js';
import { supersessionChain } from '../../storage/records-repo.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'show',
  summary: 'Show one record, every column, and its supersession chain.',
  usage: 'agentctx show ID [--json]',
  flags: {},
  run({ args, app }) {
    const id = args.positionals[0];
    if (!id) throw new AgentctxError('usage', 'show needs a record id');
    const a = app();
    const db = a.readDb; // reads only: works on a full disk or a read-only home too
    const record = requireVisible({ db, clock: a.clock, newId: a.newId, projectId: a.project.id }, id);
    const chain = supersessionChain(db, record.id).map((r) => ({
      id: r.id,
      title: r.title,
      valid_from: r.valid_from,
      superseded_at: r.superseded_at,
      superseded_by: r.superseded_by,
    }));
    const text = [
      `${record.title}`,
      `${record.type} · ${record.scope} · ${record.confidence}${record.pinned ? ' · pinned' : ''}${record.superseded_at ? ` · superseded ${record.superseded_at} by ${record.superseded_by}` : ''}`,
      '',
      record.body,
      '',
      ...Object.entries(record)
        .filter(([k]) => k !== 'title' && k !== 'body')
        .map(([k, v]) => `${k}: ${v ?? ''}`),
      ...(chain.length > 1
        ? [
            '',
            'supersession chain (oldest first):',
            ...chain.map((c) => `  ${c.id === record.id ? '*' : ' '} ${c.id}  ${c.valid_from}  ${c.title}`),
          ]
        : []),
    ].join('\n');
    return { json: { record, chain }, text };
  },
};
