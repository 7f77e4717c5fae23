import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDigest } from '../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { gitRepo } from '../support/claude.js';
import { BIN, runJson, spawnCollect } from '../support/cli.js';
import { CODEX_BIN, codexEnv, runCodexExec, writeCodexConfig } from '../support/codex.js';
import {
  developerTexts,
  type FakeResponsesApi,
  type RecordedResponsesRequest,
  startFakeResponsesApi,
} from '../support/fake-responses-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * A Codex subagent, with the real client offline: the parent's model calls `spawn_agent`
 * (namespace multi_agent_v1) with a task, then `wait_agent`. Codex fires SubagentStart with no
 * task in the payload; agentctx reads it from the parent's rollout and injects the records that
 * bear on it, which reach the child's first request as a developer message before its task.
 */

const TASK = 'Check why the ledger retries back off and whether five attempts are enough.';
const RECORD_MARK = 'SUBAGENT-LEDGER-MARK-93';
const OTHER_MARK = 'SUBAGENT-UNRELATED-MARK-17';
const DIGEST_MARK = 'SUBAGENT-DIGEST-MARK-55';
const PROMPT = 'Delegate the ledger retry question to a helper agent.';

type Input = {
  type?: string;
  name?: string;
  role?: string;
  output?: string;
  content?: { text?: string }[];
}[];
const inputOf = (req: RecordedResponsesRequest) =>
  Array.isArray(req.body.input) ? (req.body.input as Input) : [];
const userTexts = (req: RecordedResponsesRequest) =>
  inputOf(req)
    .filter((i) => i.role === 'user')
    .flatMap((i) => (i.content ?? []).map((c) => c.text ?? ''));

/** The child's requests: its task is a user message of its own, and it spawned nothing. */
function isChild(req: RecordedResponsesRequest): boolean {
  return userTexts(req).includes(TASK);
}

describe.skipIf(!CODEX_BIN)('a Codex subagent gets the records that bear on its task', () => {
  let api: FakeResponsesApi;
  let home: ReturnType<typeof tempDir>;
  let run: { code: number | null; stdout: string; stderr: string };
  let recordId: string;

  beforeAll(async () => {
    api = await startFakeResponsesApi((req) => {
      if (isChild(req)) return [{ type: 'text', text: 'Five attempts from 200 ms cover the outage window.' }];
      if (!req.raw.includes(PROMPT)) return [{ type: 'text', text: '{"title":"Ledger retries"}' }];
      const calls = inputOf(req)
        .filter((i) => i.type === 'function_call')
        .map((i) => i.name);
      if (!calls.includes('spawn_agent'))
        return [
          {
            type: 'function_call',
            namespace: 'multi_agent_v1',
            name: 'spawn_agent',
            arguments: { message: TASK, agent_type: 'default' },
          },
        ];
      if (!calls.includes('wait_agent')) {
        const spawned = inputOf(req).find((i) => i.type === 'function_call_output');
        const id = (JSON.parse(spawned?.output ?? '{}') as { agent_id?: string }).agent_id ?? '';
        return [
          {
            type: 'function_call',
            namespace: 'multi_agent_v1',
            name: 'wait_agent',
            arguments: { targets: [id], timeout_ms: 30_000 },
          },
        ];
      }
      return [{ type: 'text', text: 'The helper says five attempts are enough.' }];
    });
    home = tempDir('agentctx-codex-subagent-');
    const repo = gitRepo(join(home.path, 'work', 'ledger'), 'https://github.com/example/ledger.git');
    const dataHome = join(home.path, 'agentctx-data');
    const env = codexEnv(home.path, { AGENTCTX_HOME: dataHome });
    writeCodexConfig(env.CODEX_HOME as string, api.url, [repo]);
    const init = await spawnCollect(process.execPath, [BIN, 'init', '--agent', 'codex', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(init.code, init.stderr).toBe(0);
    const project = (JSON.parse(init.stdout) as { project: { id: string } }).project.id;
    const record = (title: string, body: string) =>
      runJson<{ id: string }>(['record', '--type', 'decision', '--title', title, '--body', body], {
        cwd: repo,
        env,
      });
    recordId = record(
      'Ledger retries back off exponentially, five attempts',
      `Ledger write retries back off exponentially from 200 ms, five attempts at most. ${RECORD_MARK}`,
    ).json.id;
    record('Invoices render with the Inter typeface', `The invoice PDF uses Inter 11pt. ${OTHER_MARK}`);
    writeDigest(join(dataHome, 'digests'), project, {
      text: `## Project context (agentctx)\n- decision: orders live in Postgres. ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(dataHome, 'agentctx.db')).begun,
    });
    run = await runCodexExec({ cwd: repo, env, prompt: PROMPT, timeoutMs: 90_000 });
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('the parent spawned the child and waited for it', () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    // a child thread's hook runs are not printed by codex exec; its requests are the evidence
    expect(api.requests.some(isChild)).toBe(true);
    expect(run.stdout).toContain('five attempts are enough');
  });

  it("the child's first request carries the record its task bears on, within Codex's cap", () => {
    const first = api.requests.find(isChild)!;
    const dev = developerTexts(first).filter((t) => t.includes('agentctx'));
    expect(dev.join('\n')).toContain(RECORD_MARK);
    expect(dev.join('\n')).toContain(recordId);
    expect(dev.join('\n')).not.toContain(OTHER_MARK);
    for (const t of dev) expect(Buffer.byteLength(t, 'utf8')).toBeLessThanOrEqual(10_000);
    // measured with 0.169: a child gets none of the session's SessionStart context
    expect(first.raw).not.toContain(DIGEST_MARK);
    // the injection comes before the task
    const input = inputOf(first);
    const at = (pred: (i: Input[number]) => boolean) => input.findIndex(pred);
    expect(at((i) => (i.content ?? []).some((c) => (c.text ?? '').includes(RECORD_MARK)))).toBeLessThan(
      at((i) => (i.content ?? []).some((c) => c.text === TASK)),
    );
  });
});
