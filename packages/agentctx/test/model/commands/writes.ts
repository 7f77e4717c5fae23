import { expectThat } from '../config.js';
import { Model, type MRecord } from '../model.js';
import {
  applyCreate,
  cliOutcome,
  expectCreate,
  expectMerge,
  expectProfileEntry,
  expectSupersede,
  mcpOutcome,
  uiOutcome,
} from '../outcome.js';
import { type Cmd, judge, loadRows, type Outcome, type Real, step } from '../step.js';
import { bodyText, MARKER, type TextSpec, titleText } from '../text.js';
import type { ProjectKey } from '../world.js';

/**
 * Which record a command aims at: `pick` indexes a pool chosen by `kind`: the project's own
 * current records (those the test wrote first), the current global ones, the other project's
 * current ones, or every record the test knows (superseded and deleted ones too).
 */
export type TargetKind = 'own' | 'global' | 'foreign' | 'any';
export interface TargetSpec {
  pick: number;
  kind: TargetKind;
}

export function targetLabel(t: TargetSpec | null): string {
  if (!t) return '';
  const pool = {
    own: 'a current record',
    global: 'a current global record',
    foreign: "the other project's record",
    any: 'any record',
  }[t.kind];
  return `${pool} #${t.pick}`;
}

const PROFILE_KEYS = ['stack', 'test command', 'deploy target'];

/** Title and body of a new record of `type`, with fresh markers. */
export function recordText(
  m: Model,
  type: string,
  ns: 'A' | 'B' | 'G',
  spec: TextSpec,
): { title: string; body: string } {
  const tm = m.nextMarker(ns);
  const bm = m.nextMarker(ns);
  if (type === 'profile')
    return { title: `profile: ${PROFILE_KEYS[spec.seed % PROFILE_KEYS.length]}`, body: bodyText(spec, bm) };
  if (type === 'handover')
    return {
      title: `Handover ${tm}: ${spec.topic} work`,
      body: `Current task: ${bm} finish the ${spec.topic} change.\nNext steps:\n- review the ${spec.topic} tests`,
    };
  return { title: titleText(spec, tm), body: bodyText(spec, bm) };
}

