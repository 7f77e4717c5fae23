import { promoteRecords } from '../../core/team/promote.js';
import { AgentctxError } from '../../shared/errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'promote',
  summary: 'Make records team context: the next `agentctx team export` writes them to .agentctx/context.md.',
  usage: 'agentctx promote ID... [--json]',
  group: 'everyday',
  line: 'mark records as team records (they go into .agentctx/context.md)',
  options: {},
  examples: ['agentctx promote 01JDQ8ZK4M3N5P7Q9R1S3T5V7W'],
  run({ args, app }) {
    if (args.positionals.length === 0)
      throw new AgentctxError('usage', 'promote needs one or more record ids');
    const promoted = promoteRecords(app().records(), args.positionals);
    return {
      json: { promoted },
      text: promoted
        .map((p) => `${p.head_id}  ${p.title}${p.already ? ' (already team context)' : ' (promoted)'}`)
        .join('\n'),
    };
  },
};
