import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/context.js';
import { resolvePaths } from '../../../src/app/paths.js';
import { resolveProject } from '../../../src/app/project.js';
import { writeStampedDigest } from '../../../src/core/digest/current-digest.js';
import { composeDigest } from '../../../src/core/digest/digest.js';
import { createRecord } from '../../../src/core/records/records.js';
import { openDb } from '../../../src/database/open.js';
import { HANDLERS } from '../../../src/hooks/handlers/index.js';
import { runHandler } from '../../../src/hooks/runner.js';
import { createTools } from '../../../src/mcp/server.js';
import { HOOK_AGENTS, type HookAgent } from '../../../src/shared/agents.js';
import { isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * `agents.isolate` (app/agent-scope.ts, decision 0113): over generated stores (records of any
 * writer, type and scope), settings (any set of isolated agents) and readers, no record is
 * ever shown to an agent it is kept from, through the SessionStart digest (a digest file
 * composed before the setting changed included), the prompt hook, ctx_search or ctx_get by id. A record is
 * kept from a reader when one of the two is isolated and they are not the same agent.
 */

const tmp = tempDir('agentctx-scope-');
let repo: string;
let projectId: string;
beforeAll(() => {
  repo = fakeRepo(tmp.path, 'shop', 'git@github.com:acme/shop.git');
  projectId = resolveProject(repo).id;
});
afterAll(() => tmp.cleanup());

const TYPES = ['decision', 'convention', 'preference', 'handover', 'profile', 'discovery'] as const;
const agentArb = fc.constantFrom(...HOOK_AGENTS);
const recordArb = fc.record({
  writer: agentArb,
  type: fc.constantFrom(...TYPES),
  global: fc.boolean(),
  pinned: fc.boolean(),
});

function keptFrom(reader: HookAgent, writer: string, isolate: readonly string[]): boolean {
  return writer !== reader && (isolate.includes(writer) || isolate.includes(reader));
}

async function hook(
  name: 'session-start' | 'user-prompt-submit',
  env: Record<string, string | undefined>,
  agent: HookAgent,
  payload: object,
): Promise<string> {
  const file = join(env.HOME!, `payload-${name}.json`);
  writeFileSync(file, JSON.stringify(payload));
  const fd = openSync(file, 'r');
  let out = '';
  try {
    await runHandler(name, HANDLERS[name] as never, {
      env,
      agent,
      stdinFd: fd,
      write: async (t) => {
        out += t;
      },
    });
  } finally {
    closeSync(fd);
  }
  return out;
}

let run = 0;
const seen = { kept: 0, shownOwn: 0, shownShared: 0 };

describe('agents.isolate', () => {
  it('never shows a record to an agent it is kept from (digest, prompt hook, ctx_search)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 1, maxLength: 8 }),
        fc.subarray([...HOOK_AGENTS]),
        agentArb,
        fc.constantFrom('none', 'unfiltered', 'shared'),
        async (records, isolate, reader, digestOnDisk) => {
          run++;
          const home = join(tmp.path, `h${run}`);
          mkdirSync(join(home, 'tmp'), { recursive: true });
          const env = isolatedEnv(home) as Record<string, string | undefined>;
          const paths = resolvePaths(env);
          mkdirSync(paths.home, { recursive: true });
          const db = openDb(paths.db);
          const newId = monotonicFactory();
          const ids: string[] = [];
          const tags = records.map((r, i) => {
            const tag = `tag${i}q${r.writer.replace('-', '')}`;
            const made = createRecord(
              { db, clock: () => new Date(), newId, projectId, agent: r.writer },
              {
                type: r.type,
                title: `Checkout retry policy ${tag}`,
                body: `The checkout retry policy backs off twice (${tag}).`,
                scope: r.global && r.type === 'preference' ? 'global' : 'project',
                pinned: r.pinned,
                source: 'cli',
                confidence: 'explicit',
              },
            );
            ids.push(made.id);
            return { tag, writer: r.writer };
          });
          const project = { id: projectId, name: 'shop' };
          if (digestOnDisk !== 'none') {
            // a digest written before the setting (every writer's), or under the shared filter
            const writers = digestOnDisk === 'shared' && isolate.length > 0 ? { except: isolate } : undefined;
            writeStampedDigest(db, paths.digests, projectId, () =>
              composeDigest(db, project, { now: new Date(), ...(writers ? { writers } : {}) }),
            );
          }
          db.close();
          writeFileSync(paths.config, JSON.stringify({ agents: { isolate } }));

          const start = await hook('session-start', env, reader, {
            session_id: `s${run}`,
            cwd: repo,
            hook_event_name: 'SessionStart',
            source: 'startup',
          });
          const prompt = await hook('user-prompt-submit', env, reader, {
            session_id: `s${run}`,
            cwd: repo,
            hook_event_name: 'UserPromptSubmit',
            prompt: 'what is the checkout retry policy?',
          });
          const app = createApp({ env: { ...env, AGENTCTX_AGENT: reader }, cwd: repo });
          let searched = '';
          try {
            const tools = createTools({ app, sessionId: null });
            const tool = tools.find((t) => t.name === 'ctx_search')!;
            const res = await tool.call({ query: 'checkout retry policy', limit: 15 });
            expect(res.isError).toBeUndefined();
            searched = res.content.map((c) => c.text).join('\n');
            // and by id: a kept record reads as missing
            const get = tools.find((t) => t.name === 'ctx_get')!;
            const got = await get.call({ ids: ids.slice(0, 10) });
            searched += `\n${got.content.map((c) => c.text).join('\n')}`;
          } finally {
            app.close();
          }
          for (const { tag, writer } of tags) {
            const shown = [start, prompt, searched].filter((out) => out.includes(tag)).length;
            if (keptFrom(reader, writer, isolate)) {
              seen.kept++;
              expect(start, `digest shows ${tag} to ${reader}`).not.toContain(tag);
              expect(prompt, `prompt hook shows ${tag} to ${reader}`).not.toContain(tag);
              expect(searched, `ctx_search or ctx_get shows ${tag} to ${reader}`).not.toContain(tag);
            } else if (shown > 0) {
              if (writer === reader) seen.shownOwn++;
              else seen.shownShared++;
            }
          }
        },
      ),
      { numRuns: 40 },
    );
    // the property was not vacuous: records were kept from readers, and others still reached them
    expect(seen.kept).toBeGreaterThan(0);
    expect(seen.shownOwn).toBeGreaterThan(0);
    expect(seen.shownShared).toBeGreaterThan(0);
  }, 240_000);
});
