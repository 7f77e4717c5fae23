import {
  appendMember,
  applyEdit,
  getProp,
  type JsonObject,
  removeMember,
  replaceValue,
  toValue,
} from '../claude/json-text.js';
import { planInstallHooks, planRemoveHooks } from '../claude/settings.js';
import { expectObject, parseSettings } from '../claude/settings-file.js';
import type { HookSpec } from '../claude/settings-hook-entries.js';

/**
 * The edits of an agent's JSON settings file that holds Claude Code-shaped `hooks` and an
 * `mcpServers` object (Qwen Code, Gemini CLI): our hook entries and `mcpServers.agentctx` in,
 * and out again leaving every other byte as it was. What a removal needs to restore the text
 * exactly (containers that were empty, a server entry we replaced) is returned as `restore`.
 */

const MCP_KEY = 'agentctx';

export interface JsonSettingsRestore {
  /** Containers init found empty, by dotted path, with their inner text. */
  empty: Record<string, string>;
  /** The text of an `mcpServers.agentctx` value that init replaced. */
  replacedMcp?: string;
}

interface JsonSettingsPlan {
  text: string;
  changed: boolean;
  hooksAdded: string[];
  hooksUpdated: string[];
  mcp: 'added' | 'updated' | 'unchanged';
  restore: JsonSettingsRestore;
}

function servers(root: JsonObject, path: string, key: string): JsonObject | undefined {
  return expectObject(getProp(root, key)?.value, `"${key}"`, path);
}

/** Our hooks (`specs`) and `mcpServers.agentctx` = `entry` in `current` (null: no file). */
export function planJsonSettingsInstall(
  current: string | null,
  path: string,
  specs: readonly HookSpec[],
  entry: Record<string, unknown>,
  serversKey = 'mcpServers',
): JsonSettingsPlan {
  const hooks = planInstallHooks(current, path, specs);
  let text = hooks.text;
  const { root } = parseSettings(text, path);
  const s = servers(root, path, serversKey);
  const empty: Record<string, string> = { ...hooks.emptyBefore };
  if (s && s.props.length === 0) empty[serversKey] = text.slice(s.start + 1, s.end - 1);
  const existing = s ? getProp(s, MCP_KEY) : undefined;
  let mcp: JsonSettingsPlan['mcp'] = 'added';
  let replacedMcp: string | undefined;
  if (existing && JSON.stringify(toValue(existing.value)) === JSON.stringify(entry)) mcp = 'unchanged';
  else if (existing) {
    mcp = 'updated';
    replacedMcp = text.slice(existing.value.start, existing.value.end);
    text = applyEdit(text, replaceValue(text, existing.value, entry));
  } else if (s) text = applyEdit(text, appendMember(text, s, entry, MCP_KEY));
  else text = applyEdit(text, appendMember(text, root, { [MCP_KEY]: entry }, serversKey));
  return {
    text,
    changed: text !== (current ?? ''),
    hooksAdded: hooks.added,
    hooksUpdated: hooks.updated,
    mcp,
    restore: { empty, ...(replacedMcp !== undefined ? { replacedMcp } : {}) },
  };
}

/** Every hook of ours and `mcpServers.agentctx` out of `current`, restoring what init changed. */
export function planJsonSettingsRemove(
  current: string,
  path: string,
  restore: JsonSettingsRestore = { empty: {} },
  serversKey = 'mcpServers',
): { text: string; hooksRemoved: string[]; mcpRemoved: boolean } {
  const hooks = planRemoveHooks(current, path, restore.empty);
  let text = hooks.changed ? hooks.text : current;
  const { root } = parseSettings(text, path);
  const s = servers(root, path, serversKey);
  const idx = s ? s.props.findIndex((p) => p.key === MCP_KEY) : -1;
  if (!s || idx < 0) return { text, hooksRemoved: hooks.removed, mcpRemoved: false };
  const prop = s.props[idx]!;
  if (restore.replacedMcp !== undefined) {
    text = applyEdit(text, { start: prop.value.start, end: prop.value.end, text: restore.replacedMcp });
  } else if (s.props.length === 1 && restore.empty[serversKey] !== undefined) {
    text = applyEdit(text, { start: s.start + 1, end: s.end - 1, text: restore.empty[serversKey] });
  } else if (s.props.length === 1) {
    text = applyEdit(text, removeMember(text, root, root.props.lastIndexOf(getProp(root, serversKey)!)));
  } else text = applyEdit(text, removeMember(text, s, idx));
  return { text, hooksRemoved: hooks.removed, mcpRemoved: true };
}

/** Whether a settings text holds nothing at all (`{}` with only whitespace around). */
export function isEmptyObjectText(text: string): boolean {
  return /^\s*\{\s*\}\s*$/.test(text);
}
