import { AgentctxError } from '../shared/errors.js';
import { lineEnding, samePath, separatorBefore, tableHeaders, tomlKey, tomlString } from './toml-text.js';

/**
 * agentctx's tables in Codex's config.toml, added at the end of the file and removed again:
 * `[mcp_servers.agentctx]`, and one `[hooks.state."<hook key>"]` per hook it trusted. What was
 * appended (with the blank line before it) is remembered, so removal gives back the exact bytes.
 */

export const MCP_TABLE = ['mcp_servers', 'agentctx'];

/**
 * The MCP server entry: `agentctx mcp`, told it serves Codex (the provenance of what it
 * records), with agentctx's own variables passed through (Codex starts MCP servers with a
 * reduced environment).
 */
export function mcpTable(eol: string): string {
  return [
    '[mcp_servers.agentctx]',
    'command = "agentctx"',
    'args = ["mcp"]',
    'env = { AGENTCTX_AGENT = "codex" }',
    'env_vars = ["AGENTCTX_HOME", "AGENTCTX_DISABLE", "AGENTCTX_TMPDIR"]',
    '',
  ].join(eol);
}

/**
 * A hook's trust record. A plugin's hook has a two-part hash in `hooks/list`
 * (`sha256:<hook>/sha256:<plugin files>`), which Codex records as `trusted_hash` and
 * `trusted_content_hash` (measured: its own writer's output for a plugin's hooks).
 */
export function trustTable(key: string, hash: string, eol: string): string {
  const slash = hash.indexOf('/');
  const lines =
    slash < 0
      ? [`trusted_hash = ${tomlString(hash)}`]
      : [
          `trusted_hash = ${tomlString(hash.slice(0, slash))}`,
          `trusted_content_hash = ${tomlString(hash.slice(slash + 1))}`,
        ];
  return [`[hooks.state.${tomlKey(key)}]`, ...lines, ''].join(eol);
}

/** One edit init made: `added` appended at the end, or `added` in place of `removed`. */
export interface TomlEdit {
  added: string;
  removed?: string;
  /** What the edit is, for the report: 'mcp' or the trusted hook's key. */
  what: string;
}

function tableText(text: string, path: readonly string[]): string | null {
  const h = tableHeaders(text).find((t) => !t.array && samePath(t.path, path));
  return h ? text.slice(h.start, h.end) : null;
}

/** Is the table there (as a `[header]` table)? */
export function hasTable(text: string, path: readonly string[]): boolean {
  return tableText(text, path) !== null;
}

/**
 * Put `table` (a whole `[header]` block) in: unchanged when the same text is there; in place
 * of a different table of the same path; else appended after a blank line.
 */
export function upsertTable(
  text: string,
  path: readonly string[],
  table: string,
  what: string,
): { text: string; edit: TomlEdit | null } {
  const eol = lineEnding(text);
  const current = tableText(text, path);
  if (current !== null) {
    // the table as ours would read there: the same lines, whatever blank lines follow
    if (current.trimEnd() === table.trimEnd()) return { text, edit: null };
    const trail = current.slice(current.trimEnd().length);
    const added = `${table.trimEnd()}${trail || eol}`;
    const at = text.indexOf(current);
    return {
      text: text.slice(0, at) + added + text.slice(at + current.length),
      edit: { added, removed: current, what },
    };
  }
  if (path[0] && inlineTable(text, path[0])) {
    throw new AgentctxError(
      'malformed_settings',
      `config.toml defines "${path[0]}" as an inline table; agentctx adds [${path.map(tomlKey).join('.')}] as a table of its own: write "${path[0]}" as [${path[0]}.…] tables and run again`,
    );
  }
  const added = `${separatorBefore(text, eol)}${table}`;
  return { text: text + added, edit: { added, what } };
}

/**
 * A top-level `name = {…}`: an inline table cannot take a `[name.x]` table (dotted keys can,
 * TOML allows sub-tables of tables they define).
 */
function inlineTable(text: string, name: string): boolean {
  const first = tableHeaders(text)[0]?.start ?? text.length;
  return new RegExp(`^\\s*${name}\\s*=`, 'm').test(text.slice(0, first));
}

/**
 * Undo init's edits, newest first: an appended block that is still there, whole, goes (the
 * last occurrence); a replaced table comes back. An edit the user changed since is found by
 * its table header instead and removed (that table only), which cannot restore blank lines.
 */
export function undoEdits(
  text: string,
  edits: readonly TomlEdit[],
  pathOf: (e: TomlEdit) => readonly string[],
): { text: string; undone: string[] } {
  const undone: string[] = [];
  for (const e of [...edits].reverse()) {
    const at = text.lastIndexOf(e.added);
    if (at >= 0) {
      text = text.slice(0, at) + (e.removed ?? '') + text.slice(at + e.added.length);
      undone.push(e.what);
      continue;
    }
    const h = tableHeaders(text).find((t) => !t.array && samePath(t.path, pathOf(e)));
    if (h) {
      text = text.slice(0, h.start) + (e.removed ?? '') + text.slice(h.end);
      undone.push(e.what);
    }
  }
  return { text, undone };
}
