import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeUserFile } from '../claude/install.js';
import { installedHooks, planInstallHooks, planRemoveHooks } from '../claude/settings.js';
import { parseSettings } from '../claude/settings-file.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { ensurePrivateDir } from '../files/private-dir.js';
import { errorMessage } from '../shared/errors.js';
import {
  type CodexHookEntry,
  findCodexCli,
  listHooks,
  listHooksWithWarnings,
  openAppServer,
  trustHooks,
} from './app-server.js';
import { MCP_TABLE, mcpTable, type TomlEdit, trustTable, undoEdits, upsertTable } from './config-file.js';
import { CODEX_HOOK_SPECS, codexConfigPath, codexHome, codexHooksPath } from './hooks-file.js';
import { CODEX_PLUGIN_NAME, enabledCodexPlugin } from './plugin-install.js';
import { lineEnding } from './toml-text.js';

type Env = Record<string, string | undefined>;

/** What init changed in Codex's files, kept in `<agentctx home>/codex-install-state.json`. */
interface CodexState {
  hooksExisted?: boolean;
  hooksEmptyBefore?: Record<string, string>;
  configExisted?: boolean;
  edits?: TomlEdit[];
}

function readState(file: string): Record<string, CodexState> {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, CodexState>) : {};
  } catch {
    return {};
  }
}

function writeState(file: string, state: Record<string, CodexState>): void {
  ensurePrivateDir(dirname(file));
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

const readOrNull = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);

interface CodexTrustReport {
  status: 'trusted' | 'already' | 'skipped' | 'failed';
  /** The hook keys trusted now. */
  keys: string[];
  /** Why not, when skipped or failed. */
  reason?: string;
  /** Codex's own text was kept (agentctx could not re-apply the entries surgically). */
  codexFormatted?: boolean;
}

export interface CodexInstallReport {
  home: string;
  hooks: { path: string; changed: boolean; added: string[]; updated: string[] };
  mcp: { path: string; changed: boolean };
  trust: CodexTrustReport;
  /** The agentctx Codex plugin, when Codex has it enabled: it brings the hooks and the server. */
  plugin?: string;
}

const trustPath = (key: string) => ['hooks', 'state', key];

/** Our hooks among Codex's list: commands `agentctx hook …` in our hooks.json, or the plugin's. */
export function ourCodexHooks(entries: readonly CodexHookEntry[], hooksPath: string): CodexHookEntry[] {
  return entries.filter(
    (e) =>
      (e.sourcePath === hooksPath && (e.command ?? '').trim().startsWith('agentctx hook ')) ||
      isPluginHook(e),
  );
}

const isPluginHook = (e: CodexHookEntry) => (e.pluginId ?? '').startsWith(`${CODEX_PLUGIN_NAME}@`);

/**
 * Trust agentctx's hooks through Codex's app server: `hooks/list` for their keys and hashes,
 * `config/batchWrite` to record them (Codex's own writer), then the same entries are put into
 * the user's text as tables appended at its end (Codex's writer normalises the whole file:
 * line endings, dotted keys) and Codex is asked again whether they are trusted. When it says
 * no, Codex's own text is put back.
 */
