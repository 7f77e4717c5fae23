import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTokenizer } from '@anthropic-ai/tokenizer';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../../src/app/paths.js';
import { resolveProject } from '../../../src/app/project.js';
import { sessionStart } from '../../../src/hooks/handlers/session-start.js';
import { runHandler } from '../../../src/hooks/runner.js';
import { isolatedEnv } from '../../support/cli.js';
import { hostileText } from '../../support/hostile-text.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

// CONTRACTS.md §inv-2: SessionStart injects ≤ 1,500 tokens (by the real tokenizer) and ≤ 8,000
// characters whatever the digest files hold: the text, and a side file that may be missing,
// garbage, or lie about the text's size. Runs the real runner in this process on real files.

const tokenizer = getTokenizer();
afterAll(() => tokenizer.free());
const countTokens = (text: string) => tokenizer.encode(text.normalize('NFKC'), 'all').length;

const tmp = tempDir('agentctx-ss-budget-');
let env: Record<string, string | undefined>;
let repo: string;
let digests: string;
let projectId: string;
let payloadFile: string;
beforeAll(() => {
  env = isolatedEnv(tmp.path) as Record<string, string | undefined>;
  mkdirSync(env.AGENTCTX_TMPDIR!, { recursive: true });
  repo = fakeRepo(tmp.path, 'shop', 'git@github.com:acme/shop.git');
  projectId = resolveProject(repo).id;
  digests = resolvePaths(env).digests;
  mkdirSync(digests, { recursive: true });
  payloadFile = join(tmp.path, 'payload.json');
});
afterAll(() => tmp.cleanup());

let run = 0;
/**
 * Write the digest file (text, a side claim merged in, stamped current: no retirement counters
 * exist in this home, so both are 0), run the SessionStart hook, return what it printed. `side`
 * is what the digest claims beside its text: a JSON object's fields are merged in, any other
 * string stands as its token count.
 */
async function sessionStartWith(text: string | Uint8Array, side: string | null): Promise<string> {
  // as a file holds it: a lone surrogate of a cut string is read back as U+FFFD
  const asText = Buffer.from(text).toString('utf8');
  let claims: Record<string, unknown> = {};
  if (side !== null) {
    try {
      const parsed = JSON.parse(side) as unknown;
      claims =
        parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : { tokens: parsed };
    } catch {
      claims = { tokens: side };
    }
  }
  writeFileSync(
    join(digests, `${projectId}.digest.json`),
    JSON.stringify({ ...claims, text: asText, retire_stamp: 0 }),
  );
  run++;
  writeFileSync(
    payloadFile,
    JSON.stringify({
      session_id: `ss-${run}`,
      cwd: repo,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
  );
  const fd = openSync(payloadFile, 'r');
  let out = '';
  try {
    await runHandler('session-start', sessionStart, {
      env,
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

/** The hook's output as its injected text; fails unless it is nothing or one valid hook object. */
function injected(out: string): string {
  if (out === '') return '';
  const v = JSON.parse(out) as {
    hookSpecificOutput?: { hookEventName?: unknown; additionalContext?: unknown };
  };
  expect(Object.keys(v)).toEqual(['hookSpecificOutput']);
  expect(v.hookSpecificOutput?.hookEventName).toBe('SessionStart');
  expect(typeof v.hookSpecificOutput?.additionalContext).toBe('string');
  return v.hookSpecificOutput!.additionalContext as string;
}

/** Side files: missing, garbage, well-formed with any claim, or a plausible lie (a small count). */
const sideFile = fc.oneof(
  fc
    .record({
      ids: fc.constant([]),
      tokens: fc.integer({ min: 1, max: 1500 }),
      generated_at: fc.constant(''),
    })
    .map((o) => JSON.stringify(o)),
  fc.constant(null),
  fc.string(),
  fc.json(),
  fc
    .record({
      ids: fc.oneof(fc.array(fc.string(), { maxLength: 5 }), fc.anything()),
      tokens: fc.oneof(fc.integer({ min: -10, max: 2000 }), fc.double(), fc.constant(100), fc.string()),
      generated_at: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.anything(),
      ),
    })
    .map((o) => JSON.stringify(o)),
);

describe('SessionStart budget, whatever the digest files hold', () => {
  it('injects ≤ 1,500 tokens and ≤ 8,000 chars, whole lines from the top, as valid hook JSON', async () => {
    // many texts just under the 8,000 characters where a side file's claim used to be trusted
    const sized = fc.oneof(
      hostileText,
      fc.tuple(hostileText, fc.integer({ min: 1500, max: 8000 })).map(([t, n]) => t.slice(0, n)),
    );
    const nonBlank = sized.filter((t) => t.trim().length > 0);
    await fc.assert(
      fc.asyncProperty(nonBlank, sideFile, async (text, side) => {
        const ctx = injected(await sessionStartWith(text, side));
        expect(ctx.length).toBeLessThanOrEqual(8000);
        expect(countTokens(ctx)).toBeLessThanOrEqual(1500);
        // truncation from the bottom, by whole lines: what is shown is the file's first lines
        // (as read back: a lone surrogate of a cut string is written as U+FFFD)
        const onDisk = Buffer.from(text, 'utf8').toString('utf8');
        const lines = onDisk.replace(/\r\n/g, '\n').split('\n');
        const shown = ctx === '' ? [] : ctx.split('\n');
        expect(shown).toEqual(
          lines.slice(0, shown.length).map((l, i) => (i === shown.length - 1 ? l.trimEnd() : l)),
        );
      }),
      {
        seed: Number(process.env.SS_SEED ?? 20240611),
        numRuns: Number(process.env.SS_RUNS ?? 150),
        interruptAfterTimeLimit: 20_000,
        markInterruptAsFailure: true,
      },
    );
  }, 120_000);

  it('any bytes at all: valid hook JSON within 8,000 chars', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 12_000 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3000 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 3000 }),
    );
    await fc.assert(
      fc.asyncProperty(bytes, sideFile, async (content, side) => {
        if (typeof content === 'string' && content.trim() === '') return;
        if (typeof content !== 'string' && Buffer.from(content).toString('utf8').trim() === '') return;
        const ctx = injected(await sessionStartWith(content, side));
        expect(ctx.length).toBeLessThanOrEqual(8000);
      }),
      { seed: 20240612, numRuns: 60, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: true },
    );
  }, 120_000);

  it('a CJK digest whose side file claims 100 tokens is measured, not trusted', async () => {
    const { CJK_SENTENCES } = await import('../../support/hostile-text.js');
    const lines: string[] = ['# shop'];
    for (let i = 0; lines.join('\n').length < 7000; i++)
      lines.push(`- ${CJK_SENTENCES[i % CJK_SENTENCES.length]}`);
    const text = lines.join('\n');
    expect(countTokens(text)).toBeGreaterThan(1500);
    const ctx = injected(
      await sessionStartWith(text, JSON.stringify({ ids: [], tokens: 100, generated_at: '' })),
    );
    expect(ctx.length).toBeGreaterThan(0);
    expect(ctx.length).toBeLessThan(text.length);
    expect(countTokens(ctx)).toBeLessThanOrEqual(1500);
  });
});
