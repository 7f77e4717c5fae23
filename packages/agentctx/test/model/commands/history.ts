import { expectThat } from '../config.js';
import type { Model } from '../model.js';
import { SEARCH_QUERY } from '../reads.js';
import { type Cmd, loadRows, type Real, step } from '../step.js';
import { idsIn, Visibility } from '../truth-sets.js';
import type { ProjectKey } from '../world.js';

/**
 * The read paths the per-step checks leave out: `profile show` (a default path: current global
 * entries only), and the explicit history views (`search --history`, `ctx_search` with history,
 * `export --history`), which may show superseded records, marked as such, but never another
 * project's.
 */
export class HistoryReadsCmd implements Cmd {
  constructor(readonly p: ProjectKey) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `read with history in ${this.p} (profile show, search --history, ctx_search history, export --history)`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const rows = loadRows(w);
      const vis = new Visibility(w, rows, m, this.p);
      const superseded = new Set(rows.filter((x) => x.superseded_at).map((x) => x.id));

      const prof = await w.cliJson(this.p, ['profile', 'show']);
      const entries = ((prof.json as { entries?: { id: string }[] } | null)?.entries ?? []).map((e) => e.id);
      const stale = entries.filter((id) => vis.stale.has(id) || vis.foreign.has(id));
      expectThat(
        'superseded-hidden',
        stale.length === 0,
        () => `agentctx profile show in ${this.p} lists ${stale.map((id) => vis.describe(id)).join('; ')}`,
      );

      const hist = await w.cliJson(this.p, ['search', SEARCH_QUERY, '--history', '--limit', '50']);
      const mcp = await w.mcp(this.p);
      const cs = await mcp.call('ctx_search', { query: SEARCH_QUERY, history: true, limit: 15 });
      const exp = await w.cliJson(this.p, ['export', '--history']);
      const md = String((exp.json as { markdown?: unknown } | null)?.markdown ?? '');
      const lists: [string, { id: string; superseded?: boolean }[]][] = [
        ['search --history', (hist.json as { results?: { id: string }[] } | null)?.results ?? []],
        ['ctx_search history', (cs.json.results as { id: string }[] | undefined) ?? []],
      ];
      for (const [path, results] of lists) {
        const foreign = results.filter((x) => vis.foreign.has(x.id));
        expectThat(
          'namespace-reads',
          foreign.length === 0,
          () => `${path} in ${this.p} shows ${foreign.map((x) => vis.describe(x.id)).join('; ')}`,
        );
        const unmarked = results.filter((x) => superseded.has(x.id) !== (x.superseded === true));
        expectThat(
          'model-agreement',
          unmarked.length === 0,
          () =>
            `${path} in ${this.p} marks superseded wrongly: ${unmarked.map((x) => vis.describe(x.id)).join('; ')}`,
        );
      }
      const foreignMd = idsIn(md).filter((id) => vis.foreign.has(id));
      expectThat(
        'namespace-reads',
        foreignMd.length === 0,
        () =>
          `export --history in ${this.p} shows ${[...new Set(foreignMd)].map((id) => vis.describe(id)).join('; ')}`,
      );
      return `${entries.length} profile entries, ${lists[0]![1].length} / ${lists[1]![1].length} history hits`;
    });
  }
}
