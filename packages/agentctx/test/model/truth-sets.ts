import type { Model, Ns } from './model.js';
import { markersIn } from './text.js';
import type { Row } from './truth.js';
import { nsOf } from './truth.js';
import type { ProjectKey, World } from './world.js';

export const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;

export function idsIn(text: string): string[] {
  return text.match(ULID) ?? [];
}

interface Known {
  id: string;
  ns: Ns;
  current: boolean;
  text: string;
}

/**
 * What project `p` may and may not see right now, from the store (ground truth) plus the
 * records the model saw deleted (`reset`): the ids and marker words of its current records, of
 * its stale ones (superseded or deleted) and of the other project's. A marker counts as
 * evidence only where no current visible record also carries it.
 */
export class Visibility {
  readonly current = new Set<string>();
  readonly stale = new Set<string>();
  readonly foreign = new Set<string>();
  readonly staleMarkers = new Set<string>();
  readonly foreignMarkers = new Set<string>();
  private readonly known = new Map<string, Known>();

  constructor(
    world: World,
    rows: readonly Row[],
    model: Model,
    readonly p: ProjectKey,
  ) {
    const all: Known[] = [];
    for (const r of rows) {
      const ns = nsOf(world, r.project_id);
      if (ns) all.push({ id: r.id, ns, current: !r.superseded_at, text: `${r.title}\n${r.body}` });
    }
    const stored = new Set(rows.map((r) => r.id));
    for (const m of model.all())
      if (m.state === 'deleted' && !stored.has(m.id))
        all.push({ id: m.id, ns: m.ns, current: false, text: `${m.title}\n${m.body}` });
    const currentMarkers = new Set<string>();
    for (const k of all) {
      this.known.set(k.id, k);
      const mine = k.ns === p || k.ns === 'G';
      if (mine && k.current) {
        this.current.add(k.id);
        for (const w of markersIn(k.text)) currentMarkers.add(w);
      } else if (mine) this.stale.add(k.id);
      else this.foreign.add(k.id);
    }
    for (const k of all) {
      if (this.current.has(k.id)) continue;
      const into = this.stale.has(k.id) ? this.staleMarkers : this.foreignMarkers;
      for (const w of markersIn(k.text)) if (!currentMarkers.has(w)) into.add(w);
    }
  }

  describe(id: string): string {
    const k = this.known.get(id);
    if (!k) return id;
    const title = k.text.split('\n')[0]!;
    return `${id} (${k.ns === 'G' ? 'global' : `project ${k.ns}`}, ${k.current ? 'current' : 'not current'}: "${title.slice(0, 70)}")`;
  }

  /** Which stale / foreign ids and markers a piece of output shows. */
  scan(text: string, ids: readonly string[] = idsIn(text)): { stale: string[]; foreign: string[] } {
    const stale: string[] = [];
    const foreign: string[] = [];
    for (const id of new Set(ids)) {
      if (this.stale.has(id)) stale.push(this.describe(id));
      else if (this.foreign.has(id)) foreign.push(this.describe(id));
    }
    for (const w of new Set(markersIn(text))) {
      if (this.staleMarkers.has(w)) stale.push(`marker ${w}${this.owner(w)}`);
      else if (this.foreignMarkers.has(w)) foreign.push(`marker ${w}${this.owner(w)}`);
    }
    return { stale, foreign };
  }

  private owner(marker: string): string {
    for (const k of this.known.values())
      if (markersIn(k.text).includes(marker)) return ` of ${this.describe(k.id)}`;
    return '';
  }
}
