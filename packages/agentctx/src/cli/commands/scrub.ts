import { runScrub } from '../../app/scrub.js';
import { num } from '../args.js';
import type { Command } from '../command.js';
import { scrubText } from '../scrub-report.js';

export const command: Command = {
  name: 'scrub',
  summary:
    'Remove secrets kept by older versions: redact stored records in place (history too), their index, vectors, digests and logs.',
  usage: 'agentctx scrub [--budget-ms N] [--json]',
  flags: { 'budget-ms': 'number' },
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