/** `agentctx record` or `ctx_record`: a new record, maybe superseding one, maybe a near copy. */
export class WriteCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly via: 'cli' | 'mcp',
    readonly type: string,
    readonly scope: 'project' | 'global',
    readonly text: TextSpec,
    readonly sup: TargetSpec | null,
    readonly nearCopyOf: number | null,
    readonly sameType = true,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    const what =
      this.nearCopyOf !== null
        ? `a near copy of current record #${this.nearCopyOf}`
        : this.sup && this.sameType
          ? 'a record'
          : this.type;
    const sup = this.sup
      ? ` superseding ${targetLabel(this.sup)}${this.sameType ? ' (of its type)' : ''}`
      : '';
    return `${this.via === 'cli' ? 'agentctx record' : 'ctx_record'} in ${this.p}: ${what}${this.scope === 'global' ? ' --scope global' : ''} (${this.text.kind} text)${sup}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      let type = this.type;
      let scope = this.scope;
      let title: string;
      let body: string;
      const source =
        this.nearCopyOf !== null
          ? Model.pick(
              // a record the test wrote (its markers make the copy near, never exact)
              m.current(this.p).filter((x) => x.authored && x.type !== 'profile'),
              this.nearCopyOf,
            )
          : undefined;
      if (source) {
        type = source.type;
        scope = source.ns === 'G' ? 'global' : 'project';
      }
      const target = this.sup ? pickTarget(m, this.p, this.sup, type) : undefined;
      // a replacement usually has its target's type (a mismatch is tried one time in five)
      if (target && !source && this.sameType) type = target.type;
      if (source) {
        // the same title (its marker is the rare word the duplicate scan looks for), a new body marker
        const bm = m.nextMarker(source.ns);
        title = source.title;
        body = source.body.replace(MARKER, bm);
      } else {
        ({ title, body } = recordText(m, type, scope === 'global' ? 'G' : this.p, this.text));
      }
      const exp = expectCreate(this.p, type, scope, target);
      const before = loadRows(w);
      let out: Outcome;
      if (this.via === 'cli') {
        const args = ['record', '--type', type, '--title', title, '--body', body];
        if (scope === 'global') args.push('--scope', 'global');
        if (target) args.push('--supersedes', target.id);
        out = cliOutcome(await w.cliJson(this.p, args));
      } else {
        const mcp = await w.mcp(this.p);
        out = mcpOutcome(
          await mcp.call('ctx_record', {
            type,
            title: title.slice(0, 120),
            body,
            scope,
            ...(target ? { supersedes: target.id } : {}),
          }),
        );
      }
      const label = `${this.toString()} [target ${target?.id ?? 'none'}]`;
      const took = judge(label, exp, out, before, loadRows(w));
      if (took && out.id)
        applyCreate(m, { id: out.id, ns: scope === 'global' ? 'G' : this.p, type, title, body }, target, exp);
      return `${out.ok ? `created ${out.id}` : `error: ${out.error}`}${target ? ` (target ${target.id}, ${target.ns}, ${target.state})` : ''}`;
    });
  }
}

/** The record a command aims at (see TargetSpec); records of `type` first, when there are any. */
export function pickTarget(m: Model, p: ProjectKey, t: TargetSpec, type?: string): MRecord | undefined {
  const other: ProjectKey = p === 'A' ? 'B' : 'A';
  const pools: Record<TargetKind, () => MRecord[]> = {
    own: () => m.current(p).filter((x) => x.ns === p),
    global: () => m.current(p).filter((x) => x.ns === 'G'),
    foreign: () => m.current(other).filter((x) => x.ns === other),
    any: () => m.all(),
  };
  let pool = pools[t.kind]().sort((a, b) => (a.id < b.id ? -1 : 1));
  // what the test wrote before what the store made up (profile facts, observation stubs)
  const authored = pool.filter((x) => x.authored);
  if (t.kind !== 'any' && authored.length > 0) pool = authored;
  const same = pool.filter((x) => x.type === type);
  return Model.pick(type && same.length > 0 ? same : pool, t.pick);
}

/** `agentctx supersede`, `ctx_supersede` or the dashboard's edit of one record. */
export class SupersedeCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly via: 'cli' | 'mcp' | 'ui',
    readonly target: TargetSpec,
    readonly newTitle: boolean,
    readonly text: TextSpec,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    const tool = { cli: 'agentctx supersede', mcp: 'ctx_supersede', ui: 'dashboard supersede' }[this.via];
    return `${tool} in ${this.p} of ${targetLabel(this.target)}${this.newTitle ? ' with a new title' : ''} (${this.text.kind} text)`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const target = pickTarget(m, this.p, this.target);
      if (!target) return 'nothing to supersede';
      const fresh = recordText(m, target.type, target.ns, this.text);
      // the rationale is appended to the body: keep both within the 2,000-character limit
      fresh.body = fresh.body.slice(0, 1800);
      const title = this.newTitle && target.type !== 'profile' ? fresh.title : undefined;
      const exp = expectSupersede(this.p, target);
      const before = loadRows(w);
      const rationale = `The ${this.text.topic} plan changed after review.`;
      let out: Outcome;
      if (this.via === 'cli') {
        const args = ['supersede', target.id, '--body', fresh.body, '--rationale', rationale];
        if (title) args.push('--title', title);
        out = cliOutcome(await w.cliJson(this.p, args), 'new_id');
      } else if (this.via === 'mcp') {
        const mcp = await w.mcp(this.p);
        out = mcpOutcome(
          await mcp.call('ctx_supersede', {
            old_id: target.id,
            new_body: fresh.body,
            rationale,
            ...(title ? { new_title: title } : {}),
          }),
          'new_id',
        );
      } else {
        out = uiOutcome(
          await w.uiCall('POST', `/records/${target.id}/supersede?project=${w.projectId[this.p]}`, {
            body: fresh.body,
            rationale,
            ...(title ? { title } : {}),
          }),
        );
      }
      const took = judge(`${this.toString()} [target ${target.id}]`, exp, out, before, loadRows(w));
      if (took && out.id)
        applyCreate(
          m,
          { id: out.id, ns: target.ns, type: target.type, title: title ?? target.title, body: fresh.body },
          target,
          exp,
        );
      return `${out.ok ? `created ${out.id}` : `error: ${out.error}`} (target ${target.id}, ${target.ns}, ${target.type}, ${target.state})`;
    });
  }
}

/** `agentctx profile edit ID` or `profile clear ID`. */
export class ProfileCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly action: 'edit' | 'clear',
    readonly target: TargetSpec,
    readonly text: TextSpec,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `agentctx profile ${this.action} in ${this.p} of ${targetLabel(this.target)}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const target = pickTarget(m, this.p, this.target);
      if (!target) return 'no such record';
      const exp = expectProfileEntry(target);
      const before = loadRows(w);
      const body = recordText(m, target.type, 'G', this.text).body;
      const args =
        this.action === 'edit'
          ? ['profile', 'edit', target.id, '--body', body]
          : ['profile', 'clear', target.id];
      const out = cliOutcome(await w.cliJson(this.p, args), this.action === 'edit' ? 'new_id' : 'cleared');
      const took = judge(`${this.toString()} [target ${target.id}]`, exp, out, before, loadRows(w));
      if (took && this.action === 'edit' && out.id)
        applyCreate(m, { id: out.id, ns: 'G', type: target.type, title: target.title, body }, target, exp);
      if (took && this.action === 'clear') m.supersede(target.id, null, 'model-agreement');
      return `${out.ok ? 'done' : `error: ${out.error}`} (target ${target.id}, ${target.ns}, ${target.state})`;
    });
  }
}

