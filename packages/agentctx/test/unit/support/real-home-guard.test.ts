import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changes, snapshot } from '../../support/real-home-guard.js';
import { tempDir } from '../../support/tmp.js';

/** The suite's guard over the real home (vitest.config.ts) sees what a leaking test would leave. */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('agentctx-guard-');
  mkdirSync(join(t.path, '.claude', 'projects'), { recursive: true });
  writeFileSync(join(t.path, '.claude', 'settings.json'), '{}');
});
afterEach(() => t.cleanup());

describe('the real-home guard', () => {
  it('reports a created ~/.agentctx with its files, and a changed Claude settings file', () => {
    const before = snapshot(t.path);
    mkdirSync(join(t.path, '.agentctx', 'cache'), { recursive: true });
    writeFileSync(join(t.path, '.agentctx', 'cache', 'hook.cjs-1-2-v20.v8'), 'cache');
    writeFileSync(join(t.path, '.claude', 'settings.json'), '{"hooks":{}}');
    utimesSync(join(t.path, '.claude', 'settings.json'), new Date(), new Date(Date.now() + 5000));
    expect(changes(before, snapshot(t.path))).toEqual([
      'changed .agentctx',
      'changed .claude/settings.json',
      'created .agentctx/cache',
      'created .agentctx/cache/hook.cjs-1-2-v20.v8',
    ]);
  });

  it('leaves out what a running Claude Code keeps (transcripts), and reports nothing for no change', () => {
    const before = snapshot(t.path);
    writeFileSync(join(t.path, '.claude', 'projects', 'session.jsonl'), '{}\n');
    expect(changes(before, snapshot(t.path))).toEqual([]);
  });
});