async function trust(
  env: Env,
  cwd: string,
  configPath: string,
  pick: (entries: readonly CodexHookEntry[]) => CodexHookEntry[],
) {
  const codex = findCodexCli(env);
  const none = { edits: [] as TomlEdit[] };
  if (!codex)
    return {
      ...none,
      report: { status: 'skipped', keys: [], reason: 'codex is not on PATH' } as CodexTrustReport,
    };
  let server: Awaited<ReturnType<typeof openAppServer>> | undefined;
  try {
    server = await openAppServer(codex, { env, cwd });
    const listed = await listHooksWithWarnings(server, cwd);
    const ours = pick(listed.hooks);
    if (ours.length === 0) {
      const why = listed.warnings.length ? `: ${listed.warnings.join('; ')}` : '';
      const reason = `codex does not list the hooks${why}`;
      return { ...none, report: { status: 'failed', keys: [], reason } as CodexTrustReport };
    }
    const need = ours.filter((e) => e.trustStatus === 'untrusted' || e.trustStatus === 'modified');
    if (need.length === 0) return { ...none, report: { status: 'already', keys: [] } as CodexTrustReport };
    const before = readOrNull(configPath) ?? '';
    await trustHooks(server, need);
    const codexText = readOrNull(configPath) ?? '';
    const keys = need.map((e) => e.key);
    const edits: TomlEdit[] = [];
    const eol = lineEnding(before);
    try {
      let text = before;
      for (const e of need) {
        const r = upsertTable(text, trustPath(e.key), trustTable(e.key, e.currentHash, eol), e.key);
        text = r.text;
        if (r.edit) edits.push(r.edit);
      }
      writeUserFile(configPath, text, 0o600);
      const after = pick(await listHooks(server, cwd));
      if (after.every((e) => e.trustStatus === 'trusted' || e.trustStatus === 'managed'))
        return { edits, report: { status: 'trusted', keys } as CodexTrustReport };
    } catch {
      // the user's text cannot take the tables as written: Codex's own text below
    }
    // our surgical text did not convince Codex: its own record stands
    writeUserFile(configPath, codexText, 0o600);
    return {
      edits: keys.map((k) => ({ added: trustTable(k, '', eol), what: k })),
      report: { status: 'trusted', keys, codexFormatted: true } as CodexTrustReport,
    };
  } catch (err) {
    return { ...none, report: { status: 'failed', keys: [], reason: errorMessage(err) } as CodexTrustReport };
  } finally {
    server?.close();
  }
}

/**
 * Register agentctx with Codex: hooks in `$CODEX_HOME/hooks.json`, the MCP server in
 * config.toml, and trust for the hooks. Both files are read and planned before anything is
 * written, so a malformed file stops the run with nothing changed. When Codex has agentctx's
 * plugin enabled (`codex plugin add`), the plugin brings the hooks and the server: init writes
 * neither and only trusts the plugin's hooks, which Codex otherwise skips as it skips any
 * untrusted hook (as init stays out of the Claude Code plugin's way).
 */
export async function installIntoCodex(opts: {
  env: Env;
  cwd: string;
  stateFile: string;
}): Promise<CodexInstallReport> {
  const hooksPath = codexHooksPath(opts.env);
  const configPath = codexConfigPath(opts.env);
  const hooksText = readOrNull(hooksPath);
  const configText = readOrNull(configPath);
  const plugin = enabledCodexPlugin(configText ?? '');
  const hooksPlan = plugin
    ? { changed: false, text: hooksText ?? '', added: [], updated: [], emptyBefore: {} }
    : planInstallHooks(hooksText, hooksPath, CODEX_HOOK_SPECS);
  const mcp = plugin
    ? { text: configText ?? '', edit: null }
    : upsertTable(configText ?? '', MCP_TABLE, mcpTable(lineEnding(configText ?? '')), 'mcp');
  const all = readState(opts.stateFile);
  const st: CodexState = all[configPath] ?? {};
  if (st.hooksExisted === undefined) st.hooksExisted = hooksText !== null;
  if (st.configExisted === undefined) st.configExisted = configText !== null;
  st.hooksEmptyBefore = { ...hooksPlan.emptyBefore, ...(st.hooksEmptyBefore ?? {}) };
  ensurePrivateDir(codexHome(opts.env));
  if (hooksPlan.changed) writeUserFile(hooksPath, hooksPlan.text, 0o644);
  if (mcp.edit) writeUserFile(configPath, mcp.text, 0o600);
  st.edits = [...(st.edits ?? []), ...(mcp.edit ? [mcp.edit] : [])];
  all[configPath] = st;
  writeState(opts.stateFile, all);
  const t = await trust(opts.env, opts.cwd, configPath, (entries) =>
    plugin ? entries.filter((e) => e.pluginId === plugin) : ourCodexHooks(entries, hooksPath),
  );
  st.edits = [...st.edits, ...t.edits];
  writeState(opts.stateFile, { ...readState(opts.stateFile), [configPath]: st });
  return {
    home: codexHome(opts.env),
    hooks: {
      path: hooksPath,
      changed: hooksPlan.changed,
      added: hooksPlan.added,
      updated: hooksPlan.updated,
    },
    mcp: { path: configPath, changed: mcp.edit !== null },
    trust: t.report,
    ...(plugin ? { plugin } : {}),
  };
}

