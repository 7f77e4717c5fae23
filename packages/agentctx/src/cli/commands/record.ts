import { createRecord } from '../../core/records/records.js';
import { bool, str } from '../args.js';
import type { Command } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';

export const command: Command = {
  name: 'record',
  summary: 'Record a decision, convention, preference, discovery, bugfix, handover or profile fact.',
  usage:
    'agentctx record --type TYPE --title TITLE --body BODY [--scope project|global] [--supersedes ID] [--pin] [--json]',
  group: 'everyday',
  line: 'record a decision, convention, preference, … yourself',
  options: {
    type: {
      kind: 'string',
      help: 'decision, convention, preference, discovery, bugfix, handover or profile',
    },
    title: { kind: 'string', help: 'one line, at most 120 characters' },
    body: { kind: 'string', help: 'the fact and its rationale, at most 2,000 characters' },
    scope: { kind: 'string', help: 'project (default) or global (your preferences everywhere)' },
    supersedes: { kind: 'string', help: 'id of the current record this one replaces' },
    pin: { kind: 'boolean', help: 'always show it in the digest' },
  },
  examples: [
    'agentctx record --type decision --title "SQLite in WAL mode" --body "Concurrent hook processes write."',
    'agentctx record --type preference --scope global --title "Small commits" --body "Each with its test."',
  ],
  run({ args, app, io }) {
    const f = args.flags;
    const notice = redactionNotice(io);
    const rec = createRecord(
      { ...app().records(), onRedacted: notice.onRedacted },
      {
        type: str(f, 'type'),
        title: str(f, 'title'),
        body: str(f, 'body'),
        scope: str(f, 'scope') ?? 'project',
        supersedes: str(f, 'supersedes') ?? null,
        pinned: bool(f, 'pin'),
        confidence: 'explicit',
        source: 'cli',
      },
    );
    const json: Record<string, unknown> = { id: rec.id };
    const superseded = str(f, 'supersedes');
    if (superseded) json.superseded = superseded;
    const redacted = notice.flush();
    if (redacted) json.redacted = redacted;
    return { json, text: `recorded ${rec.type} ${rec.id}${superseded ? ` (supersedes ${superseded})` : ''}` };
  },
};
