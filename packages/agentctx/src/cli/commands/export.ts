import { join, resolve } from 'node:path';
import { exportProfile } from '../../core/profile/profile.js';
import { exportMarkdown } from '../../core/records/export.js';
import { writeFailure } from '../../files/write-error.js';
import { writeOutputFile } from '../../files/write-target.js';
import { bool, str } from '../args.js';
import type { Command } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';
import { count as plural } from '../style.js';
import { TIME_OPTIONS, TIME_USAGE, timeTravelFrom } from '../time-flags.js';

export const command: Command = {
  name: 'export',
  summary: 'Export the project and the global profile as Markdown, grouped by type.',
  usage: `agentctx export [--out FILE] [--history] ${TIME_USAGE} [--json] | agentctx export --profile [--json]`,
  group: 'everyday',
  line: 'the project (or your global profile) as Markdown',
  options: {
    out: { kind: 'string', help: 'write to FILE instead of printing' },
    history: { kind: 'boolean', help: 'include superseded records' },
    profile: { kind: 'boolean', help: 'export the global profile to ~/.agentctx/profile instead' },
    ...TIME_OPTIONS,
  },
  examples: ['agentctx export --out context.md', 'agentctx export --profile'],
  run({ args, app, io }) {
    const time = timeTravelFrom(args.flags);
    const a = app();
    const notice = redactionNotice(io);
    if (bool(args.flags, 'profile')) {
      let res: ReturnType<typeof exportProfile>;
      try {
        res = exportProfile(a.readDb, a.paths.profile, a.clock(), a.redact);
      } catch (err) {
        if (!/^E[A-Z]+$/.test(String((err as { code?: unknown })?.code ?? ''))) throw err;
        // a read-only or full home: say so, not Node's ENOENT of the folder it could not create
        throw writeFailure('the profile export', join(a.paths.profile, 'profile.md'), err);
      }
      notice.onRedacted(res.redacted);
      notice.flush();
      return { json: res, text: `wrote ${plural(res.entries, 'global preference')} to ${res.path}` };
    }
    const { markdown, count, redacted } = exportMarkdown(
      a.readDb,
      a.project,
      a.clock(),
      bool(args.flags, 'history'),
      a.redact,
      time,
    );
    notice.onRedacted(redacted);
    notice.flush();
    const out = str(args.flags, 'out');
    if (out) {
      const path = resolve(out);
      writeOutputFile(path, markdown, 0o644);
      return { json: { path, records: count }, text: `wrote ${plural(count, 'record')} to ${path}` };
    }
    return { json: { records: count, markdown }, text: markdown };
  },
};
