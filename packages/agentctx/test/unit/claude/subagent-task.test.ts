import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lookUpTask, subagentTask, TASK_TAIL_BYTES } from '../../../src/claude/subagent-task.js';
import { tempDir } from '../../support/tmp.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';

const tmp = tempDir('agentctx-subtask-');
afterAll(() => tmp.cleanup());
let n = 0;
const file = () => join(tmp.path, `t${++n}.jsonl`);

describe('the task of a starting subagent', () => {
  it('is the one Agent call without a result, whatever surrounds it', () => {
    const noise = fc.oneof(
      fc.constant('not json at all'),
      fc.constant('{"type":"assistant","message":{"content":[{"type":"tool_use"'),
      fc.string({ maxLength: 40 }).map((s) => s.replace(/\n/g, ' ')),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('done' as const), fc.constant('side' as const), noise), {
          maxLength: 8,
        }),
        fc.string({ minLength: 1, maxLength: 60 }).map((s) => `task ${s.replace(/\s+/g, ' ')}`),
        (steps, task) => {
          const t = new TranscriptBuilder('s', '/repo').user('go');
          const extra: string[] = [];
          for (const s of steps) {
            if (s === 'done') t.tool('Agent', { prompt: 'an earlier finished task' }, 'finished');
            else if (s === 'side')
              t.tool('Agent', { prompt: 'a subagent of its own' }, 'x', { sidechain: true });
            else extra.push(s);
          }
          t.agentCalls([{ prompt: task }]);
          const path = file();
          t.write(path);
          for (const line of extra) appendFileSync(path, `${line}\n`);
          expect(lookUpTask(path, 's', 'a1')).toEqual({ text: task, from: 'pending' });
        },
      ),
      { seed: 99, numRuns: 60 },
    );
  });

  it('prefers the launch result naming the agent, then the agent’s own transcript', () => {
    const t = new TranscriptBuilder('sess', '/repo').user('go');
    const [a, b] = t.agentCalls([{ prompt: 'first task' }, { prompt: 'second task' }]);
    const path = join(tmp.path, 'sess.jsonl');
    t.write(path);
    expect(lookUpTask(path, 'sess', 'x').from).toBe('siblings');
    expect(lookUpTask(path, 'sess', 'x').text).toBe('second task\n\nfirst task');
    mkdirSync(join(tmp.path, 'sess', 'subagents'), { recursive: true });
    writeFileSync(
      join(tmp.path, 'sess', 'subagents', 'agent-x.jsonl'),
      `${JSON.stringify({ type: 'user', isSidechain: true, message: { role: 'user', content: 'second task' } })}\n`,
    );
    expect(lookUpTask(path, 'sess', 'x')).toEqual({ text: 'second task', from: 'own' });
    t.agentLaunched(a!, 'ag-1', { prompt: 'first task' });
    t.agentLaunched(b!, 'ag-2', { prompt: 'second task' });
    t.write(path);
    expect(lookUpTask(path, 'sess', 'ag-1')).toEqual({ text: 'first task', from: 'launch' });
    // an agent id with a path in it never reaches the file system
    expect(lookUpTask(path, 'sess', '../x').from).toBe('none');
  });

  it('reads only the tail of a long transcript, dropping the partial first line', () => {
    const t = new TranscriptBuilder('s', '/repo').user('go');
    const path = file();
    t.write(path);
    appendFileSync(path, `${'x'.repeat(TASK_TAIL_BYTES)}\n`);
    const late = new TranscriptBuilder('s', '/repo');
    late.agentCalls([{ prompt: 'the late task' }]);
    appendFileSync(path, late.text());
    expect(lookUpTask(path, 's', 'a')).toEqual({ text: 'the late task', from: 'pending' });
  });

  it('waits for a transcript with no task yet, and for one not created yet', () => {
    const path = file();
    new TranscriptBuilder('s', '/repo').user('go').write(path);
    let t0 = Date.now();
    expect(subagentTask(path, 's', 'a', 150).from).toBe('none');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    t0 = Date.now();
    expect(subagentTask(join(tmp.path, 'missing.jsonl'), 's', 'a', 150).from).toBe('none');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    // claude -p creates the parent transcript at its first flush, which can come after the
    // first SubagentStart: another process writes it while the lookup waits
    const late = join(tmp.path, 'late.jsonl');
    const staged = join(tmp.path, 'staged.jsonl');
    const lateText = new TranscriptBuilder('s', '/repo');
    lateText.agentCalls([{ prompt: 'the task written late' }]);
    lateText.write(staged);
    const writer = spawn('sh', ['-c', 'sleep 0.3; mv "$0" "$1"', staged, late], { stdio: 'ignore' });
    t0 = Date.now();
    expect(subagentTask(late, 's', 'a', 10_000)).toEqual({ text: 'the task written late', from: 'pending' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    writer.unref();
  });
});