export interface CodexUninstallReport {
  hooks: { path: string; changed: boolean; removed: string[]; deleted: boolean };
  config: { path: string; changed: boolean; removed: string[]; deleted: boolean };
  /** The agentctx Codex plugin, still installed (Codex's own command removes it). */
  plugin?: string;
}

/** Remove what installIntoCodex added, and only that. */
export function uninstallFromCodex(opts: { env: Env; stateFile: string }): CodexUninstallReport {
  const hooksPath = codexHooksPath(opts.env);
  const configPath = codexConfigPath(opts.env);
  const all = readState(opts.stateFile);
  const st = all[configPath] ?? {};
  const hooksText = readOrNull(hooksPath);
  const hooksPlan = planRemoveHooks(hooksText, hooksPath, st.hooksEmptyBefore ?? {});
  let hooksDeleted = false;
  if (hooksPlan.changed) {
    // a file init created goes again when nothing but ours was in it
    const empty = parseSettings(hooksPlan.text, hooksPath).root.props.length === 0;
    if (st.hooksExisted === false && empty) {
      rmSync(hooksPath, { force: true });
      hooksDeleted = true;
    } else writeUserFile(hooksPath, hooksPlan.text, 0o644);
  }
  const configText = readOrNull(configPath);
  let config = { changed: false, removed: [] as string[], deleted: false };
  if (configText !== null) {
    const edits = st.edits ?? [{ added: mcpTable(lineEnding(configText)), what: 'mcp' }];
    const undone = undoEdits(configText, edits, (e) => (e.what === 'mcp' ? MCP_TABLE : trustPath(e.what)));
    if (undone.text !== configText) {
      if (st.configExisted === false && undone.text.trim() === '') {
        rmSync(configPath, { force: true });
        config = { changed: true, removed: undone.undone, deleted: true };
      } else {
        writeUserFile(configPath, undone.text, 0o600);
        config = { changed: true, removed: undone.undone, deleted: false };
      }
    }
  }
  delete all[configPath];
  if (existsSync(opts.stateFile)) writeState(opts.stateFile, all);
  const plugin = enabledCodexPlugin(readOrNull(configPath) ?? '');
  return {
    hooks: { path: hooksPath, changed: hooksPlan.changed, removed: hooksPlan.removed, deleted: hooksDeleted },
    config: { path: configPath, ...config },
    ...(plugin ? { plugin } : {}),
  };
}

/**
 * agentctx's hook commands in Codex's hooks.json, by event (status, doctor); when there are none
 * and Codex has the agentctx plugin enabled, the plugin's events (its hooks file is generated
 * from the same table).
 */
export function codexInstalledHooks(env: Env): Record<string, string[]> {
  const p = codexHooksPath(env);
  let hooks: Record<string, string[]> = {};
  try {
    hooks = installedHooks(readOrNull(p), p);
  } catch {
    hooks = {};
  }
  if (Object.keys(hooks).length > 0) return hooks;
  const plugin = enabledCodexPlugin(readOrNull(codexConfigPath(env)) ?? '');
  if (!plugin) return hooks;
  return Object.fromEntries(CODEX_HOOK_SPECS.map((s) => [s.event, [`plugin ${plugin}`]]));
}
