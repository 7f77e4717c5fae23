import { cpSync, rmSync } from 'node:fs';
import { enabled, expectThat, type Property } from './config.js';
import { deleteDerived } from './derived.js';
import type { Model } from './model.js';
import { hookContext, SEARCH_QUERY } from './reads.js';
import { loadRows } from './truth.js';
import { ULID } from './truth-sets.js';
import { PROJECTS, World } from './world.js';

/**
 * CONTRACTS.md §inv-7, end to end. The world is copied twice at one virtual instant; in the second
 * copy every derived artefact is deleted. Both copies then run the documented rebuild (`agentctx
 * consolidate` in each project) and every read path, with the clock in tick mode, so that the
 * two runs see identical times. Every output must be equal. Read outputs with side effects
 * (ctx_get counts an access, SessionEnd flushes the session's counts) are fine: each copy
 * takes the same reads in the same order.
 *
 * "Equal" means: the same JSON / text after replacing the copy's folder with one name, ids
 * minted during the rebuild (unknown before it) with placeholders in order of appearance, and
 * dropping wall-clock durations (`duration_ms`), which no clock controls.
 */

const REBUILD_PROPERTIES: Property[] = [
  'rebuild-equal',
  'rebuild-term-counts',
  'rebuild-sessions',
  'rebuild-merge-candidates',
];

type Outputs = Record<string, string>;

function normalise(text: string, dir: string, known: ReadonlySet<string>): string {
  const fresh = new Map<string, string>();
  return (
    text
      .split(dir)
      .join('<world>')
      // Claude Code's folder name for a directory under the world (status: auto-memory)
      .split(dir.replace(/[^A-Za-z0-9]/g, '-'))
      .join('<world>')
      .replace(ULID, (id) => {
        if (known.has(id)) return id;
        if (!fresh.has(id)) fresh.set(id, `<new-${fresh.size + 1}>`);
        return fresh.get(id)!;
      })
      .replace(/"duration_ms":\d+/g, '"duration_ms":0')
      .replace(/"ms":\d+/g, '"ms":0')
  );
}

