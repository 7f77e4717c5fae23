import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * OpenCode has no hook commands: a plugin (a JS module in its config folder's `plugin/`) gets
 * in-process callbacks. agentctx's plugin is this one small module, written by
 * `agentctx init --agent opencode` and removed by uninstall; each callback runs
 * `agentctx hook <event> --agent opencode` with a Claude Code-shaped payload and reads the
 * same output back:
 * - `experimental.chat.system.transform` (before every model request, not persisted): the
 *   session-start context, asked for once per session and pushed as a system part each time;
 * - `chat.message`: the prompt's matching records, as a synthetic text part of the user's
 *   message (persisted, as Claude Code's prompt context is);
 * - `tool.execute.after`: capture;
 * - the `session.idle` event (end of a turn): the session's messages written as JSON lines to
 *   `<agentctx home>/opencode-sessions/<session>.jsonl`, then Stop, which extracts from them.
 * - `dispose` (OpenCode tearing the plugin down before it exits; measured with `opencode run`,
 *   after the last `session.idle`): SessionEnd for each session this plugin saw, in a detached
 *   process OpenCode does not wait for, which starts consolidation.
 * A failing or missing agentctx never breaks OpenCode: every call is caught and yields nothing.
 */

export const OPENCODE_PLUGIN_MARK = '// agentctx plugin for OpenCode';

export const OPENCODE_PLUGIN_SOURCE = `${OPENCODE_PLUGIN_MARK} (written by \`agentctx init --agent opencode\`; \`agentctx uninstall\` removes it)
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// a child process, awaited without blocking OpenCode's event loop; any failure yields ''
function hook(event, payload) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn('agentctx', ['hook', event, '--agent', 'opencode'], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      return resolve('');
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.on('error', () => {
      clearTimeout(timer);
      resolve('');
    });
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const v = out ? JSON.parse(out) : null;
        const text = v && v.hookSpecificOutput && v.hookSpecificOutput.additionalContext;
        resolve(typeof text === 'string' ? text : '');
      } catch {
        resolve('');
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

// SessionEnd outlives OpenCode: a detached process with its payload on stdin, not waited for
function endLater(payload) {
  try {
    const child = spawn('agentctx', ['hook', 'session-end', '--agent', 'opencode'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
  } catch {
    // no agentctx: nothing to end
  }
}

function sessionsDir() {
  return join(process.env.AGENTCTX_HOME || join(homedir(), '.agentctx'), 'opencode-sessions');
}

export const AgentctxPlugin = async ({ client, directory }) => {
  const started = new Map();
  const base = (sessionID, name) => ({ session_id: sessionID, cwd: directory, hook_event_name: name });
  // once per session, before its first prompt is looked at (as Claude Code orders them)
  const start = (id) => {
    if (!started.has(id)) started.set(id, hook('session-start', { ...base(id, 'SessionStart'), source: 'startup' }));
    return started.get(id); // one promise per session: concurrent callers share it
  };
  return {
    dispose: async () => {
      for (const id of started.keys()) endLater({ ...base(id, 'SessionEnd'), reason: 'exit' });
      started.clear();
    },
    'experimental.chat.system.transform': async (input, output) => {
      const id = input && input.sessionID;
      if (!id) return;
      const text = await start(id);
      if (text) output.system.push(text);
    },
    'chat.message': async (input, output) => {
      const parts = output.parts || [];
      const prompt = parts.filter((p) => p.type === 'text' && !p.synthetic).map((p) => p.text).join('\\n');
      const last = parts[parts.length - 1];
      if (!prompt.trim() || !last) return;
      await start(input.sessionID);
      const text = await hook('user-prompt-submit', { ...base(input.sessionID, 'UserPromptSubmit'), prompt });
      // an id just after the last part's keeps the part in place (OpenCode sorts parts by id)
      if (text) parts.push({ ...last, id: last.id + 'x', type: 'text', text, synthetic: true });
    },
    'tool.execute.after': async (input, output) => {
      await hook('post-tool-use', {
        ...base(input.sessionID, 'PostToolUse'),
        tool_name: input.tool,
        tool_input: input.args || {},
        tool_response: { output: output && output.output, metadata: output && output.metadata },
      });
    },
    event: async ({ event }) => {
      if (!event || event.type !== 'session.idle') return;
      const id = event.properties && event.properties.sessionID;
      if (!id) return;
      try {
        const res = await client.session.messages({ path: { id } });
        const dir = sessionsDir();
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = join(dir, id.replace(/[^A-Za-z0-9_-]/g, '_') + '.jsonl');
        writeFileSync(file, (res.data || []).map((m) => JSON.stringify(m)).join('\\n') + '\\n', { mode: 0o600 });
        chmodSync(file, 0o600);
        await hook('stop', { ...base(id, 'Stop'), transcript_path: file });
      } catch {
        // no transcript this time: the next idle writes it whole
      }
    },
  };
};
`;

/** OpenCode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function opencodeConfigDir(env: Env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode');
}

export const opencodePluginPath = (env: Env) => join(opencodeConfigDir(env), 'plugin', 'agentctx.js');
export const opencodeConfigPath = (env: Env) => join(opencodeConfigDir(env), 'opencode.json');

/** `mcp.agentctx` in opencode.json: a local server, its tools offered as `agentctx_<tool>`. */
export const OPENCODE_MCP_ENTRY = {
  type: 'local',
  command: ['agentctx', 'mcp'],
  environment: { AGENTCTX_AGENT: 'opencode' },
  enabled: true,
};
