import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic-write.js';
import { readRegularFile } from '../files/regular-file.js';
import { HOOK_AGENTS, isHookAgent } from '../shared/agents.js';
import { AgentctxError } from '../shared/errors.js';

export interface Config {
  llm: {
    enabled: boolean;
    backend: 'auto' | 'api' | 'claude-cli' | 'codex-cli' | 'off';
    model: string;
    dailyCostCapUsd: number;
  };
  embeddings: { enabled: boolean };
  /**
   * `queryVectors`: embed each ctx_search query in the MCP server (hybrid ranking). Off by
   * default (CONTRACTS.md §rung-1, §inv-6: vectors are offline work): it keeps the embedding
   * model resident in every session's MCP process (QUERY_VECTORS_MEMORY).
   */
  search: { queryVectors: boolean };
  /** Secret redaction: regex sources redacted as `[REDACTED:custom]` on top of the built-in rules. */
  redact: { extraPatterns: string[] };
  modelTier: 'default' | 'quality';
  reinforceThreshold: number;
  /**
   * `isolate`: agents whose records stay with them (app/agent-scope.ts). An isolated agent is
   * shown only its own records, and no other agent is shown them. Empty: one shared store.
   */
  agents: { isolate: string[] };
}

export const DEFAULT_CONFIG: Config = {
  llm: { enabled: true, backend: 'auto', model: 'claude-haiku-4-5', dailyCostCapUsd: 1 },
  embeddings: { enabled: true },
  search: { queryVectors: false },
  redact: { extraPatterns: [] },
  modelTier: 'default',
  reinforceThreshold: 3,
  agents: { isolate: [] },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function merge<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (k === '__proto__') continue; // a JSON key, never the object's prototype
    out[k] = Object.hasOwn(out, k) ? merge(out[k], v) : v;
  }
  return out as T;
}

/** Read config.json over the defaults. A missing file is the defaults; a broken one is an error. */
export function loadConfig(path: string): Config {
  if (!existsSync(path)) return structuredClone(DEFAULT_CONFIG);
  let parsed: unknown;
  const text = readRegularFile(path); // a FIFO or a directory is refused, never waited on
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new AgentctxError(
      'bad_config',
      `${path} is not valid JSON (${(err as Error).message}); fix or remove it`,
    );
  }
  if (!isObject(parsed)) throw new AgentctxError('bad_config', `${path} must hold a JSON object`);
  return merge(structuredClone(DEFAULT_CONFIG), parsed);
}

/** Like loadConfig, but a broken file means defaults (for paths that must never fail). */
export function loadConfigOrDefault(path: string): Config {
  try {
    return loadConfig(path);
  } catch {
    return structuredClone(DEFAULT_CONFIG);
  }
}

export function saveConfig(path: string, config: Config): void {
  writeFileAtomic(path, `${JSON.stringify(config, null, 2)}\n`, 0o600);
}

/** Settable keys: dotted path → how to parse a string value. */
const CONFIG_KEYS: Record<string, (raw: string) => unknown> = {
  'llm.enabled': parseBool,
  'llm.backend': (raw) => oneOf(raw, ['auto', 'api', 'claude-cli', 'codex-cli', 'off']),
  'llm.model': (raw) => {
    if (!raw.trim()) throw new AgentctxError('invalid_input', 'llm.model must not be empty');
    return raw.trim();
  },
  'llm.dailyCostCapUsd': (raw) => positiveNumber(raw, 'llm.dailyCostCapUsd'),
  'embeddings.enabled': parseBool,
  'search.queryVectors': parseBool,
  'redact.extraPatterns': (raw) => {
    // a JSON list of regex sources, or one source; invalid regexes are reported by `agentctx config`
    const t = raw.trim();
    if (!t.startsWith('[')) return t ? [t] : [];
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new AgentctxError('invalid_input', 'redact.extraPatterns: expected a JSON list of strings');
    }
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw new AgentctxError('invalid_input', 'redact.extraPatterns: expected a JSON list of strings');
    return v;
  },
  'agents.isolate': (raw) => {
    // a comma-separated list or a JSON list of agent names; '' or [] shares everything again
    const t = raw.trim();
    let names: unknown = t.startsWith('[')
      ? undefined
      : t
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
    if (names === undefined) {
      try {
        names = JSON.parse(t);
      } catch {
        names = null;
      }
    }
    if (!Array.isArray(names) || !names.every((x) => typeof x === 'string'))
      throw new AgentctxError('invalid_input', 'agents.isolate: expected agent names, e.g. codex,gemini');
    const bad = names.filter((n) => !isHookAgent(n));
    if (bad.length > 0)
      throw new AgentctxError(
        'invalid_input',
        `agents.isolate: unknown agent ${JSON.stringify(bad[0])}; one of ${HOOK_AGENTS.join(', ')}`,
      );
    return [...new Set(names)];
  },
  modelTier: (raw) => oneOf(raw, ['default', 'quality']),
  reinforceThreshold: (raw) => {
    const n = positiveNumber(raw, 'reinforceThreshold');
    if (!Number.isInteger(n) || n < 1)
      throw new AgentctxError('invalid_input', 'reinforceThreshold must be a whole number ≥ 1');
    return n;
  },
};

function parseBool(raw: string): boolean {
  if (/^(true|on|yes|1)$/i.test(raw)) return true;
  if (/^(false|off|no|0)$/i.test(raw)) return false;
  throw new AgentctxError('invalid_input', `expected true or false, got ${JSON.stringify(raw)}`);
}

function oneOf(raw: string, allowed: string[]): string {
  if (!allowed.includes(raw))
    throw new AgentctxError(
      'invalid_input',
      `expected one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  return raw;
}

function positiveNumber(raw: string, key: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new AgentctxError('invalid_input', `${key} must be a number ≥ 0`);
  return n;
}

export function getConfigValue(config: Config, key: string): unknown {
  let cur: unknown = config;
  for (const part of key.split('.')) {
    if (!isObject(cur) || !Object.hasOwn(cur, part))
      throw new AgentctxError('invalid_input', `unknown setting ${JSON.stringify(key)}`);
    cur = cur[part];
  }
  return cur;
}

export function setConfigValue(config: Config, key: string, raw: string): Config {
  const parse = Object.hasOwn(CONFIG_KEYS, key) ? CONFIG_KEYS[key] : undefined;
  if (!parse) {
    throw new AgentctxError(
      'invalid_input',
      `unknown setting ${JSON.stringify(key)}; settable: ${Object.keys(CONFIG_KEYS).join(', ')}`,
    );
  }
  const value = parse(raw);
  const next = structuredClone(config) as unknown as Record<string, unknown>;
  const parts = key.split('.');
  let cur = next;
  for (const part of parts.slice(0, -1)) cur = cur[part] as Record<string, unknown>;
  cur[parts[parts.length - 1]!] = value;
  return next as unknown as Config;
}
