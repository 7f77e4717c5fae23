import { existsSync } from 'node:fs';
import type { App } from '../../app/context.js';
import { semanticConfig } from '../../app/semantic.js';
import { readDigest } from '../../core/digest/digest-file.js';
import { namespacesOf } from '../../core/records/records.js';
import { checkIntegrity } from '../../database/integrity.js';
import { SCHEMA_VERSION } from '../../database/migrations.js';
import { decideBackend } from '../../llm/select.js';
import { formatAge } from '../../shared/age.js';
import { errorMessage } from '../../shared/errors.js';
import { embeddingStatus } from '../status-embeddings.js';
import { type ExtractionBackends, extractionBackends } from '../status-extraction.js';
import { type Check, fail, ok, warn } from './check.js';

/** Doctor's checks of the agentctx side: the store, extraction, embeddings, the digest. */

export function storeCheck(a: App): { check: Check; usable: boolean } {
  const path = a.paths.db;
  if (!existsSync(path))
    return {
      check: warn(
        'store',
        'store',
        `no store yet at ${path}`,
        'run `agentctx init` (the first session creates it too)',
      ),
      usable: false,
    };
  const r = checkIntegrity(path);
  const details = {
    path,
    integrity_check: r.sqlite,
    fts_integrity_check: r.fts,
    schema_version: r.schemaVersion,
    records: r.records,
  };
  if (r.error || r.sqlite !== 'ok')
    return {
      check: fail(
        'store',
        'store',
        `${path} is damaged: ${r.sqlite.slice(0, 200)}`,
        `move it aside (\`mv ${path} ${path}.broken\`) and run \`agentctx init\` for a new store; to salvage records first: \`sqlite3 ${path}.broken .recover | sqlite3 ${path}\``,
        details,
      ),
      usable: false,
    };
  if (r.fts !== 'ok')
    return {
      check: fail(
        'store',
        'store',
        `the full-text index does not match the records: ${r.fts.slice(0, 200)}`,
        `rebuild it: sqlite3 ${path} "INSERT INTO records_fts(records_fts) VALUES('rebuild')"`,
        details,
      ),
      usable: false,
    };
  if (r.schemaVersion !== null && r.schemaVersion > SCHEMA_VERSION)
    return {
      check: fail(
        'store',
        'store',
        `written by a newer agentctx (schema ${r.schemaVersion}; this one knows ${SCHEMA_VERSION})`,
        'update agentctx: `npm install -g @agentctxhq/agentctx`',
        details,
      ),
      usable: false,
    };
  return {
    check: ok('store', 'store', `${r.records ?? 0} records; integrity_check ok, full-text index ok`, details),
    usable: true,
  };
}

export function extractionCheck(a: App): Check {
  let d: ReturnType<typeof decideBackend>;
  try {
    d = decideBackend(a.config.llm, a.env);
  } catch (err) {
    return fail('extraction', 'extraction', errorMessage(err), `fix or remove ${a.paths.config}`);
  }
  // what the hooks' extractions used, from their rows: the agent's environment is not this one
  let b: ExtractionBackends | null = null;
  try {
    // only a store that exists: doctor never creates a home
    if (existsSync(a.paths.db)) b = extractionBackends(a, a.readDb);
  } catch {
    // no usable store: the shell's decision alone (the store line says what is wrong)
  }
  const details = {
    configured: d.configured,
    active: d.active,
    reason: d.reason,
    ...(b ? { last: b.last, next: b.next } : {}),
  };
  const sessions = b?.last_hook
    ? `; last session extraction: ${b.last_hook.backend ?? 'rules'}${b.next.sessions.known ? `, next in sessions: ${b.next.sessions.backend ?? 'rule-based'}` : ''}`
    : '';
  if (d.active) return ok('extraction', 'extraction', `${d.active}: ${d.reason}${sessions}`, details);
  // asked for a backend that is not there: worth fixing; otherwise rules are the chosen fallback
  if (d.configured === 'api' || d.configured === 'claude-cli' || d.configured === 'codex-cli')
    return warn(
      'extraction',
      'extraction',
      `rule-based: ${d.reason}${sessions}`,
      d.configured === 'api'
        ? 'set ANTHROPIC_API_KEY, or `agentctx config --llm-backend auto`'
        : d.configured === 'codex-cli'
          ? 'install and sign in to the codex CLI (codex login), or `agentctx config --llm-backend auto`'
          : 'install and sign in to the claude CLI, or `agentctx config --llm-backend auto`',
      details,
    );
  return ok('extraction', 'extraction', `rule-based from this shell: ${d.reason}${sessions}`, details);
}

/**
 * The embeddings finding for a config (the saved one, or one `agentctx config` just changed):
 * `config` prints the same summary, so the two never disagree (issue 31 #12).
 */
export async function embeddingsCheck(
  a: App,
  storeUsable: boolean,
  config: App['config'] = a.config,
): Promise<Check> {
  const sc = semanticConfig(config, a.paths, a.env);
  if (!storeUsable) {
    return sc.enabled
      ? warn('embeddings', 'embeddings', 'not checked (no usable store)', 'see the store line')
      : ok('embeddings', 'embeddings', `off: ${sc.offReason ?? 'turned off'}`);
  }
  const s = await embeddingStatus(a.readDb, sc, namespacesOf(a.project.id));
  const e = s.json.embeddings as {
    status: string;
    reason?: string;
    runtime_installed: boolean;
    vectors: number;
    pending: number;
    model: string | null;
    vector_store: string;
  };
  if (e.status === 'on')
    return ok(
      'embeddings',
      'embeddings',
      `on: ${e.model}, ${e.vectors} embedded, ${e.pending} pending (${e.vector_store})`,
      e,
    );
  if (!sc.enabled) return ok('embeddings', 'embeddings', `off: ${e.reason}; retrieval is keyword-only`, e);
  const fix = !e.runtime_installed
    ? '`agentctx init --semantic` installs the semantic layer (transformers.js, ~460 MB) and downloads its model; keyword retrieval works without it'
    : '`agentctx init --semantic` downloads the model';
  return warn('embeddings', 'embeddings', `off: ${e.reason}; retrieval is keyword-only`, fix, e);
}

export function digestCheck(a: App, storeUsable: boolean): Check {
  const digest = readDigest(a.paths.digests, a.project.id);
  const now = a.clock();
  if (!digest?.generated_at)
    return warn(
      'digest',
      'digest',
      `none yet for ${a.project.name}`,
      '`agentctx consolidate` writes it (it also runs after each session)',
    );
  const age = formatAge(digest.generated_at, now);
  const details: Record<string, unknown> = { generated_at: digest.generated_at, tokens: digest.tokens };
  if (storeUsable) {
    const row = a.readDb
      .prepare(
        'SELECT MAX(recorded_at) AS last, COUNT(*) AS n FROM records WHERE project_id = ? AND recorded_at > ?',
      )
      .get(a.project.id, digest.generated_at) as { last: string | null; n: number };
    details.newer_records = row.n;
    const behindMs = row.last ? Date.parse(row.last) - Date.parse(digest.generated_at) : 0;
    if (row.n > 0 && behindMs > 60 * 60_000)
      return warn(
        'digest',
        'digest',
        `written ${age} ago; ${row.n} records are newer`,
        '`agentctx consolidate` (if it keeps falling behind, see the background jobs line)',
        details,
      );
  }
  return ok(
    'digest',
    'digest',
    `written ${age === 'just now' ? 'just now' : `${age} ago`}, ${digest.tokens} tokens`,
    details,
  );
}
