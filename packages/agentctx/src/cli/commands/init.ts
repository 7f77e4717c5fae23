import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig, saveConfig } from '../../app/config.js';
import { type InstallReport, installIntoClaude } from '../../claude/install.js';
import { claudeJsonPath } from '../../claude/mcp-registration.js';
import { registration } from '../../claude/registration.js';
import { type ProfileChanges, refreshProfile } from '../../core/profile/refresh-profile.js';
import { ensurePrivateDir } from '../../files/private-dir.js';
import { decideBackend } from '../../llm/select.js';
import { AgentctxError } from '../../shared/errors.js';
import { bool } from '../args.js';
import type { Command } from '../command.js';
import {
  type AgentFailure,
  failureLines,
  hookFileLines,
  installHookFileAgents,
  installOthers,
  othersFoundLines,
  othersInitLines,
  parseAgentChoice,
} from '../init-agents.js';
import { codexFound, codexInitLines, installIntoCodex } from '../init-codex.js';
import { downloadModel } from '../model-download.js';
import { installRuntime, type RuntimeReport } from '../semantic-install.js';

/** agentctx needs Node 20+; a clear refusal beats a crash deep inside a hook. */
export function assertNodeVersion(version: string): void {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (!Number.isFinite(major) || major < 20) {
    throw new AgentctxError('unsupported_node', `agentctx needs Node.js 20 or newer; this is ${version}`);
  }
}

function describe(label: string, c: { path: string; changed: boolean; added: string[]; updated: string[] }) {
  if (!c.changed) return `${label}: already set up (${c.path})`;
  const parts = [
    c.added.length ? `added ${c.added.join(', ')}` : '',
    c.updated.length ? `updated ${c.updated.join(', ')}` : '',
  ].filter(Boolean);
  return `${label}: ${parts.join('; ') || 'updated'} (${c.path})`;
}

/** What init reports when the plugin is enabled: nothing written, by either side. */
function pluginReport(
  plugin: { id: string; path: string }[],
  env: Record<string, string | undefined>,
): InstallReport {
  const none = { changed: false, added: [], updated: [], removed: [] };
  const path = plugin[0]?.path ?? '';
  return {
    settings: { path, ...none },
    mcp: { path: claudeJsonPath(env), ...none, method: 'none', note: 'registered by the plugin' },
  };
}

