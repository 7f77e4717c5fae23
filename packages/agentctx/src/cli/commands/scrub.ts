import { runScrub } from '../../app/scrub.js';
import { num } from '../args.js';
import type { Command } from '../command.js';
import { scrubText } from '../scrub-report.js';

export const command: Command = {
  name: 'scrub',
  summary:
    'Remove secrets kept by older versions: redact stored records in place (history too), their index, vectors, digests and logs.',
  usage: 'agentctx scrub [--budget-ms N] [--json]',
  group: 'maintenance',
  line: 'redact secrets stored before the redaction gate, in place (consolidate runs it too)',
  options: {
    'budget-ms': { kind: 'number', help: 'time box in milliseconds' },
  },
  examples: ['agentctx scrub', 'agentctx scrub --json'],
  async run({ args, app }) {
    const a = app();
    const budget = num(args.flags, 'budgetMs');
    const outcome = await runScrub(a, {
      compactAlways: true,
      ...(budget !== undefined ? { budgetMs: Math.max(1, budget) } : {}),
    });
    return { json: outcome, text: scrubText(outcome) };
  },
};
