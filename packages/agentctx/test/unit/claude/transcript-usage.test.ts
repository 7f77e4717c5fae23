import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseUsageEvents,
  readSubagentEvents,
  type UsageEvent,
} from '../../../src/claude/transcript-usage.js';
import { tempDir } from '../../support/tmp.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';

let tmp: ReturnType<typeof tempDir>;

const textOf = (e: UsageEvent | undefined): string => (e && 'text' in e ? e.text : '');
beforeEach(() => {
  tmp = tempDir('agentctx-usage-sub-');
});
afterEach(() => tmp.cleanup());

/** A parent transcript with a main prompt and edit, and a sidechain (older clients) in between. */
function mixed(): string {
  const t = new TranscriptBuilder('s1').user('main prompt');
  t.sidechainUser('sidechain task');
  t.tool('Edit', { file_path: 'side.ts', new_string: 'SIDE_EDIT' }, 'ok', { sidechain: true });
  t.tool('Edit', { file_path: 'main.ts', new_string: 'MAIN_EDIT' }, 'ok');
  return t.text();
}

describe('usage events by side', () => {
  it("the session's own read skips sidechains; the sidechain read keeps only them, its user text a task", () => {
    const main = parseUsageEvents(mixed());
    expect(main.map((e) => e.kind)).toEqual(['prompt', 'did']);
    expect(textOf(main[1])).toContain('MAIN_EDIT');
    const side = parseUsageEvents(mixed(), 'sidechain');
    expect(side.map((e) => e.kind)).toEqual(['task', 'did']);
    expect(textOf(side[0])).toBe('sidechain task');
    expect(textOf(side[1])).toContain('SIDE_EDIT');
  });

  it("reads every subagent transcript beside the session's, and nothing for a path-like session id", () => {
    const parent = join(tmp.path, 's1.jsonl');
    writeFileSync(parent, mixed());
    const dir = join(tmp.path, 's1', 'subagents');
    mkdirSync(dir, { recursive: true });
    for (const id of ['a1', 'a2']) {
      new TranscriptBuilder('s1')
        .asSubagent(id)
        .user(`task of ${id}`)
        .assistant(`report of ${id}`)
        .write(join(dir, `agent-${id}.jsonl`));
    }
    writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
    const texts = readSubagentEvents(parent, 's1').map((e) => `${e.kind}:${textOf(e).split('\n')[0]}`);
    expect(texts).toEqual([
      'task:sidechain task',
      'did:side.ts',
      'task:task of a1',
      'said:report of a1',
      'task:task of a2',
      'said:report of a2',
    ]);
    expect(readSubagentEvents(parent, '../s1').map((e) => e.kind)).toEqual(['task', 'did']);
    expect(readSubagentEvents(join(tmp.path, 'missing.jsonl'), 'none')).toEqual([]);
  });
});
