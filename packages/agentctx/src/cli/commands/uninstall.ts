import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SESSION_STATE_FILE } from '../../app/paths.js';
import { uninstallFromClaude } from '../../claude/install.js';
import { registration } from '../../claude/registration.js';
import { codexInstalledHooks } from '../../codex/install.js';
import { AgentctxError } from '../../shared/errors.js';
import { bool } from '../args.js';
import type { Command } from '../command.js';
import {
  type AgentFailure,
  failureLines,
  hookFileLines,
  othersUninstallLines,
  parseAgentChoice,
  uninstallHookFileAgents,
  uninstallOthers,
} from '../init-agents.js';
import { codexUninstallLines, uninstallFromCodex } from '../init-codex.js';

/**
 * The session dedup files (`$TMPDIR/agentctx-<session>.json`, app/paths.ts) outlive a purge of
 * the home: remove this user's own regular files of that name, nothing else in the folder.
 */
function removeSessionFiles(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let n = 0;
  for (const name of names) {
    if (!SESSION_STATE_FILE.test(name)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
      rmSync(path, { force: true });
      n++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return n;
}

export const command: Command = {
  name: 'uninstall',
  summary:
    'Remove what init added: the agentctx hooks, their trust and the MCP server registration, in Claude Code, Codex, Qwen Code, Gemini CLI, OpenCode, Cursor and Copilot CLI (--agent picks one; --purge also deletes ~/.agentctx).',
  usage:
    'agentctx uninstall [--agent claude-code|codex|qwen|gemini|opencode|cursor|copilot|all] [--project] [--purge [--yes]] [--json]',
  group: 'setup',
  line: 'remove what init added, in every agent (--purge also deletes ~/.agentctx)',
  options: {
    agent: {
      kind: 'string',
      help: 'only this agent: claude-code, codex, qwen, gemini, opencode, cursor, copilot or all (the default)',
    },
    project: { kind: 'boolean', help: "remove the hooks from this repository's .claude/settings.json" },
    purge: { kind: 'boolean', help: 'also delete ~/.agentctx (asks first)' },
    yes: { kind: 'boolean', help: 'do not ask' },
  },
  examples: ['agentctx uninstall', 'agentctx uninstall --agent codex', 'agentctx uninstall --purge --yes'],
  async run({ args, app, io }) {
    const agent = parseAgentChoice(args.flags.agent, 'all');
    const a = app();
    const purge = bool(args.flags, 'purge');
    const home = resolve(a.paths.home);
    if (purge) {
      const userHome = resolve(a.env.HOME || homedir());
      if (home === '/' || home === userHome) {
        throw new AgentctxError(
          'usage',
          `refusing to purge ${home}: AGENTCTX_HOME points at a folder that is not agentctx's`,
        );
      }
      if (!bool(args.flags, 'yes')) {
        // a "y" piped in is not a person's answer to a question about deleting every record
        if (!io.stdinIsTTY)
          throw new AgentctxError(
            'usage',
            `--purge deletes ${home} and every record in it, and asks only on a terminal: an answer piped in (such as "y") is not taken; pass --yes to confirm`,
          );
        if (!(await io.confirm(`Delete ${home} and every record in it?`))) {
          return { json: { uninstalled: false, purged: false }, text: 'nothing changed', exitCode: 1 };
        }
      }
    }
    const project = bool(args.flags, 'project');
    const codexState = join(a.paths.home, 'codex-install-state.json');
    const withCodex =
      agent === 'codex' ||
      (agent === 'all' && (existsSync(codexState) || Object.keys(codexInstalledHooks(a.env)).length > 0));
    const codex = withCodex ? uninstallFromCodex({ env: a.env, stateFile: codexState }) : null;
    const agentsState = join(a.paths.home, 'agents-install-state.json');
    const failures: AgentFailure[] = [];
    const others = uninstallOthers(agent, a.env, agentsState, failures);
    const hookFiles = uninstallHookFileAgents(agent, a.env, agentsState, failures);
    const skipped = { path: '', changed: false, added: [], updated: [], removed: [] };
    const report =
      agent !== 'claude-code' && agent !== 'all'
        ? { settings: skipped, mcp: { ...skipped, method: 'none' as const, note: undefined } }
        : uninstallFromClaude({
            env: a.env,
            projectRoot: project ? a.project.root : null,
            stateFile: join(a.paths.home, 'install-state.json'),
          });
    let sessionFiles = 0;
    if (purge) {
      a.close();
      rmSync(home, { recursive: true, force: true });
      sessionFiles = removeSessionFiles(a.paths.tmp);
    }
    // the plugin is Claude Code's to remove; say so rather than leave the user guessing
    const plugin = registration(a.env, a.project.root).plugin.map((p) => p.id);
    const json = {
      uninstalled: true,
      plugin,
      settings: report.settings,
      mcp: report.mcp,
      codex,
      agents: others,
      hookFileAgents: hookFiles,
      agentFailures: failures,
      purged: purge ? home : null,
      ...(purge ? { session_files_removed: sessionFiles } : {}),
    };
    const claudeLines = [
      report.settings.changed
        ? `hooks: removed ${report.settings.removed.join(', ')} (${report.settings.path})`
        : `hooks: none of ours in ${report.settings.path}`,
      report.mcp.changed
        ? `mcp server: removed from ${report.mcp.path}`
        : `mcp server: ${report.mcp.note ?? `not registered in ${report.mcp.path}`}`,
    ];
    const lines = [
      ...(agent === 'claude-code' || agent === 'all' ? claudeLines : []),
      ...(codex ? codexUninstallLines(codex) : []),
      ...othersUninstallLines(others),
      ...hookFileLines(hookFiles, 'uninstall'),
      ...failureLines(failures, 'uninstall'),
      purge
        ? `deleted ${home}${sessionFiles ? ` and ${sessionFiles} session file${sessionFiles === 1 ? '' : 's'} in ${a.paths.tmp}` : ''}`
        : `kept ${home} (--purge deletes it)`,
      ...plugin.map(
        (id) =>
          `plugin: ${id} is still enabled in Claude Code: claude plugin uninstall ${id}, then claude plugin marketplace remove ${id.split('@')[1] ?? id} removes its marketplace`,
      ),
    ];
    return { json, text: lines.join('\n'), ...(failures.length > 0 ? { exitCode: 1 } : {}) };
  },
};
