import { expectThat } from '../config.js';
import type { Model, MSession } from '../model.js';
import { checkPromptText, checkSessionStartText, hookContext } from '../reads.js';
import { type Cmd, loadRows, type Real, step } from '../step.js';
import { TOPICS, type Topic } from '../text.js';
import { Visibility } from '../truth-sets.js';
import type { ProjectKey, World } from '../world.js';
import {
  appendTurn,
  type ExtractPlan,
  planLabel,
  resolvePlan,
  scriptExtraction,
  sessionFor,
  transcriptPath,
} from './extraction.js';

/** Claude Code session events, sent to the real hook processes with real payloads. */

function base(world: World, s: MSession, event: string): Record<string, unknown> {
  return {
    session_id: s.id,
    transcript_path: s.transcript,
    cwd: world.repo[s.project],
    permission_mode: 'default',
    hook_event_name: event,
  };
}

function visibility(world: World, m: Model, p: ProjectKey): Visibility {
  return new Visibility(world, loadRows(world), m, p);
}

/** SessionStart: a new session (startup) or an open one again (resume, clear, compact). */
export class SessionStartCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly source: 'startup' | 'resume' | 'clear' | 'compact',
    readonly pick: number,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `hook session-start (${this.source}) in ${this.p}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      let s: MSession;
      if (this.source === 'startup' || m.openSessions(this.p).length === 0) {
        const id = m.nextSessionId(this.p);
        s = {
          id,
          project: this.p,
          transcript: transcriptPath(w, id),
          lines: 0,
          open: true,
          injected: new Set(),
        };
        m.sessions.push(s);
      } else s = sessionFor(m, w, this.p, this.pick);
      if (this.source === 'clear' || this.source === 'compact') s.injected.clear();
      const res = await w.hook(this.p, 'session-start', {
        ...base(w, s, 'SessionStart'),
        source: this.source,
      });
      const text = hookContext(res, 'hook session-start');
      checkSessionStartText(visibility(w, m, this.p), text, `SessionStart (${this.source}) of ${s.id}`);
      return `${s.id}: ${text.length} characters`;
    });
  }
}

/** UserPromptSubmit in an open session, with a prompt that names a record (maybe a superseded one). */
export class PromptCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly pick: number,
    readonly promptPick: number,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `hook user-prompt-submit in ${this.p} naming record #${this.promptPick}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const s = sessionFor(m, w, this.p, this.pick);
      const pool = m.visible(this.p).sort((a, b) => (a.id < b.id ? -1 : 1));
      const named = pool.length ? pool[this.promptPick % pool.length] : undefined;
      const prompt = named
        ? `Remind me: ${named.title}?`
        : `What did we decide about ${TOPICS[this.promptPick % TOPICS.length]} and ${TOPICS[(this.promptPick + 1) % TOPICS.length]}?`;
      appendTurn(w, s, prompt);
      const res = await w.hook(this.p, 'user-prompt-submit', { ...base(w, s, 'UserPromptSubmit'), prompt });
      const text = hookContext(res, 'hook user-prompt-submit');
      checkPromptText(visibility(w, m, this.p), text, `prompt injection in ${s.id}`);
      const ids = [...text.matchAll(/, id ([0-9A-Z]{26})\]/g)].map((x) => x[1]!);
      const again = ids.filter((id) => s.injected.has(id));
      expectThat(
        'budget-prompt',
        again.length === 0,
        () => `prompt injection in ${s.id} repeats ${again.join(', ')}, already injected in this session`,
      );
      for (const id of ids) s.injected.add(id);
      return `${s.id}: injected ${ids.join(', ') || 'nothing'}${named ? ` (named ${named.id}, ${named.state})` : ''}`;
    });
  }
}

/**
 * Before an extraction runs: a decision the fake model says supersedes a current decision of
 * the same project must replace it; any other target must stay as it is.
 */
function expectTargets(m: Model, p: ProjectKey, plan: ExtractPlan, targets: (string | null)[]): void {
  if (plan.flush) return;
  for (const id of targets) {
    const t = id ? m.records.get(id) : undefined;
    if (t && t.state === 'current' && t.ns === p && t.type === 'decision')
      m.supersede(t.id, null, 'model-agreement');
  }
}

