import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';
import { makeWorld, running, storedRecords } from '../demo/driver.js';
import { renderStep, renderSummary } from '../demo/render.js';
import { type DemoStep, runDemo } from '../demo/run.js';
import { SAMPLE_NAME, SESSION_1 } from '../demo/sample.js';
import { makeStyle } from '../style.js';

/** The folder the demo works in: a new temporary one, or `--keep DIR` (new or empty). */
function demoDir(keep: string | undefined): string {
  if (!keep) return realpathSync(mkdtempSync(join(tmpdir(), 'agentctx-demo-')));
  const dir = resolve(keep);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new AgentctxError('usage', `--keep needs a new or empty folder; ${dir} is not empty`);
  mkdirSync(dir, { recursive: true });
  return realpathSync(dir);
}

export const command: Command = {
  name: 'demo',
  summary: 'See the whole loop in a few seconds: two scripted sessions in a throwaway project, no API key.',
  usage: 'agentctx demo [--keep DIR] [--json]',
  group: 'everyday',
  line: 'watch the whole loop in seconds, in a throwaway project (no API key)',
  options: {
    keep: {
      kind: 'string',
      help: 'keep the demo folder (a new or empty DIR) to look at it with agentctx ui',
    },
  },
  examples: ['agentctx demo', 'agentctx demo --keep /tmp/agentctx-demo'],
  async run({ args, json, io }) {
    const keep = str(args.flags, 'keep');
    const dir = demoDir(keep);
    const world = makeWorld(dir, process.env, SAMPLE_NAME);
    const style = makeStyle(!json && io.color === true);
    const steps: DemoStep[] = [];
    const spawned = new Set<number>();
    const cleanup = () => {
      // a background job still running would write into the folder after it is gone
      for (const pid of spawned)
        if (running(pid))
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // ended meanwhile
          }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    };
    const onSignal = () => {
      cleanup();
      process.exit(130);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const started = performance.now();
    if (!json) {
      io.stdout(
        [
          style.bold('agentctx demo: two Claude Code sessions, played by script against the real hooks'),
          style.dim(`  project  ${world.repo} (a sample repository)`),
          style.dim(`  home     ${world.home} (AGENTCTX_HOME; your ~/.agentctx is not touched)`),
          style.dim('  model    none: extraction is rule-based (no API key, no network)'),
        ].join('\n'),
      );
    }
    let git = false;
    try {
      ({ git } = await runDemo(world, (s) => {
        steps.push(s);
        for (const b of s.background ?? []) spawned.add(b.pid);
        if (!json) io.stdout(renderStep(s, steps.length, style));
      }));
      const records = storedRecords(world);
      const digest = steps.find((s) => s.session === 2 && s.via.startsWith('SessionStart'))?.received ?? null;
      const injection =
        steps.find((s) => s.session === 2 && s.via.startsWith('UserPrompt'))?.received ?? null;
      const result = {
        dir,
        kept: Boolean(keep),
        project: world.repo,
        home: world.home,
        git,
        steps,
        digest,
        injection,
        records,
        decision_title: SESSION_1.decision.title,
        ms: Math.round(performance.now() - started),
      };
      cleanup();
      const text = renderSummary(result, style);
      return { json: result, text };
    } catch (err) {
      cleanup();
      throw err;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  },
};
