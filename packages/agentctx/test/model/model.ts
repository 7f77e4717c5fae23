import type { Property } from './config.js';
import { markerFor } from './text.js';
import type { ProjectKey } from './world.js';

/**
 * The reference model: which records exist, in which namespace, and which are current. The
 * model predicts the outcome of every write the test issues (the semantics CONTRACTS.md states);
 * records it did not author (rule handovers, profile facts, observation stubs) it learns from
 * the store after each step. `why` names the property whose rule the predicted state rests on,
 * so a disagreement with the store is reported as a violation of that property.
 */

export type Ns = ProjectKey | 'G';
export type RecordState = 'current' | 'superseded' | 'deleted';

export interface MRecord {
  id: string;
  ns: Ns;
  type: string;
  title: string;
  body: string;
  state: RecordState;
  supersededBy: string | null;
  /** Written by a command of the test (else learned from the store). */
  authored: boolean;
  why: Property;
}

export interface MSession {
  id: string;
  project: ProjectKey;
  transcript: string;
  /** Lines written to the transcript so far. */
  lines: number;
  open: boolean;
  /** Record ids the prompt hook injected into this session since its context was last reset. */
  injected: Set<string>;
}

export class Model {
  readonly records = new Map<string, MRecord>();
  readonly sessions: MSession[] = [];
  private markers = 0;
  private sessionCount = 0;
  /** Files the records of a project may be linked to (ctx_related asks about them). */
  readonly files: Record<ProjectKey, Set<string>> = { A: new Set(), B: new Set() };
  /** Near-duplicate pairs the developer dismissed (kept as ground truth). */
  readonly dismissed = new Set<string>();

  nextMarker(ns: Ns): string {
    return markerFor(ns, this.markers++);
  }

  nextSessionId(p: ProjectKey): string {
    return `sess-${p.toLowerCase()}-${++this.sessionCount}`;
  }

  /** Records project `p` may see (its own and global), deleted ones excluded. */
  visible(p: ProjectKey): MRecord[] {
    return [...this.records.values()].filter((r) => (r.ns === p || r.ns === 'G') && r.state !== 'deleted');
  }

  current(p: ProjectKey): MRecord[] {
    return this.visible(p).filter((r) => r.state === 'current');
  }

  all(): MRecord[] {
    return [...this.records.values()];
  }

  /** Element `i` (wrapping) of a list, or undefined when it is empty. */
  static pick<T>(list: readonly T[], i: number): T | undefined {
    return list.length === 0 ? undefined : list[i % list.length];
  }

  add(
    r: Omit<MRecord, 'state' | 'supersededBy'> & Partial<Pick<MRecord, 'state' | 'supersededBy'>>,
  ): MRecord {
    const rec: MRecord = { state: 'current', supersededBy: null, ...r };
    this.records.set(rec.id, rec);
    return rec;
  }

  supersede(oldId: string, newId: string | null, why: Property): void {
    const r = this.records.get(oldId);
    if (!r) return;
    r.state = 'superseded';
    r.supersededBy = newId;
    r.why = why;
  }

  /** CONTRACTS.md §keyed: one current handover per project, one current profile record per key. */
  applyKeyedRule(newRec: MRecord): void {
    if (newRec.type !== 'handover' && newRec.type !== 'profile') return;
    for (const r of this.records.values()) {
      if (r.id === newRec.id || r.state !== 'current' || r.ns !== newRec.ns || r.type !== newRec.type)
        continue;
      if (newRec.type === 'profile' && r.title.trim().toLowerCase() !== newRec.title.trim().toLowerCase())
        continue;
      this.supersede(r.id, newRec.id, 'keyed-unique');
    }
  }

  resetNamespace(ns: Ns): void {
    for (const r of this.records.values()) {
      if (r.ns === ns) {
        r.state = 'deleted';
        r.why = 'model-agreement';
      }
    }
    if (ns !== 'G') this.files[ns].clear();
  }

  openSessions(p?: ProjectKey): MSession[] {
    return this.sessions.filter((s) => s.open && (!p || s.project === p));
  }
}