/** Stop: the turn ends; the hook starts `agentctx extract` in the background (fake model answers). */
export class StopCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly pick: number,
    readonly plan: ExtractPlan,
    readonly editFile: Topic | null,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `hook stop in ${this.p}${this.editFile ? ` after editing src/${this.editFile}.ts` : ''}; the model extracts: ${planLabel(this.plan)}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const s = sessionFor(m, w, this.p, this.pick);
      const file = this.editFile ? `src/${this.editFile}.ts` : undefined;
      appendTurn(w, s, `Please update the ${this.editFile ?? 'orders'} code.`, file);
      if (file) m.files[this.p].add(file);
      const { output, targets } = resolvePlan(m, this.p, this.plan);
      scriptExtraction(w, output);
      expectTargets(m, this.p, this.plan, targets);
      const res = await w.hook(this.p, 'stop', { ...base(w, s, 'Stop'), stop_hook_active: false });
      hookContext(res, 'hook stop');
      return `${s.id}; targets ${targets.filter(Boolean).join(', ') || 'none'}`;
    });
  }
}

/** `agentctx extract` run by hand on a session's transcript (the fake model answers). */
export class ExtractCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly pick: number,
    readonly plan: ExtractPlan,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `agentctx extract in ${this.p}; the model extracts: ${planLabel(this.plan)}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const s = sessionFor(m, w, this.p, this.pick);
      appendTurn(w, s, 'We settled the design; please write it down.');
      const { output, targets } = resolvePlan(m, this.p, this.plan);
      scriptExtraction(w, output);
      expectTargets(m, this.p, this.plan, targets);
      const res = await w.cliJson(this.p, [
        'extract',
        '--session-id',
        s.id,
        '--transcript',
        s.transcript,
        '--cwd',
        w.repo[this.p],
      ]);
      expectThat('model-agreement', res.code === 0, () => `extract failed: ${res.stdout}${res.stderr}`);
      const written = (res.json as { written?: { created?: { id: string; type: string }[] } } | null)
        ?.written;
      return `${s.id}: created ${(written?.created ?? []).map((c) => `${c.type} ${c.id}`).join(', ') || 'nothing'}; targets ${targets.filter(Boolean).join(', ') || 'none'}`;
    });
  }
}

/** SessionEnd: the hook flushes the session's counts and starts a background consolidation. */
export class SessionEndCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly pick: number,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    return `hook session-end in ${this.p}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const open = m.openSessions(this.p);
      if (open.length === 0) return 'no open session';
      const s = open[this.pick % open.length]!;
      const res = await w.hook(this.p, 'session-end', {
        ...base(w, s, 'SessionEnd'),
        reason: 'prompt_input_exit',
      });
      hookContext(res, 'hook session-end');
      s.open = false;
      return s.id;
    });
  }
}

/** PostToolUse: an edit (file link), a failing build (bugfix stub) or a test run (outcome record). */
export class PostToolCmd implements Cmd {
  constructor(
    readonly p: ProjectKey,
    readonly pick: number,
    readonly kind: 'edit' | 'build-error' | 'tests',
    readonly topic: Topic,
    readonly pass: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  toString(): string {
    const what = {
      edit: `Edit src/${this.topic}.ts`,
      'build-error': 'a failing npm run build',
      tests: `vitest test/${this.topic}.test.ts ${this.pass ? 'passing' : 'failing'}`,
    }[this.kind];
    return `hook post-tool-use in ${this.p}: ${what}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    await step(this, m, r, this.p, async () => {
      const w = r.world;
      const s = sessionFor(m, w, this.p, this.pick);
      let extra: Record<string, unknown>;
      if (this.kind === 'edit') {
        const file = `src/${this.topic}.ts`;
        m.files[this.p].add(file);
        extra = {
          tool_name: 'Edit',
          tool_input: { file_path: `${w.repo[this.p]}/${file}`, old_string: 'a', new_string: 'b' },
          tool_response: { filePath: `${w.repo[this.p]}/${file}`, success: true },
        };
      } else if (this.kind === 'build-error') {
        extra = {
          tool_name: 'Bash',
          tool_input: { command: 'npm run build', description: 'build' },
          tool_response: {
            stdout: '',
            stderr: `src/${this.topic}.ts(3,10): error TS2305: Module './${this.topic}-store' has no exported member 'load'.`,
            interrupted: false,
          },
        };
      } else {
        const out = this.pass
          ? ' Test Files  1 passed (1)\n      Tests  12 passed (12)'
          : ` FAIL  test/${this.topic}.test.ts > totals\nAssertionError: expected 1 to be 2\n Test Files  1 failed (1)\n      Tests  1 failed | 11 passed (12)`;
        extra = {
          tool_name: 'Bash',
          tool_input: { command: `npx vitest run test/${this.topic}.test.ts`, description: 'test' },
          tool_response: { stdout: out, stderr: '', interrupted: false },
        };
      }
      const res = await w.hook(this.p, 'post-tool-use', {
        ...base(w, s, 'PostToolUse'),
        tool_use_id: 'toolu_model',
        ...extra,
      });
      hookContext(res, 'hook post-tool-use');
      return s.id;
    });
  }
}
