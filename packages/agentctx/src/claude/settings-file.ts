/**
 * Claude Code's settings file: where it lives, and its text parsed into a tree with the
 * containers agentctx edits checked. A malformed file is a clear error naming the file.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AgentctxError } from '../shared/errors.js';
import {
  type JsonArray,
  type JsonNode,
  type JsonObject,
  JsonSyntaxError,
  parseJsonTree,
} from './json-text.js';

type Env = Record<string, string | undefined>;

/** Claude Code's config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

export function userSettingsPath(env: Env): string {
  return join(claudeConfigDir(env), 'settings.json');
}

export function projectSettingsPath(repoRoot: string): string {
  return join(repoRoot, '.claude', 'settings.json');
}

/** A settings file's text parsed, or a one-line error naming the file. Empty text counts as `{}`. */
export function parseSettings(text: string | null, path: string): { text: string; root: JsonObject } {
  const src = text === null || text.trim() === '' ? '{}\n' : text;
  let root: JsonNode;
  try {
    root = parseJsonTree(src);
  } catch (err) {
    const why = err instanceof JsonSyntaxError ? err.message : String(err);
    throw new AgentctxError(
      'malformed_settings',
      `${path} is not valid JSON (${why}); fix it and run again`,
      {
        path,
      },
    );
  }
  if (root.kind !== 'object') {
    throw new AgentctxError('malformed_settings', `${path} must hold a JSON object; fix it and run again`, {
      path,
    });
  }
  return { text: src, root };
}

export interface SettingsPlan {
  /** The new file text (unchanged text when nothing changes). */
  text: string;
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
}

export function expectObject(node: JsonNode | undefined, what: string, path: string): JsonObject | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'object')
    throw new AgentctxError(
      'malformed_settings',
      `${what} in ${path} is not an object; fix it and run again`,
      {
        path,
      },
    );
  return node;
}

export function expectArray(node: JsonNode | undefined, what: string, path: string): JsonArray | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'array')
    throw new AgentctxError(
      'malformed_settings',
      `${what} in ${path} is not an array; fix it and run again`,
      {
        path,
      },
    );
  return node;
}
