import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentctxError } from '../../shared/errors.js';
import { VERSION } from '../../version.js';
import type { Command } from '../command.js';
import { otherAgentChecks } from '../doctor/agents-checks.js';
import type { Check } from '../doctor/check.js';
import { binaryCheck, hooksCheck, mcpCheck } from '../doctor/claude-checks.js';
import { codexCheck } from '../doctor/codex-checks.js';
import { diskCheck, logsCheck } from '../doctor/home-checks.js';
import { mcpAnsweringChecks } from '../doctor/mcp-answering.js';
import { digestCheck, embeddingsCheck, extractionCheck, storeCheck } from '../doctor/store-checks.js';
import { makeStyle, type Style, table } from '../style.js';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

function render(checks: readonly Check[], style: Style): string {
  const paint = { ok: style.green, warn: style.yellow, fail: style.red } as const;
  const lines: string[] = [];
  const rows = checks.map((c) => [paint[c.status](MARK[c.status]), style.bold(c.label), c.summary]);
  lines.push(table(rows));
  const todo = checks.filter((c) => c.fix && c.status !== 'ok');
  if (todo.length > 0) {
    lines.push('', style.bold('What to do:'));
    for (const c of todo) lines.push(`  ${paint[c.status](MARK[c.status])} ${c.label}: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  lines.push(
    '',
    failed > 0
      ? style.red(`${failed} problem${failed === 1 ? '' : 's'}: agentctx is not fully working here.`)
      : style.green('agentctx works here.'),
  );
  return lines.join('\n');
}

export const command: Command = {
  name: 'doctor',
  summary:
    'Check whether agentctx works here (hooks, binary, MCP server, store, jobs, models) and say what to do if not.',
  usage: 'agentctx doctor [--cwd DIR] [--json]',
  group: 'setup',
  line: 'check that agentctx works here, and say what to do when it does not',
  options: {},
  examples: ['agentctx doctor', 'agentctx doctor --json'],
  async run({ app, json, io }) {
    const a = app();
    // a broken config.json is itself a finding, not a reason to stop
    let configError: string | null = null;
    try {
      void a.config;
    } catch (err) {
      if (!(err instanceof AgentctxError)) throw err;
      configError = err.message;
    }
    const hooks = hooksCheck(a);
    const store = storeCheck(a);
    // without a home yet, the processes doctor starts get a throwaway one: it creates nothing
    const scratch = existsSync(a.paths.home) ? null : mkdtempSync(join(tmpdir(), 'agentctx-doctor-'));
    const checks: Check[] = [hooks.check];
    try {
      checks.push(binaryCheck(a, hooks.registered, scratch), await mcpCheck(a, scratch), store.check);
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
    if (configError)
      checks.push({
        id: 'config',
        label: 'config',
        status: 'fail',
        summary: configError,
        fix: `fix or remove ${a.paths.config}`,
      });
    else {
      checks.push(extractionCheck(a));
      checks.push(await embeddingsCheck(a, store.usable));
    }
    const codex = await codexCheck(a);
    if (codex) checks.push(codex);
    checks.push(...otherAgentChecks(a));
    // each agent's registered MCP server started as the agent would start it
    checks.push(...(await mcpAnsweringChecks(a)));
    checks.push(logsCheck(a), digestCheck(a, store.usable), diskCheck(a));
    const failed = checks.filter((c) => c.status === 'fail').length;
    const result = {
      ok: failed === 0,
      version: VERSION,
      node: process.version,
      home: a.paths.home,
      project: { id: a.project.id, name: a.project.name, root: a.project.root },
      checks,
    };
    return {
      json: result,
      text: render(checks, makeStyle(!json && io.color === true)),
      ...(failed > 0 ? { exitCode: 1 } : {}),
    };
  },
};
