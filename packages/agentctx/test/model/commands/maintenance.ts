import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectThat } from '../config.js';
import { deleteDerived } from '../derived.js';
import type { Model } from '../model.js';
import { type Cmd, loadRows, type Real, step } from '../step.js';
import { Visibility } from '../truth-sets.js';
import type { ProjectKey } from '../world.js';
import { pickTarget, type TargetSpec, targetLabel } from './writes.js';

/** `agentctx consolidate` in one project. */
export class ConsolidateCmd implements Cmd {
  constructor(readonly p: ProjectKey) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `agentctx consolidate in ${this.p}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const res = await r.world.cliJson(this.p, ['consolidate']);
      expectThat('model-agreement', res.code === 0, () => `consolidate failed: ${res.stdout}${res.stderr}`);
      const j = res.json as { merged?: number; merge_candidates?: number } | null;
      return `merged ${j?.merged}, candidates ${j?.merge_candidates}`;
    });
  }
}

/** Time passes: hours, days or months (ages, decay and drift windows move). */
export class AdvanceClockCmd implements Cmd {
  constructor(readonly minutes: number) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    const m = this.minutes;
    return `time passes: ${m >= 1440 ? `${Math.round(m / 1440)} days` : m >= 60 ? `${Math.round(m / 60)} hours` : `${m} minutes`}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, null, async () => {
      r.world.clock.advance(this.minutes * 60_000);
      return new Date(r.world.clock.now).toISOString();
    });
  }
}

const TAMPER = {
  /** A 7,000-character CJK digest whose side file claims 100 tokens. */
  'cjk-lying-count': () => ({
    text: `# Project context\n${'我们决定把订单总额以整数分保存，因为浮点数在结算时会产生误差。\n'.repeat(230)}`,
    meta: JSON.stringify({ ids: [], tokens: 100, generated_at: '2031-01-01T00:00:00.000Z' }),
  }),
  /** 7,200 characters of code-like ASCII (about 3,400 tokens) whose side file claims 100 tokens. */
  'ascii-lying-count': () => ({
    text: `# Project context\n${'- cfg.orders[42].retry_ms=250; // see src/queue/backoff.ts#L17 (v2.3.1)\n'.repeat(100)}`,
    meta: JSON.stringify({ ids: [], tokens: 100, generated_at: '2031-01-01T00:00:00.000Z' }),
  }),
  /** 30,000 characters of prose, no side file. */
  'huge-no-side-file': () => ({
    text: `# Project context\n${'- The orders service keeps one connection pool per worker and retries with backoff.\n'.repeat(360)}`,
    meta: null,
  }),
  /** One enormous line (no line breaks to cut at), side file with a zero count. */
  'one-long-line': () => ({
    text: `# Project context ${'cache-queue-auth-deploy '.repeat(1500)}`,
    meta: JSON.stringify({ ids: ['01ZZZZZZZZZZZZZZZZZZZZZZZZ'], tokens: 0, generated_at: 'x' }),
  }),
  /** Emoji-dense text just under 8,000 characters, claimed small, and a side file that is not JSON. */
  'emoji-bad-json': () => ({
    text: `# Project context\n${'🚀🔥✅🎉 '.repeat(780)}`,
    meta: '{not json',
  }),
} as const;

export type TamperKind = keyof typeof TAMPER;
export const TAMPER_KINDS = Object.keys(TAMPER) as TamperKind[];

/** Rewrite a project's digest files on disk: text over budget, side file lying about it. */
export class TamperDigestCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly kind: TamperKind,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `tamper with ${this.p}'s digest files on disk (${this.kind})`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const dir = join(w.agentHome, 'digests');
      mkdirSync(dir, { recursive: true });
      const t = TAMPER[this.kind]();
      writeFileSync(join(dir, `${w.projectId[this.p]}.md`), t.text);
      const meta = join(dir, `${w.projectId[this.p]}.ids.json`);
      if (t.meta === null) writeFileSync(meta, '');
      else writeFileSync(meta, t.meta);
      return `${t.text.length} characters written`;
    });
  }
}

/** Delete every derived artefact now (CONTRACTS.md §inv-7: each is disposable). */
export class DeleteDerivedCmd implements Cmd {
  check(): boolean {
    return true;
  }
  toString(): string {
    return 'delete every derived artefact (digests, scores, term counts, merge candidates, session files, caches)';
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, null, async () => {
      deleteDerived(r.world, { termCounts: true, sessions: true, mergeCandidates: true });
      // the session dedup files are gone: a re-injection is allowed from here on
      for (const s of m.sessions) s.injected.clear();
      return undefined;
    });
  }
}

/** `agentctx show ID`: a record of the project or global, or someone else's (must be not found). */
export class ShowCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly target: TargetSpec,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `agentctx show in ${this.p} of ${targetLabel(this.target)}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const t = pickTarget(m, this.p, this.target);
      if (!t) return 'nothing to show';
      const res = await w.cliJson(this.p, ['show', t.id]);
      const vis = new Visibility(w, loadRows(w), m, this.p);
      const visible = t.state !== 'deleted' && (t.ns === this.p || t.ns === 'G');
      const j = (res.json ?? {}) as {
        record?: { id: string };
        chain?: { id: string; title: string }[];
        error?: string;
      };
      if (!visible) {
        const foreign = t.ns !== this.p && t.ns !== 'G' && t.state !== 'deleted';
        expectThat(
          foreign ? 'namespace-reads' : 'model-agreement',
          res.code !== 0 && typeof j.error === 'string',
          () => `agentctx show in ${this.p} of ${vis.describe(t.id)} answered ${res.stdout.slice(0, 200)}`,
        );
        return `error: ${j.error}`;
      }
      expectThat(
        'model-agreement',
        res.code === 0 && j.record?.id === t.id,
        () => `show ${t.id} failed: ${res.stdout}${res.stderr}`,
      );
      // an explicit id may show history, but never another project's records in the chain
      const leaked = (j.chain ?? []).filter((c) => vis.foreign.has(c.id));
      expectThat(
        'namespace-reads',
        leaked.length === 0,
        () =>
          `agentctx show ${t.id} in ${this.p} lists ${leaked.map((c) => vis.describe(c.id)).join('; ')} in its chain`,
      );
      return `${t.id} (${t.state})`;
    });
  }
}
