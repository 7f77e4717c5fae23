import { clearIncognito, type IncognitoState, readIncognito, setIncognito } from '../../app/incognito.js';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';

/** The state as one line (status shows it too). */
export function describeIncognito(state: IncognitoState | null): string {
  if (!state) return 'off';
  return state.session
    ? `on for session ${state.session} (since ${state.since}); the next session switches it off`
    : `armed since ${state.since}: the next session to start captures nothing and gets nothing injected`;
}

export const command: Command = {
  name: 'incognito',
  summary:
    'One Claude Code session with nothing captured and nothing injected: the next session (or --session ID), until the session after it.',
  usage: 'agentctx incognito [on|off|status] [--session ID] [--json]',
  group: 'everyday',
  line: 'one session with nothing captured and nothing injected (the next one switches it off)',
  options: {
    session: {
      kind: 'string',
      help: 'this Claude Code session id instead of the next session (the plugin command passes it)',
    },
  },
  examples: ['agentctx incognito', 'agentctx incognito off', 'agentctx incognito status'],
  run({ args, app }) {
    const a = app();
    const sub = args.positionals[0] ?? 'on';
    if (!['on', 'off', 'status'].includes(sub))
      throw new AgentctxError('usage', `incognito takes on, off or status (got ${JSON.stringify(sub)})`);
    const session = str(args.flags, 'session');
    if (session !== undefined && (sub !== 'on' || !/^[A-Za-z0-9_-]{1,128}$/.test(session)))
      throw new AgentctxError(
        'usage',
        sub !== 'on'
          ? '--session goes with on'
          : `--session needs a session id (got ${JSON.stringify(session)})`,
      );
    if (sub === 'status') {
      const state = readIncognito(a.paths);
      return { json: { incognito: state }, text: `incognito ${describeIncognito(state)}` };
    }
    if (sub === 'off') {
      const was = clearIncognito(a.paths);
      return {
        json: { incognito: null, was_on: was },
        text: was ? 'incognito off' : 'incognito was already off',
      };
    }
    const state = setIncognito(a.paths, session ?? null, a.clock());
    const text = state.session
      ? `incognito: this session (${state.session}) captures nothing and gets nothing injected from now on; the next session switches it off`
      : 'incognito: the next session to start, in any agent, captures nothing and gets nothing injected; the session after it switches this off (agentctx incognito off cancels)';
    return { json: { incognito: state }, text };
  },
};
