import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexSubagentTask } from '../../../src/codex/subagent-task.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeAll(() => {
  t = tempDir('agentctx-codex-subtask-');
});
afterAll(() => t.cleanup());

const PARENT = '01a24477-2f88-76b1-9f0e-3b564b6443e2';
const line = (payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: '2026-12-05T04:29:51.639Z', type: 'response_item', payload });
const spawn = (callId: string, message: string) =>
  line({
    type: 'function_call',
    name: 'spawn_agent',
    namespace: 'multi_agent_v1',
    arguments: JSON.stringify({ message, agent_type: 'default' }),
    call_id: callId,
  });
const spawned = (callId: string, agentId: string) =>
  line({
    type: 'function_call_output',
    call_id: callId,
    output: JSON.stringify({ agent_id: agentId, nickname: 'Plato' }),
  });

let n = 0;
/** A sessions tree with the parent's rollout in `parentDay` and the child's in `childDay`. */
function tree(lines: string[], parentDay = '2026/12/05', childDay = parentDay) {
  const root = join(t.path, `s${n++}`, 'sessions');
  mkdirSync(join(root, parentDay), { recursive: true });
  mkdirSync(join(root, childDay), { recursive: true });
  writeFileSync(
    join(root, parentDay, `rollout-2026-12-05T04-29-51-${PARENT}.jsonl`),
    `${lines.join('\n')}\n`,
  );
  const child = join(root, childDay, 'rollout-2026-12-05T04-29-52-child.jsonl');
  writeFileSync(child, `${JSON.stringify({ type: 'session_meta', payload: { id: 'child' } })}\n`);
  return child;
}

describe("a Codex subagent's task, from the parent's rollout", () => {
  it('the call whose output names the agent, among earlier and later spawns and garbage', () => {
    const task = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(
        task,
        fc.array(task, { maxLength: 4 }),
        fc.array(fc.string(), { maxLength: 5 }),
        (mine, others, junk) => {
          const lines = [
            ...others.flatMap((m, i) => [spawn(`c${i}`, m), spawned(`c${i}`, `other-${i}`)]),
            ...junk,
            spawn('mine', mine),
            spawned('mine', 'agent-7'),
            spawn('later', 'a later spawn, still waiting'),
          ];
          expect(codexSubagentTask(tree(lines), PARENT, 'agent-7', 0)).toBe(mine);
        },
      ),
      { seed: 153, numRuns: 60 },
    );
  });

  it('the one spawn with no output yet, when the output naming the agent is not written', () => {
    const child = tree([spawn('a', 'first task'), spawned('a', 'agent-1'), spawn('b', 'the new task')]);
    expect(codexSubagentTask(child, PARENT, 'agent-2', 0)).toBe('the new task');
    // two spawns waiting: nothing tells them apart
    const two = tree([spawn('a', 'one'), spawn('b', 'two')]);
    expect(codexSubagentTask(two, PARENT, 'agent-2', 0)).toBe('');
  });

  it("finds the parent's rollout in an earlier day's folder; nothing for unsafe ids or no rollout", () => {
    const child = tree([spawn('a', 'yesterday task'), spawned('a', 'agent-1')], '2026/12/04', '2026/12/05');
    expect(codexSubagentTask(child, PARENT, 'agent-1', 0)).toBe('yesterday task');
    expect(codexSubagentTask(child, '../x', 'agent-1', 0)).toBe('');
    expect(codexSubagentTask(child, PARENT, 'a/b', 0)).toBe('');
    expect(codexSubagentTask(child, 'no-such-parent', 'agent-1', 0)).toBe('');
    expect(codexSubagentTask('', PARENT, 'agent-1', 0)).toBe('');
  });
});
