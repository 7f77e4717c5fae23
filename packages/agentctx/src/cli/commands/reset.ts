import { removeDigest } from '../../core/digest/digest-file.js';
import { resetNamespace } from '../../core/records/reset.js';
import { AgentctxError } from '../../shared/errors.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';
import { bool } from '../args.js';
import type { Command } from '../command.js';

export const command: Command = {
  name: 'reset',
  summary: 'Delete everything agentctx stored for this project (and, with --global, the global profile).',
  usage: 'agentctx reset [--global] [--yes] [--json]',
  group: 'maintenance',
  line: "delete this project's records (asks first)",
  options: {
    yes: { kind: 'boolean', help: 'do not ask' },
    global: { kind: 'boolean', help: 'also clear the global profile' },
  },
  examples: ['agentctx reset', 'agentctx reset --global --yes'],
  async run({ args, app, io }) {
    const a = app();
    const global = bool(args.flags, 'global');
    const what = `all records, sessions and graph data of ${a.project.name}${global ? ' and the global profile' : ''}`;
    if (!bool(args.flags, 'yes')) {
      if (!io.stdinIsTTY) throw new AgentctxError('usage', `reset deletes ${what}; pass --yes to confirm`);
      if (!(await io.confirm(`Delete ${what}?`))) {
        return { json: { reset: false }, text: 'nothing deleted', exitCode: 1 };
      }
    }
    const deleted = resetNamespace(a.db, a.project.id).records;
    const globalDeleted = global ? resetNamespace(a.db, GLOBAL_PROJECT).records : 0;
    removeDigest(a.paths.digests, a.project.id);
    return {
      json: {
        reset: true,
        project_id: a.project.id,
        records_deleted: deleted,
        global_records_deleted: globalDeleted,
      },
      text: `deleted ${deleted} records of ${a.project.name}${global ? ` and ${globalDeleted} global records` : ''}`,
    };
  },
};
