import { confirmRecord } from '../../core/records/confirm.js';
import { AgentctxError } from '../../shared/errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'confirm',
  summary:
    'Say a record is still true: an inferred one becomes reinforced, and its linked files are anchored again as they are now (it is no longer labelled stale).',
  usage: 'agentctx confirm ID [--json]',
  group: 'everyday',
  line: 'say a record is still true (inferred → reinforced; its files anchored anew, no longer stale)',
  options: {},
  examples: ['agentctx confirm 01JDQ8…'],
  run({ args, app }) {
    const [id, ...rest] = args.positionals;
    if (!id || rest.length > 0) throw new AgentctxError('usage', 'confirm needs exactly one record id');
    const a = app();
    const c = confirmRecord({ ...a.records(), projectRoot: a.project.root }, id);
    const what = [
      c.reinforced ? 'reinforced (was inferred)' : `still ${c.record.confidence}`,
      c.reanchored + c.dropped > 0
        ? `${c.reanchored} file(s) anchored anew, ${c.dropped} gone file(s) dropped`
        : '',
    ].filter(Boolean);
    return {
      json: {
        id: c.record.id,
        confidence: c.record.confidence,
        reinforced: c.reinforced,
        reanchored: c.reanchored,
        dropped: c.dropped,
      },
      text: `confirmed ${c.record.id}: ${what.join('; ')}`,
    };
  },
};