export const command: Command = {
  name: 'init',
  summary:
    "Set agentctx up: create ~/.agentctx, register the hooks and the MCP server in Claude Code (--agent codex: in Codex, hooks trusted; --agent qwen|gemini|opencode|cursor|copilot: in that agent's own config; --agent all: every agent found), detect the project profile.",
  usage:
    'agentctx init [--agent claude-code|codex|qwen|gemini|opencode|cursor|copilot|all] [--project] [--no-claude-cli] [--download-model] [--semantic] [--json]   (AGENTCTX_NO_CLAUDE_CLI=1 also edits ~/.claude.json directly)',
  group: 'setup',
  line: 'register the hooks and the MCP server in Claude Code (or Codex); --semantic adds embeddings',
  options: {
    agent: {
      kind: 'string',
      help: 'claude-code (the default), codex (hooks in $CODEX_HOME/hooks.json, trusted through codex app-server; MCP in config.toml), qwen (~/.qwen/settings.json), gemini (~/.gemini/settings.json), opencode (a plugin module and mcp in ~/.config/opencode), cursor (~/.cursor/hooks.json, mcp.json), copilot (~/.copilot/hooks/agentctx.json, mcp-config.json) or all (every agent found)',
    },
    project: {
      kind: 'boolean',
      help: "write the hooks into this repository's .claude/settings.json instead of yours",
    },
    'claude-cli': {
      kind: 'boolean',
      help: 'register the MCP server through `claude mcp add` when claude is on PATH (--no-claude-cli: edit the file)',
    },
    'download-model': { kind: 'boolean', help: 'download the embedding model now' },
    semantic: {
      kind: 'boolean',
      help: 'install the semantic layer (transformers.js) into ~/.agentctx/semantic and download the model',
    },
  },
  examples: [
    'agentctx init',
    'agentctx init --agent codex',
    'agentctx init --agent qwen',
    'agentctx init --agent all',
    'agentctx init --semantic',
  ],
  async run({ args, app, io, json: asJson }) {
    assertNodeVersion(process.versions.node);
    const agent = parseAgentChoice(args.flags.agent, 'claude-code');
    const a = app();
    const project = bool(args.flags, 'project');
    const withClaude = agent === 'claude-code' || agent === 'all';
    const withCodex = agent === 'codex' || (agent === 'all' && codexFound(a.env));
    const useClaudeCli = args.flags.claudeCli !== false && a.env.AGENTCTX_NO_CLAUDE_CLI !== '1';
    if (project && !a.project.isGit) {
      throw new AgentctxError('usage', `--project needs a git repository; ${a.project.root} is not in one`);
    }
    for (const dir of [a.paths.home, a.paths.logs, a.paths.digests, a.paths.locks]) ensurePrivateDir(dir);
    // the Claude Code plugin registers the hooks and the MCP server itself: writing them into a
    // settings file as well would run every hook twice
    const plugin = registration(a.env, a.project.root).plugin;
    const skipped = { changed: false, added: [], updated: [], removed: [] };
    const report: InstallReport = !withClaude
      ? { settings: { path: '', ...skipped }, mcp: { path: '', ...skipped, method: 'none' } }
      : plugin.length > 0
        ? pluginReport(plugin, a.env)
        : installIntoClaude({
            env: a.env,
            projectRoot: project ? a.project.root : null,
            useClaudeCli,
            stateFile: join(a.paths.home, 'install-state.json'),
          });
    const codex = withCodex
      ? await installIntoCodex({
          env: a.env,
          cwd: a.project.root,
          stateFile: join(a.paths.home, 'codex-install-state.json'),
        })
      : null;
    const agentsState = join(a.paths.home, 'agents-install-state.json');
    const failures: AgentFailure[] = [];
    const others = installOthers(agent, a.env, agentsState, failures);
    const hookFiles = installHookFileAgents(agent, a.env, agentsState, failures);
    void a.db; // create the store and run its migrations now, not inside the first hook
    const root = resolve(a.project.root);
    const home = resolve(a.env.HOME || homedir());
    let profile: ProfileChanges | null = null;
    if (a.project.isGit || (root !== home && root !== '/')) profile = refreshProfile(a.records(), root);
    const json = {
      home: a.paths.home,
      store: a.paths.db,
      node: process.version,
      settings: report.settings,
      mcp: report.mcp,
      plugin: plugin.map((p) => p.id),
      codex,
      agents: others,
      hookFileAgents: hookFiles,
      agentFailures: failures,
      project: { id: a.project.id, name: a.project.name, root: a.project.root },
      llm: decideBackend(a.config.llm, a.env),
      profile: profile && {
        created: profile.created,
        updated: profile.updated,
        retired: profile.retired,
        unchanged: profile.unchanged,
        values: profile.profile,
      },
      changed:
        Boolean(codex && (codex.hooks.changed || codex.mcp.changed || codex.trust.keys.length > 0)) ||
        others.some((o) => o.changed) ||
        hookFiles.some((h) => h.hooks.changed || h.mcp.changed) ||
        report.settings.changed ||
        report.mcp.changed ||
        Boolean(profile && (profile.created.length || profile.updated.length || profile.retired.length)),
    };
    const claudeLines =
      plugin.length > 0
        ? [
            `hooks and mcp server: registered by the Claude Code plugin ${plugin.map((p) => p.id).join(', ')} (enabled in ${plugin[0]?.path}); nothing written to settings files`,
          ]
        : [
            describe('hooks', report.settings),
            `${describe('mcp server', report.mcp)}${report.mcp.changed ? ` via ${report.mcp.method}` : ''}`,
            ...(report.mcp.note ? [`  note: ${report.mcp.note}`] : []),
          ];
    const registered = [
      ...(withClaude ? claudeLines : []),
      ...(codex ? codexInitLines(codex) : []),
      ...othersInitLines(others),
      ...hookFileLines(hookFiles, 'init'),
      ...failureLines(failures, 'init'),
      ...(agent === 'claude-code' && codexFound(a.env)
        ? ['also found: Codex (agentctx init --agent codex registers agentctx there too)']
        : []),
      ...(agent === 'claude-code' ? othersFoundLines(a.env) : []),
    ];
    const lines = [
      `agentctx home: ${a.paths.home}`,
      ...registered,
      profile
        ? `profile of ${a.project.name}: ${
            [
              profile.created.length ? `detected ${profile.created.join(', ')}` : '',
              profile.updated.length ? `updated ${profile.updated.join(', ')}` : '',
              profile.retired.length ? `retired ${profile.retired.join(', ')}` : '',
            ]
              .filter(Boolean)
              .join('; ') || 'unchanged'
          }`
        : 'profile: not in a project folder, skipped',
      `extraction backend: ${json.llm.active ?? 'none (rule-based)'}: ${json.llm.reason}`,
    ];
    const semantic = bool(args.flags, 'semantic');
    let runtime: RuntimeReport | undefined;
    if (semantic) {
      // asked for by name: a config that turned embeddings off is turned back on
      if (a.config.embeddings?.enabled === false) {
        saveConfig(a.paths.config, { ...a.config, embeddings: { ...a.config.embeddings, enabled: true } });
        lines.push('embeddings: turned on in config.json');
      }
      runtime = installRuntime(a, { stderr: io.stderr, quiet: asJson });
      lines.push(
        runtime.status === 'failed'
          ? `semantic layer: not installed: ${runtime.reason}`
          : `semantic layer: transformers.js ${runtime.status === 'installed' ? 'installed into' : 'found in'} ${runtime.from === 'home' ? runtime.dir : 'this install'}`,
      );
      if (runtime.status === 'failed')
        return { json: { ...json, semantic: runtime }, text: lines.join('\n'), exitCode: 1 };
    }
    if (semantic || bool(args.flags, 'downloadModel')) {
      // a config written just above is read again
      const fresh = semantic ? { config: loadConfig(a.paths.config), paths: a.paths, env: a.env } : a;
      // raw writes: the progress bar redraws one line
      const model = await downloadModel(fresh, {
        stderr: (t) => process.stderr.write(t),
        tty: process.stderr.isTTY === true,
      });
      lines.push(
        model.status === 'downloaded'
          ? `embedding model ${model.model}: downloaded to ${model.dir}`
          : model.status === 'present'
            ? `embedding model ${model.model}: already in ${model.dir}`
            : model.status === 'off'
              ? `embedding model: not downloaded, embeddings are off (${model.reason})`
              : `embedding model ${model.model}: download failed: ${model.reason}`,
      );
      const failed = model.status === 'failed';
      return {
        json: { ...json, model, ...(runtime ? { semantic: runtime } : {}) },
        text: lines.join('\n'),
        ...(failed ? { exitCode: 1 } : {}),
      };
    }
    const failed = codex?.trust.status === 'failed' || failures.length > 0;
    return { json, text: lines.join('\n'), ...(failed ? { exitCode: 1 } : {}) };
  },
};
