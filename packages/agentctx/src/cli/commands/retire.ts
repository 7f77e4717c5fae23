import { retireRecord } from '../../core/records/retire.js';
import { AgentctxError } from '../../shared/errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'retire',
  summary: 'Close a record that is no longer true, without a successor (it stays in history).',
  usage: 'agentctx retire ID [--json]',
  group: 'everyday',
  line: 'close a record that is no longer true, without a successor (kept in history)',
  options: {},
  examples: ['agentctx retire 01JDQ8…'],
  run({ args, app }) {
    const [id, ...rest] = args.positionals;
    if (!id || rest.length > 0) throw new AgentctxError('usage', 'retire needs exactly one record id');
    const r = retireRecord(app().records(), id);
    return {
      json: { id: r.id, superseded_at: r.superseded_at },
      text: `retired ${r.id}: kept in history, no longer shown`,
    };
  },
};
