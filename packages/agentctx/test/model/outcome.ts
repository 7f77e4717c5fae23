import type { Model, MRecord, Ns } from './model.js';
import type { Expectation, Outcome } from './step.js';
import type { ProjectKey, Run } from './world.js';

/** Outcomes of a write, read from each channel's answer. */

export function cliOutcome(r: Run & { json: unknown }, idKey = 'id'): Outcome {
  const j = (r.json ?? {}) as Record<string, unknown>;
  const id = typeof j[idKey] === 'string' ? (j[idKey] as string) : undefined;
  if (r.code === 0 && !('error' in j)) return { ok: true, id, structured: true, raw: r.stdout };
  return {
    ok: false,
    error: typeof j.error === 'string' ? j.error : undefined,
    structured: typeof j.error === 'string' && r.code !== 0,
    raw: `${r.stdout}${r.stderr}`,
  };
}

export function mcpOutcome(
  res: { isError: boolean; json: Record<string, unknown>; text: string },
  idKey = 'id',
): Outcome {
  if (!res.isError) {
    const id = res.json[idKey];
    return { ok: true, id: typeof id === 'string' ? id : undefined, structured: true, raw: res.text };
  }
  const error = res.json.error;
  return {
    ok: false,
    error: typeof error === 'string' ? error : undefined,
    structured: typeof error === 'string',
    raw: res.text,
  };
}

export function uiOutcome(res: { status: number; json: unknown }, idKey = 'new_id'): Outcome {
  const j = (res.json ?? {}) as Record<string, unknown>;
  if (res.status === 200) {
    const id = j[idKey];
    return {
      ok: true,
      id: typeof id === 'string' ? id : undefined,
      structured: true,
      raw: JSON.stringify(j),
    };
  }
  const e = j.error as { message?: unknown } | undefined;
  return {
    ok: false,
    error: typeof e?.message === 'string' ? e.message : undefined,
    structured: typeof e?.message === 'string',
    raw: JSON.stringify(j),
  };
}

function visibleFrom(r: MRecord, p: ProjectKey): boolean {
  return r.state !== 'deleted' && (r.ns === p || r.ns === 'G');
}

/** Why a write naming `target` from project `p` must fail, or null when it may go ahead. */
function targetProblem(target: MRecord, p: ProjectKey): Expectation | null {
  if (!visibleFrom(target, p)) {
    const foreign = target.ns !== p && target.ns !== 'G';
    return {
      ok: false,
      why: foreign ? 'namespace-writes' : 'model-agreement',
      reason: foreign ? `${target.id} belongs to project ${target.ns}` : `${target.id} was deleted`,
    };
  }
  if (target.state !== 'current')
    return { ok: false, why: 'model-agreement', reason: `${target.id} is already superseded` };
  return null;
}

/** `record` / `ctx_record`: a new record, optionally superseding `target`. */
export function expectCreate(
  p: ProjectKey,
  type: string,
  scope: 'project' | 'global',
  target: MRecord | undefined,
): Expectation {
  const ns: Ns = scope === 'global' ? 'G' : p;
  if (scope === 'global' && (type === 'handover' || type === 'profile'))
    return { ok: false, why: 'model-agreement', reason: `a ${type} belongs to a project` };
  if (!target) return { ok: true };
  const bad = targetProblem(target, p);
  if (bad) return bad;
  if (target.type !== type)
    return { ok: false, why: 'model-agreement', reason: `a ${type} cannot supersede a ${target.type}` };
  if (target.ns !== ns)
    return {
      ok: false,
      why: 'namespace-writes',
      reason: `a ${scope} record of project ${p} cannot supersede ${target.ns === 'G' ? 'a global' : `project ${target.ns}'s`} record ${target.id}`,
    };
  return { ok: true };
}

/** `supersede` / `ctx_supersede` / the dashboard's edit: same type and scope as the target. */
export function expectSupersede(p: ProjectKey, target: MRecord): Expectation {
  return targetProblem(target, p) ?? { ok: true };
}

/** `profile edit` / `profile clear`: a current global entry only. */
export function expectProfileEntry(target: MRecord): Expectation {
  if (target.ns !== 'G' || target.state === 'deleted')
    return { ok: false, why: 'model-agreement', reason: `${target.id} is not a global profile entry` };
  if (target.state !== 'current')
    return { ok: false, why: 'model-agreement', reason: `${target.id} is already superseded` };
  return { ok: true };
}

/** `merge X Y`: two different current records of one namespace and type, both visible. */
export function expectMerge(p: ProjectKey, a: MRecord, b: MRecord): Expectation {
  if (a.id === b.id) return { ok: false, why: 'model-agreement', reason: 'the same record twice' };
  for (const r of [a, b]) {
    const bad = targetProblem(r, p);
    if (bad) return bad;
  }
  if (a.ns !== b.ns || a.type !== b.type)
    return { ok: false, why: 'model-agreement', reason: 'only records of one type and namespace merge' };
  return { ok: true };
}

/** Apply a successful write to the model: the new record, the superseded target, the keyed rule. */
export function applyCreate(
  m: Model,
  rec: Omit<MRecord, 'state' | 'supersededBy' | 'authored' | 'why'>,
  target: MRecord | undefined,
  why: Expectation,
): MRecord {
  const added = m.add({ ...rec, authored: true, why: 'model-agreement' });
  if (target) m.supersede(target.id, added.id, why.ok ? 'model-agreement' : why.why);
  m.applyKeyedRule(added);
  return added;
}
