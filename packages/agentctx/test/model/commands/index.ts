import fc from 'fast-check';
import type { Cmd } from '../step.js';
import { TOPICS, textSpec } from '../text.js';
import type { ProjectKey } from '../world.js';
import { extractPlan } from './extraction.js';
import { HistoryReadsCmd } from './history.js';
import {
  AdvanceClockCmd,
  ConsolidateCmd,
  DeleteDerivedCmd,
  ShowCmd,
  TAMPER_KINDS,
  TamperDigestCmd,
} from './maintenance.js';
import { ExtractCmd, PostToolCmd, PromptCmd, SessionEndCmd, SessionStartCmd, StopCmd } from './sessions.js';
import { MergeCmd, ProfileCmd, ResetCmd, SupersedeCmd, type TargetKind, WriteCmd } from './writes.js';

/**
 * The operations a sequence is made of, with how often each is drawn. Writes and supersessions
 * dominate (they are what can go wrong); every entry point appears: CLI, MCP, hooks,
 * extraction, the dashboard, maintenance, and tampering with derived files.
 */

const project = fc.constantFrom<ProjectKey>('A', 'B');
const pick = fc.nat(40);
/** Mostly the project's own records; often global ones; sometimes the other project's or any. */
const target = fc.record({
  pick,
  kind: fc.constantFrom<TargetKind>('own', 'own', 'own', 'global', 'global', 'global', 'foreign', 'any'),
});
/** For profile edit/clear: global entries mostly. */
const profileTarget = fc.record({
  pick,
  kind: fc.constantFrom<TargetKind>('global', 'global', 'global', 'own', 'any'),
});
const topic = fc.constantFrom(...TOPICS);
const TYPES = [
  'decision',
  'decision',
  'decision',
  'convention',
  'preference',
  'preference',
  'discovery',
  'bugfix',
  'handover',
  'handover',
  'handover',
  'profile',
  'profile',
] as const;
const scope = fc.constantFrom<'project' | 'global'>('project', 'project', 'project', 'global');
/** `arb` one time in `n`, else null. */
function sometimes<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

const write = fc
  .tuple(
    project,
    fc.constantFrom<'cli' | 'mcp'>('cli', 'mcp'),
    fc.constantFrom(...TYPES),
    scope,
    textSpec,
    sometimes(target, 2),
    sometimes(pick, 5),
    fc.nat(4).map((n) => n > 0),
  )
  .map(([p, via, type, s, text, sup, near, same]) => new WriteCmd(p, via, type, s, text, sup, near, same));

const supersede = fc
  .tuple(project, fc.constantFrom<'cli' | 'mcp' | 'ui'>('cli', 'mcp', 'ui'), target, fc.boolean(), textSpec)
  .map(([p, via, t, newTitle, text]) => new SupersedeCmd(p, via, t, newTitle, text));

const profile = fc
  .tuple(project, fc.constantFrom<'edit' | 'clear'>('edit', 'clear'), profileTarget, textSpec)
  .map(([p, action, t, text]) => new ProfileCmd(p, action, t, text));

const merge = fc
  .tuple(
    project,
    target,
    target,
    fc.boolean(),
    fc.nat(3).map((n) => n > 0),
  )
  .map(([p, a, b, dismiss, proposed]) => new MergeCmd(p, a, b, dismiss, proposed));

const reset = fc
  .tuple(
    project,
    fc.nat(4).map((n) => n === 0),
  )
  .map(([p, global]) => new ResetCmd(p, global));

const sessionStart = fc
  .tuple(
    project,
    fc.constantFrom<'startup' | 'resume' | 'clear' | 'compact'>(
      'startup',
      'startup',
      'resume',
      'clear',
      'compact',
    ),
    pick,
  )
  .map(([p, source, i]) => new SessionStartCmd(p, source, i));

const prompt = fc.tuple(project, pick, pick).map(([p, i, j]) => new PromptCmd(p, i, j));

const stop = fc
  .tuple(project, pick, extractPlan, fc.option(topic, { freq: 2 }))
  .map(([p, i, plan, file]) => new StopCmd(p, i, plan, file));

const extract = fc.tuple(project, pick, extractPlan).map(([p, i, plan]) => new ExtractCmd(p, i, plan));

const sessionEnd = fc.tuple(project, pick).map(([p, i]) => new SessionEndCmd(p, i));

const postTool = fc
  .tuple(
    project,
    pick,
    fc.constantFrom<'edit' | 'build-error' | 'tests'>('edit', 'build-error', 'tests'),
    topic,
    fc.boolean(),
  )
  .map(([p, i, kind, t, pass]) => new PostToolCmd(p, i, kind, t, pass));

const consolidate = project.map((p) => new ConsolidateCmd(p));

const advance = fc
  .constantFrom(90, 60 * 30, 60 * 24 * 3, 60 * 24 * 45, 60 * 24 * 400)
  .map((minutes) => new AdvanceClockCmd(minutes));

const tamper = fc
  .tuple(project, fc.constantFrom(...TAMPER_KINDS))
  .map(([p, kind]) => new TamperDigestCmd(p, kind));

const deleteDerived = fc.constant(null).map(() => new DeleteDerivedCmd());

const show = fc.tuple(project, target).map(([p, t]) => new ShowCmd(p, t));

const history = project.map((p) => new HistoryReadsCmd(p));

export const commandArbitraries: fc.Arbitrary<Cmd>[] = [
  write,
  write,
  write,
  write,
  supersede,
  supersede,
  supersede,
  profile,
  merge,
  reset,
  sessionStart,
  sessionStart,
  prompt,
  prompt,
  stop,
  stop,
  extract,
  sessionEnd,
  postTool,
  consolidate,
  consolidate,
  advance,
  tamper,
  tamper,
  deleteDerived,
  show,
  history,
];
