import { dismissPair, mergePair } from '../../core/consolidation/merge-pair.js';
import { AgentctxError } from '../../shared/errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'merge',
  summary: 'Confirm a near-duplicate pair (the newer record is superseded into the older) or dismiss it.',
  usage: 'agentctx merge ID ID [--dismiss] [--json]',
  group: 'maintenance',
  line: 'confirm or dismiss a near-duplicate pair',
  options: {
    dismiss: { kind: 'boolean', help: 'keep both records and stop proposing the pair' },
  },
  examples: ['agentctx merge 01JDQ8… 01JDQ9…', 'agentctx merge 01JDQ8… 01JDQ9… --dismiss'],
  run({ args, app }) {
    const [x, y, ...rest] = args.positionals;
    if (!x || !y || rest.length > 0) throw new AgentctxError('usage', 'merge needs exactly two record ids');
    const a = app();
    const deps = { db: a.db, clock: a.clock, newId: a.newId, projectId: a.project.id };
    if (args.flags.dismiss === true) {
      const d = dismissPair(deps, x, y);
      return {
        json: { dismissed: true, ...d },
        text: `dismissed: ${d.record_a} and ${d.record_b} stay separate and are not proposed again`,
      };
    }
    const m = mergePair(deps, x, y);
    return {
      json: { merged: true, ...m },
      text: `merged: ${m.superseded} is superseded by ${m.keeper} (kept as history)`,
    };
  },
};
