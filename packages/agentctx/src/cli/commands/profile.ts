import { clearProfile, editProfile, exportProfile, listProfile } from '../../core/profile/profile.js';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';

const USAGE =
  'agentctx profile [show] | profile edit ID --body TEXT [--title TITLE] | profile clear ID | profile export [--json]';

export const command: Command = {
  name: 'profile',
  summary: 'The global developer profile: show it, correct or clear an entry, export it as Markdown.',
  usage: USAGE,
  group: 'setup',
  line: 'your global preferences: show, edit, clear, export',
  options: {
    body: { kind: 'string', help: 'the corrected text (profile edit)' },
    title: { kind: 'string', help: 'a corrected title (profile edit)' },
  },
  examples: ['agentctx profile', 'agentctx profile edit 01JDQ8ZK… --body "Tabs, width 4."'],
  run({ args, app, io }) {
    const [sub = 'show', id, ...rest] = args.positionals;
    if (rest.length > 0)
      throw new AgentctxError('usage', `unexpected argument ${JSON.stringify(rest[0])}; usage: ${USAGE}`);
    const a = app();
    const now = a.clock();
    switch (sub) {
      case 'show': {
        const entries = listProfile(a.db, now);
        const text =
          entries.length === 0
            ? 'No global preferences recorded yet.'
            : [
                'ID                          CONFIDENCE  SEEN  DIGEST  ENTRY',
                ...entries.map(
                  (e) =>
                    `${e.id.padEnd(27)} ${e.confidence.padEnd(11)} ${String(e.reinforce_count + 1).padStart(4)}  ${(e.in_digest ? 'yes' : 'no').padEnd(6)}  ${e.type}: ${e.title}`,
                ),
                '',
                'Inferred entries stay out of the session digest until reinforced. Correct one: agentctx profile edit ID --body TEXT',
              ].join('\n');
        return { json: { entries }, text };
      }
      case 'edit': {
        const body = str(args.flags, 'body');
        if (!id || !body)
          throw new AgentctxError('usage', `profile edit needs an ID and --body TEXT; usage: ${USAGE}`);
        const notice = redactionNotice(io);
        const res = editProfile({ ...a.records(), onRedacted: notice.onRedacted }, id, {
          body,
          title: str(args.flags, 'title'),
        });
        const redacted = notice.flush();
        return {
          json: { old_id: res.old_id, new_id: res.new_id, ...(redacted ? { redacted } : {}) },
          text: `corrected: ${res.old_id} is superseded by ${res.new_id} (explicit)`,
        };
      }
      case 'clear': {
        if (!id) throw new AgentctxError('usage', `profile clear needs an ID; usage: ${USAGE}`);
        const rec = clearProfile(a.db, id, now);
        return {
          json: { cleared: rec.id, superseded_at: rec.superseded_at },
          text: `cleared ${rec.id}: kept as history, no longer used`,
        };
      }
      case 'export': {
        const res = exportProfile(a.db, a.paths.profile, now, a.redact);
        const notice = redactionNotice(io);
        notice.onRedacted(res.redacted);
        notice.flush();
        return { json: res, text: `wrote ${res.entries} entries to ${res.path}` };
      }
      default:
        throw new AgentctxError('usage', `unknown profile action ${JSON.stringify(sub)}; usage: ${USAGE}`);
    }
  },
};
