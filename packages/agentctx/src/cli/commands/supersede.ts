import { supersedeRecord } from '../../core/records/records.js';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';

export const command: Command = {
  name: 'supersede',
  summary: 'Replace a current record with a new version; the old one becomes history.',
  usage: 'agentctx supersede ID --body BODY --rationale WHY [--title TITLE] [--json]',
  group: 'everyday',
  line: 'replace a record with a new version (the old one becomes history)',
  options: {
    body: { kind: 'string', help: 'the new body' },
    rationale: { kind: 'string', help: 'why it changed' },
    title: { kind: 'string', help: 'a new title (the old one is kept otherwise)' },
  },
  examples: [
    'agentctx supersede 01JDQ8ZK… --body "Postgres, for row-level locks." --rationale "multi-writer load"',
  ],
  run({ args, app, io }) {
    const id = args.positionals[0];
    if (!id) throw new AgentctxError('usage', 'supersede needs the id of the record to replace');
    const rationale = str(args.flags, 'rationale');
    if (!rationale?.trim())
      throw new AgentctxError('usage', 'supersede needs --rationale: say why it changed');
    const notice = redactionNotice(io);
    const res = supersedeRecord({ ...app().records(), onRedacted: notice.onRedacted }, id, {
      body: str(args.flags, 'body'),
      rationale,
      title: str(args.flags, 'title'),
      source: 'cli',
    });
    const redacted = notice.flush();
    return {
      json: { old_id: res.old_id, new_id: res.new_id, ...(redacted ? { redacted } : {}) },
      text: `${res.old_id} superseded by ${res.new_id}`,
    };
  },
};