async function observe(v: World, model: Model, at: number, from: string): Promise<Outputs> {
  const out: Outputs = {};
  v.clock.set(at, 'tick');
  for (const p of PROJECTS) {
    const c = await v.cliJson(p, ['consolidate']);
    out[`consolidate ${p} exit`] = String(c.code);
  }
  const ids = loadRows(v)
    .map((r) => r.id)
    .sort();
  for (const p of PROJECTS) {
    out[`search ${p}`] = (await v.cli(p, ['search', SEARCH_QUERY, '--limit', '50', '--json'])).stdout;
    out[`export ${p}`] = (await v.cli(p, ['export', '--json'])).stdout;
    out[`status ${p}`] = withoutRunTimes((await v.cli(p, ['status', '--json'])).stdout);
    const sid = `rebuild-${p.toLowerCase()}`;
    const ss = await v.hook(p, 'session-start', {
      session_id: sid,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    out[`SessionStart ${p}`] = hookContext(ss, 'hook session-start (rebuild check)');
    const prompt = `What did we decide about ${SEARCH_QUERY}?`;
    const up = await v.hook(p, 'user-prompt-submit', {
      session_id: sid,
      hook_event_name: 'UserPromptSubmit',
      prompt,
    });
    out[`prompt ${p}`] = hookContext(up, 'hook user-prompt-submit (rebuild check)');
    const mcp = await v.mcp(p);
    out[`ctx_search ${p}`] = (await mcp.call('ctx_search', { query: SEARCH_QUERY, limit: 15 })).text;
    for (let i = 0; i < ids.length; i += 10)
      out[`ctx_get ${p} ${i}`] = (await mcp.call('ctx_get', { ids: ids.slice(i, i + 10) })).text;
    for (const file of [...model.files[p]].sort())
      out[`ctx_related ${p} ${file}`] = (await mcp.call('ctx_related', { file })).text;
  }
  await v.closeMcp();
  // the open sessions end: their injected-token counts reach the store
  for (const s of model.openSessions()) {
    const r = await v.hook(s.project, 'session-end', {
      session_id: s.id,
      transcript_path: s.transcript.replace(from, v.dir),
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
    out[`session-end ${s.id}`] = String(r.code);
  }
  await v.settle();
  if (model.openSessions().length > 0)
    for (const p of PROJECTS)
      out[`status after session end ${p}`] = withoutRunTimes((await v.cli(p, ['status', '--json'])).stdout);
  await v.close();
  return out;
}

/**
 * Status without the last consolidation's clock readings: when a run started is a log of that
 * run, not data derived from the records, and under the tick clock it moves with how many times
 * the process read the time (a lock wait on a loaded machine reads it more often).
 */
function withoutRunTimes(out: string): string {
  try {
    const j = JSON.parse(out) as { last_consolidation?: Record<string, unknown> | null };
    if (j.last_consolidation) {
      delete j.last_consolidation.started_at;
      delete j.last_consolidation.finished_at;
      delete j.last_consolidation.duration_ms;
    }
    return JSON.stringify(j);
  } catch {
    return out;
  }
}

/**
 * Which property a difference speaks to. Only the artefacts of enabled properties were deleted,
 * so the difference comes from one of those: the one the output points at, else the first.
 */
function blame(key: string, a: string, b: string, active: readonly Property[]): Property {
  const pick = (p: Property): Property => (active.includes(p) ? p : active[0]!);
  if (key.startsWith('status') && a.startsWith('{') && b.startsWith('{')) {
    const pa = JSON.parse(a) as Record<string, unknown>;
    const pb = JSON.parse(b) as Record<string, unknown>;
    const diff = Object.keys({ ...pa, ...pb }).filter((k) => JSON.stringify(pa[k]) !== JSON.stringify(pb[k]));
    const sessions = ['tokens', 'tokens_injected', 'recent_sessions', 'last_session', 'sessions', 'usage'];
    if (diff.every((k) => sessions.includes(k))) return pick('rebuild-sessions');
    if (diff.every((k) => k === 'merge_candidates')) return pick('rebuild-merge-candidates');
  }
  // the same results in the same order, only the relative scores moved (and, with them, how
  // far a long title is shortened to fit the entry's budget): term weights
  const order = (t: string) => [...t.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]).join(' ');
  if (/^(search|ctx_search)/.test(key) && order(a) === order(b)) return pick('rebuild-term-counts');
  return pick('rebuild-equal');
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 80);
  return `kept:    …${a.slice(from, i + 160)}…\n    rebuilt: …${b.slice(from, i + 160)}…`;
}

export async function rebuildCheck(world: World, model: Model): Promise<string> {
  const active = REBUILD_PROPERTIES.filter(enabled);
  if (active.length === 0) return 'rebuild check off';
  if (model.all().length === 0 && model.sessions.length === 0) return 'rebuild check: nothing stored';
  await world.close();
  const known = new Set([...loadRows(world).map((r) => r.id), ...model.all().map((r) => r.id)]);
  const at = world.clock.now + 60_000;
  const t0 = Date.now();
  const dirs = [`${world.dir}-kept`, `${world.dir}-rebuilt`];
  try {
    for (const d of dirs) cpSync(world.dir, d, { recursive: true, verbatimSymlinks: true });
    const kept = new World(dirs[0]!, world.api, true);
    const rebuilt = new World(dirs[1]!, world.api, true);
    const deleted = deleteDerived(rebuilt, {
      termCounts: enabled('rebuild-term-counts'),
      sessions: enabled('rebuild-sessions'),
      mergeCandidates: enabled('rebuild-merge-candidates'),
    });
    // the two copies are independent (own folders, same virtual instant): run them side by side
    const [a, b] = await Promise.all([
      observe(kept, model, at, world.dir),
      observe(rebuilt, model, at, world.dir),
    ]);
    const diffs: { key: string; property: Property; text: string }[] = [];
    for (const key of Object.keys({ ...a, ...b })) {
      const x = normalise(a[key] ?? '<missing>', dirs[0]!, known);
      const y = normalise(b[key] ?? '<missing>', dirs[1]!, known);
      if (x !== y) diffs.push({ key, property: blame(key, x, y, active), text: firstDifference(x, y) });
    }
    const counted = diffs;
    if (counted.length > 0) {
      const property = counted[0]!.property;
      expectThat(
        property,
        false,
        () =>
          `after deleting ${deleted.length} derived artefacts (${deleted
            .filter((d) => !d.startsWith('tmp/check-'))
            .slice(0, 12)
            .join(
              ', ',
            )}) and running agentctx consolidate, ${counted.length} read outputs differ:\n  ${counted
            .slice(0, 4)
            .map((d) => `${d.key} [${d.property}]\n    ${d.text}`)
            .join('\n  ')}`,
      );
    }
    return `rebuild check: ${Object.keys(a).length} outputs equal after deleting ${deleted.length} derived artefacts (${Date.now() - t0} ms)`;
  } finally {
    if (!process.env.AGENTCTX_MODEL_KEEP) for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
