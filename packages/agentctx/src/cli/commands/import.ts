import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { autoMemoryDir } from '../../claude/auto-memory.js';
import { readMemoryNotes } from '../../claude/auto-memory-notes.js';
import { importNotes } from '../../core/records/import-notes.js';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';
import { redactionNotice } from '../redaction-notice.js';

const LABEL = 'Claude Code auto-memory';

export const command: Command = {
  name: 'import',
  summary: "Take in another memory's notes as records (Claude Code's auto-memory).",
  usage: 'agentctx import claude-memory [--dir DIR] [--json]',
  group: 'setup',
  line: "take Claude Code's auto-memory notes in as records (a second import adds nothing)",
  options: {
    dir: { kind: 'string', help: "read the notes from DIR instead of this project's auto-memory folder" },
  },
  examples: ['agentctx import claude-memory', 'agentctx import claude-memory --json'],
  run({ args, app, io }) {
    const what = args.positionals[0];
    if (what !== 'claude-memory') {
      throw new AgentctxError(
        'invalid_input',
        `import needs a source: claude-memory${what ? ` (got ${JSON.stringify(what)})` : ''}`,
        { field: 'source' },
      );
    }
    const a = app();
    const given = str(args.flags, 'dir');
    const dir = given
      ? resolve(given)
      : autoMemoryDir(a.env, a.project.mainRoot ?? a.project.root, a.project.root);
    if (!existsSync(dir)) {
      const json = { dir, files: 0, created: [], superseded: [], unchanged: 0, unreadable: [] };
      return {
        json,
        text: `no Claude Code auto-memory for this project (${dir} does not exist): nothing to import`,
      };
    }
    const read = readMemoryNotes(dir);
    const notice = redactionNotice(io);
    const res = importNotes(
      { ...a.records(), onRedacted: notice.onRedacted },
      read.notes.map((n) => ({
        origin: n.file,
        ownsOrigin: n.file !== 'MEMORY.md',
        kind: n.kind,
        title: n.title,
        body: n.body,
      })),
      LABEL,
    );
    const json: Record<string, unknown> = {
      dir,
      files: read.files.length,
      notes: read.notes.length,
      created: res.created,
      superseded: res.superseded,
      unchanged: res.unchanged,
      unreadable: read.unreadable,
    };
    const redacted = notice.flush();
    if (redacted) json.redacted = redacted;
    const lines = [
      `${LABEL}: ${read.notes.length} notes in ${read.files.length} files (${dir})`,
      `imported ${res.created.length} (${res.superseded.length} replacing an earlier import), ${res.unchanged} already in the store`,
    ];
    if (read.unreadable.length) lines.push(`not read: ${read.unreadable.join(', ')}`);
    if (res.created.length)
      lines.push('imported notes are unconfirmed (inferred) until a session or you confirm them');
    return { json, text: lines.join('\n') };
  },
};