/** `agentctx merge X Y` (confirm a near-duplicate pair) or `merge X Y --dismiss`. */
export class MergeCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly a: TargetSpec,
    readonly b: TargetSpec,
    readonly dismiss: boolean,
    /** Take the pair from the near duplicates `agentctx status` proposes (as a developer would). */
    readonly proposed: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    const pair = this.proposed
      ? `proposed pair #${this.a.pick} of agentctx status`
      : `${targetLabel(this.a)} and ${targetLabel(this.b)}`;
    return `agentctx merge in ${this.p} of ${pair}${this.dismiss ? ' --dismiss' : ''}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      let x = pickTarget(m, this.p, this.a);
      let y = pickTarget(m, this.p, this.b, x?.type);
      if (this.proposed) {
        const st = await w.cliJson(this.p, ['status']);
        const top =
          (st.json as { merge_candidates?: { top?: { record_a: string; record_b: string }[] } } | null)
            ?.merge_candidates?.top ?? [];
        const c = Model.pick(top, this.a.pick);
        if (!c) return 'no proposed pair';
        x = m.records.get(c.record_a);
        y = m.records.get(c.record_b);
      }
      if (!x || !y) return 'nothing to merge';
      const exp = expectMerge(this.p, x, y);
      const before = loadRows(w);
      const args = ['merge', x.id, y.id, ...(this.dismiss ? ['--dismiss'] : [])];
      const res = await w.cliJson(this.p, args);
      const out = cliOutcome(res, 'superseded');
      const took = judge(`${this.toString()} [${x.id} ${y.id}]`, exp, out, before, loadRows(w));
      if (took && this.dismiss) m.dismissed.add([x.id, y.id].sort().join(' '));
      if (took && !this.dismiss && out.id) {
        const keeper = (res.json as { keeper?: string }).keeper ?? null;
        expectThat(
          'model-agreement',
          [x.id, y.id].includes(out.id),
          () => `merge superseded ${out.id}, not one of the pair`,
        );
        m.supersede(out.id, keeper, 'model-agreement');
      }
      return `${out.ok ? (this.dismiss ? 'dismissed' : `superseded ${out.id}`) : `error: ${out.error}`} (${x.id} ${x.type}/${x.ns}, ${y.id} ${y.type}/${y.ns})`;
    });
  }
}

/** `agentctx reset --yes [--global]`. */
export class ResetCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly global: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `agentctx reset --yes${this.global ? ' --global' : ''} in ${this.p}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const res = await w.cliJson(this.p, ['reset', '--yes', ...(this.global ? ['--global'] : [])]);
      expectThat('model-agreement', res.code === 0, () => `reset failed: ${res.stdout}${res.stderr}`);
      const expected = m.all().filter((x) => x.ns === this.p && x.state !== 'deleted').length;
      const got = (res.json as { records_deleted?: number }).records_deleted;
      expectThat(
        'model-agreement',
        got === expected,
        () => `reset deleted ${got} records of ${this.p}; the model has ${expected}`,
      );
      m.resetNamespace(this.p);
      if (this.global) m.resetNamespace('G');
      for (const s of m.openSessions(this.p)) s.injected.clear();
      return `deleted ${got}`;
    });
  }
}
