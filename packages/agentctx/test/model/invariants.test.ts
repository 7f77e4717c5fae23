import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type FakeApi, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';
import { commandArbitraries } from './commands/index.js';
import { enabledList, PROPERTIES, RUN, SURVEY, surveyed, Violation } from './config.js';
import { Model } from './model.js';
import { freeTokenizer } from './reads.js';
import { rebuildCheck } from './rebuild.js';
import { commandCounts, type Real } from './step.js';
import { World } from './world.js';

/**
 * The model-based test of issue 14: random sequences of operations through the real entry
 * points (the built CLI, hook processes with real payloads, the MCP server over stdio, the
 * dashboard's API, extraction against the fake Messages API), across two projects and the
 * global scope, checked against a reference model and the store after every step on every
 * default read path; at the end of each sequence, CONTRACTS.md §inv-7 (delete everything derived,
 * rebuild, compare every output). See README.md beside this file for how to run it and read
 * its reports.
 *
 *   AGENTCTX_MODEL_RUNS / _STEPS / _SEED / _TIME_MS   how much to run (see config.ts)
 *   AGENTCTX_MODEL_SKIP / _ONLY                       which properties to check
 */

/**
 * Sequences of up to RUN.maxCommands steps, lengths spread evenly: fast-check's usual bias
 * towards tiny values in the first runs would spend a short run on near-empty sequences.
 */
const sequenceArb = fc.noBias(fc.commands(commandArbitraries, { maxCommands: RUN.maxCommands, size: 'max' }));

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  freeTokenizer();
});

describe('the contracts hold on every path, whatever the sequence (model-based)', () => {
  it(
    'no stale or foreign record on any read path, keyed records unique, budgets kept, derived data rebuildable',
    async () => {
      let sequences = 0;
      let steps = 0;
      const started = Date.now();
      /** Set at the first failure: shrinking stops (candidates pass unrun) once it is reached. */
      let shrinkUntil = Number.POSITIVE_INFINITY;
      await fc.assert(
        fc.asyncProperty(sequenceArb, async (cmds) => {
          if (Date.now() > shrinkUntil) return;
          sequences++;
          const t = tempDir('agentctx-model-');
          const world = new World(t.path, api);
          const real: Real = { world, turn: 0, trace: [] };
          const model = new Model();
          try {
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            try {
              real.trace.push(await rebuildCheck(world, model));
              if (process.env.AGENTCTX_MODEL_TIMING) console.log(real.trace.join('\n'));
            } catch (err) {
              if (err instanceof Violation)
                err.message += `\n\nWhat ran (ids as resolved):\n  ${real.trace.join('\n  ')}`;
              throw err;
            }
          } catch (err) {
            if (shrinkUntil === Number.POSITIVE_INFINITY) shrinkUntil = Date.now() + RUN.shrinkMs;
            throw err;
          } finally {
            steps += real.turn;
            await world.close();
            if (process.env.AGENTCTX_MODEL_KEEP) console.log(`model test: world kept in ${t.path}`);
            else t.cleanup();
          }
        }),
        { seed: RUN.seed, numRuns: RUN.runs, endOnFailure: !RUN.shrink },
      );
      if (SURVEY)
        console.log(
          `model test survey: ${surveyed.size} properties violated\n${[...surveyed]
            .map(([p, v]) => `\n[${p}] ${v.count} times; first:\n${v.first}`)
            .join('\n')}\ncommands run: ${[...commandCounts].map(([k, n]) => `${k} ${n}`).join(', ')}`,
        );
      console.log(
        `model test: ${sequences} sequences, ${steps} steps in ${Math.round((Date.now() - started) / 1000)} s (seed ${RUN.seed}); properties checked: ${enabledList().join(', ')}${
          enabledList().length < Object.keys(PROPERTIES).length ? ' (others skipped)' : ''
        }`,
      );
    },
    // a sequence takes up to ~4 s a step plus ~15 s for the rebuild check; then shrinking
    RUN.runs * (RUN.maxCommands * 6000 + 30_000) + RUN.shrinkMs + 120_000,
  );
});
