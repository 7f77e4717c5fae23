import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { answer, isExtraction } from '../../support/extract-harness.js';
import type { Model, MSession } from '../model.js';
import { type TextSpec, textSpec } from '../text.js';
import type { ProjectKey, World } from '../world.js';
import { pickTarget, type TargetKind, type TargetSpec, targetLabel } from './writes.js';

/**
 * What the fake model answers an extraction with (CONTRACTS.md §extraction-output), planned by the
 * generator and filled with markers and ids when the step runs. The fake model follows the prompt:
 * it reports decisions (some superseding a record it names), a preference, and the session's active
 * work.
 */
export interface ExtractPlan {
  decisions: { text: TextSpec; sup: TargetSpec | null; explicit: boolean }[];
  preference: { text: TextSpec; global: boolean; explicit: boolean } | null;
  handover: TextSpec | null;
  flush: boolean;
}

const targetSpec = fc.record({
  pick: fc.nat(40),
  kind: fc.constantFrom<TargetKind>('own', 'own', 'global', 'foreign', 'any'),
});

export const extractPlan: fc.Arbitrary<ExtractPlan> = fc.record({
  decisions: fc.array(fc.record({ text: textSpec, sup: fc.option(targetSpec), explicit: fc.boolean() }), {
    maxLength: 2,
  }),
  preference: fc.option(fc.record({ text: textSpec, global: fc.boolean(), explicit: fc.boolean() })),
  handover: fc.option(textSpec, { freq: 3 }),
  flush: fc.nat(9).map((n) => n === 0),
});

export function planLabel(plan: ExtractPlan): string {
  if (plan.flush) return 'flush_ok';
  const parts = plan.decisions.map(
    (d) => `decision${d.explicit ? '' : ' (inferred)'}${d.sup ? ` superseding ${targetLabel(d.sup)}` : ''}`,
  );
  if (plan.preference) parts.push(`${plan.preference.global ? 'global ' : ''}preference`);
  if (plan.handover) parts.push('active work');
  return parts.length ? parts.join(', ') : 'nothing';
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The model's answer for `plan` in project `p`, with fresh markers and resolved target ids. */
export function resolvePlan(
  m: Model,
  p: ProjectKey,
  plan: ExtractPlan,
): { output: Record<string, unknown>; targets: (string | null)[] } {
  const targets: (string | null)[] = [];
  const decisions = plan.decisions.map((d) => {
    const tm = m.nextMarker(p);
    const bm = m.nextMarker(p);
    const target = d.sup ? pickTarget(m, p, d.sup, 'decision') : undefined;
    targets.push(target?.id ?? null);
    return {
      what: `${cap(d.text.topic)} ${tm} decision: keep one owner per ${d.text.topic} module. Rule ${bm} applies to ${d.text.topic}.`,
      rationale: `The ${d.text.topic} team asked for it.`,
      supersedes: target?.id ?? null,
      confidence: d.explicit ? 'explicit' : 'inferred',
    };
  });
  const pref = plan.preference;
  const ns = pref?.global ? 'G' : p;
  const preferences = pref
    ? [
        {
          category: 'process',
          rule: `${cap(pref.text.topic)} ${m.nextMarker(ns)} preference: small pull requests for ${pref.text.topic}. Rule ${m.nextMarker(ns)} holds.`,
          confidence: pref.explicit ? 'explicit' : 'inferred',
          scope: pref.global ? 'global' : 'project',
        },
      ]
    : [];
  const active_work = plan.handover
    ? {
        current_task: `Finish ${plan.handover.topic} ${m.nextMarker(p)} migration`,
        blockers: [],
        next_steps: [`Rule ${m.nextMarker(p)}: run the ${plan.handover.topic} tests`],
        open_questions: [],
      }
    : null;
  return {
    output: { decisions, preferences, conventions: [], active_work, gotchas: [], flush_ok: plan.flush },
    targets,
  };
}

/** Make the fake Messages API answer the next extraction with `output` (once; then flush_ok). */
export function scriptExtraction(world: World, output: Record<string, unknown>): void {
  let used = false;
  world.api.setScript((req) => {
    if (!isExtraction(req)) return { content: [{ type: 'text', text: 'ok' }] };
    if (used) return answer({ flush_ok: true });
    used = true;
    return answer(output);
  });
}

/** A transcript line in the shape Claude Code writes, stamped with the virtual time. */
function line(s: MSession, world: World, extra: Record<string, unknown>): string {
  return `${JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    uuid: randomUUID(),
    timestamp: new Date(world.clock.now).toISOString(),
    userType: 'external',
    cwd: world.repo[s.project],
    sessionId: s.id,
    version: '2.1.332',
    gitBranch: 'main',
    ...extra,
  })}\n`;
}

export function transcriptPath(world: World, sessionId: string): string {
  return join(world.home, 'transcripts', `${sessionId}.jsonl`);
}

/** Append a user prompt and an assistant answer (and maybe an Edit of `file`) to the transcript. */
export function appendTurn(world: World, s: MSession, prompt: string, file?: string): void {
  mkdirSync(dirname(s.transcript), { recursive: true });
  const out = [
    line(s, world, { type: 'user', message: { role: 'user', content: prompt } }),
    line(s, world, {
      type: 'assistant',
      message: {
        id: `msg_${s.lines}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Done; the change is in place.' }],
      },
    }),
  ];
  if (file) {
    const id = `toolu_${s.id.replace(/\W/g, '')}_${s.lines}`;
    const abs = join(world.repo[s.project], file);
    out.push(
      line(s, world, {
        type: 'assistant',
        message: {
          id: `msg_${s.lines}_t`,
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id,
              name: 'Edit',
              input: { file_path: abs, old_string: 'a', new_string: 'b' },
            },
          ],
        },
      }),
      line(s, world, {
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: 'ok' }] },
        toolUseResult: { type: 'update', filePath: abs },
      }),
    );
  }
  appendFileSync(s.transcript, out.join(''));
  s.lines += out.length;
}

/** An open session of project `p` (pick), or a new one opened without hooks. */
export function sessionFor(m: Model, world: World, p: ProjectKey, pick: number): MSession {
  const open = m.openSessions(p);
  if (open.length > 0) return open[pick % open.length]!;
  const id = m.nextSessionId(p);
  const s: MSession = {
    id,
    project: p,
    transcript: transcriptPath(world, id),
    lines: 0,
    open: true,
    injected: new Set(),
  };
  m.sessions.push(s);
  return s;
}
