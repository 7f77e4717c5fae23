import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDigest } from '../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { gitRepo } from '../support/claude.js';
import { BIN, PACKAGE_ROOT, runAgentctx, runJson, spawnCollect } from '../support/cli.js';
import { CODEX_BIN, codexEnv, runCodexExec, writeCodexConfig } from '../support/codex.js';
import {
  developerTexts,
  type FakeResponsesApi,
  type RecordedResponsesRequest,
  startFakeResponsesApi,
  turnRequests,
} from '../support/fake-responses-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The Codex plugin with the real Codex CLI, offline: `codex plugin marketplace add <this
 * repository>` and `codex plugin add agentctx@agentctx` into a throwaway CODEX_HOME, then
 * `agentctx init --agent codex`, which finds the plugin enabled, writes no hooks.json and no
 * MCP table, and only trusts the plugin's hooks (Codex skips untrusted plugin hooks as it skips
 * any other). A `codex exec` session then gets the digest in its first request and answers a
 * `ctx_search` through the plugin's MCP server; uninstall and `codex plugin remove` give
 * config.toml back byte for byte.
 */

const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');
const DIGEST_MARK = 'CODEX-PLUGIN-DIGEST-7f3c';
const RECORD_MARK = 'CODEX-PLUGIN-REC-2a9e';
const RECORD_TITLE = 'Invoices are rounded half to even';
const PROMPT = 'How are invoice totals rounded here?';

interface DoctorCheck {
  id: string;
  status: string;
  summary: string;
  fix?: string;
}

function hasOutput(req: RecordedResponsesRequest, marker: string): boolean {
  const input = Array.isArray(req.body.input) ? (req.body.input as Record<string, unknown>[]) : [];
  return input.some(
    (i) => i.type === 'function_call_output' && JSON.stringify(i.output ?? '').includes(marker),
  );
}

describe.skipIf(!CODEX_BIN)('the agentctx plugin installed into a real codex', () => {
  let api: FakeResponsesApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let dataHome: string;
  let configPath: string;
  let configAfterPlugin: string;
  let doctorBefore: DoctorCheck | undefined;
  let initOut: { codex: { plugin?: string; trust: { status: string; keys: string[] } } };
  let run: { code: number | null; stdout: string; stderr: string };
  const codexDoctor = async () => {
    const r = await spawnCollect(process.execPath, [BIN, 'doctor', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    return (JSON.parse(r.stdout) as { checks: DoctorCheck[] }).checks.find((c) => c.id === 'codex');
  };
  const codex = (args: string[]) =>
    spawnCollect(CODEX_BIN as string, args, { cwd: repo, env, input: '', timeoutMs: 60_000 });

  beforeAll(async () => {
    api = await startFakeResponsesApi((req) => {
      if (!req.raw.includes(PROMPT)) return [{ type: 'text', text: '{"title":"Invoice rounding"}' }];
      if (!hasOutput(req, RECORD_TITLE))
        return [
          {
            type: 'function_call',
            namespace: 'mcp__agentctx',
            name: 'ctx_search',
            arguments: { query: 'invoice rounding' },
          },
        ];
      return [{ type: 'text', text: 'Half to even, as recorded.' }];
    });
    home = tempDir('agentctx-codex-plugin-e2e-');
    repo = gitRepo(join(home.path, 'work', 'billing'), 'https://github.com/example/codex-billing.git');
    dataHome = join(home.path, 'agentctx-data');
    env = codexEnv(home.path, { AGENTCTX_HOME: dataHome });
    configPath = writeCodexConfig(env.CODEX_HOME as string, api.url, [repo]);
    const added = await codex(['plugin', 'marketplace', 'add', REPO_ROOT]);
    expect(added.code, added.stderr).toBe(0);
    const installed = await codex(['plugin', 'add', 'agentctx@agentctx']);
    expect(installed.code, installed.stderr).toBe(0);
    configAfterPlugin = readFileSync(configPath, 'utf8');
    doctorBefore = await codexDoctor();
    const init = await spawnCollect(process.execPath, [BIN, 'init', '--agent', 'codex', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(init.code, init.stderr).toBe(0);
    initOut = JSON.parse(init.stdout);
    const project = (JSON.parse(init.stdout) as { project: { id: string } }).project.id;
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'convention',
        '--title',
        RECORD_TITLE,
        '--body',
        `Invoice totals are rounded half to even, at the last step only. ${RECORD_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    writeDigest(join(dataHome, 'digests'), project, {
      text: `## Project context (agentctx)\n- convention: amounts are integers of cents. ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(dataHome, 'agentctx.db')).begun,
    });
    run = await runCodexExec({ cwd: repo, env, prompt: PROMPT, timeoutMs: 60_000 });
  }, 240_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('Codex installs the plugin from the repository marketplace, its hooks untrusted until init', async () => {
    expect(configAfterPlugin).toContain('[plugins."agentctx@agentctx"]');
    expect(configAfterPlugin).not.toContain('[hooks.state');
    // doctor sees the plugin's hooks, and that Codex would skip them
    expect(doctorBefore?.status).toBe('fail');
    expect(doctorBefore?.summary).toContain('7 of 7 agentctx hook(s) registered but not trusted');
    expect(doctorBefore?.fix).toContain('agentctx init --agent codex');
    const after = await codexDoctor();
    expect(after?.status).toBe('ok');
    expect(after?.summary).toContain('7 hooks of the Codex plugin agentctx@agentctx trusted');
    expect(initOut.codex.plugin).toBe('agentctx@agentctx');
    expect(initOut.codex.trust.status).toBe('trusted');
    // every key is a plugin hook's (`<plugin id>:<file>:<event>:<group>:<handler>`)
    expect(initOut.codex.trust.keys.length).toBe(7);
    for (const k of initOut.codex.trust.keys)
      expect(k).toMatch(/^agentctx@agentctx:hooks\/codex-hooks\.json:/);
    // the plugin brings hooks and server: init wrote neither
    expect(existsSync(join(env.CODEX_HOME as string, 'hooks.json'))).toBe(false);
    expect(readFileSync(configPath, 'utf8')).not.toContain('[mcp_servers.agentctx]');

    // status counts the plugin's hooks and server, trusted, and its server answers
    const status = await spawnCollect(process.execPath, [BIN, 'status', '--verbose', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(status.code, status.stderr).toBe(0);
    const codexLine = (
      JSON.parse(status.stdout) as {
        agents: { agent: string; hooks: string[]; mcp: boolean; trusted: unknown; mcp_answering?: string }[];
      }
    ).agents.find((x) => x.agent === 'codex');
    expect(codexLine).toMatchObject({ mcp: true, trusted: { trusted: 7, of: 7 } });
    expect(codexLine?.hooks).toHaveLength(7);
    expect(codexLine?.mcp_answering).toMatch(/^MCP answering \(\d+ tools/);
  });

  it('the session ran the plugin hooks (no bypass flag) and the first request carries the digest', () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toContain('hook: SessionStart Completed');
    const first = turnRequests(api)[0]!;
    const dev = developerTexts(first).join('\n');
    expect(dev).toContain(DIGEST_MARK);
    expect(dev).toContain(RECORD_MARK);
  });

  it("ctx_search goes through the plugin's MCP server and back", () => {
    const first = turnRequests(api)[0]!;
    const tools = first.body.tools as { type?: string; name?: string; tools?: { name?: string }[] }[];
    const ns = tools.find((t) => t.type === 'namespace' && t.name === 'mcp__agentctx');
    expect(ns?.tools?.map((t) => t.name)).toContain('ctx_search');
    expect(turnRequests(api).some((r) => hasOutput(r, RECORD_TITLE))).toBe(true);
  });

  it('uninstall and codex plugin remove give config.toml back as it was', async () => {
    const un = runAgentctx(['uninstall', '--agent', 'codex'], { cwd: repo, env });
    expect(un.code, un.stderr).toBe(0);
    expect(un.stdout).toContain('codex plugin remove agentctx@agentctx');
    expect(readFileSync(configPath, 'utf8')).toBe(configAfterPlugin);
    const removed = await codex(['plugin', 'remove', 'agentctx@agentctx']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readFileSync(configPath, 'utf8')).not.toContain('agentctx@agentctx');
  });
});
