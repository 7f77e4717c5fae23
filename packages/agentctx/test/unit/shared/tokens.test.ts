import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTokenizer } from '@anthropic-ai/tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens, truncateLinesToBudget } from '../../../src/shared/tokens.js';
import { PACKAGE_ROOT } from '../../support/cli.js';

// One tokenizer for the file: building it is the slow part.
const tokenizer = getTokenizer();
afterAll(() => tokenizer.free());
function countTokens(text: string): number {
  return tokenizer.encode(text.normalize('NFKC'), 'all').length;
}

function hex(i: number): string {
  return (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16);
}

const samples: Record<string, string> = {
  prose:
    'We decided to use SQLite with WAL mode because concurrent hook processes write in parallel, and the developer prefers small files named for what they hold.',
  code: readFileSync(join(PACKAGE_ROOT, 'src', 'core', 'records', 'records.ts'), 'utf8'),
  hexIds: Array.from({ length: 40 }, (_, i) => hex(i)).join(' '),
  ulids: '01JDQ8ZK4M3N5P7Q9R1S3T5V7W 01JDQ8ZK4M3N5P7Q9R1S3T5V7X 01M8VGTA77F2BX8SSYH2A4QTH5',
  base64: Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919) % 256)).toString('base64'),
  paths:
    '/home/user/projects/agentctx/packages/agentctx/src/database/records-repo.ts ./node_modules/.bin/vitest C:\\Users\\dev\\AppData\\Local\\Temp\\x.json',
  cjk: '我们决定使用带有预写日志模式的SQLite，因为并发的钩子进程会并行写入。開発者は小さなファイルを好みます。데이터베이스는 하나의 파일입니다.',
  emojiAndAccents: '🚀🔥✅ deploy done 🎉 ünïcödé façade naïve Привет мир Ελληνικά',
  json: JSON.stringify({
    a: [1, 2, 3],
    b: { c: 'd', e: null, f: 123456789 },
    ulid: '01JDQ8ZK4M3N5P7Q9R1S3T5V7W',
  }),
  shortNames: 'Nate: Bye Joanna!\nJoanna said: Bye Nate!',
  stackTrace:
    "TypeError: Cannot read properties of undefined (reading 'id')\n    at createRecord (/app/src/core/records.ts:88:17)\n    at Object.<anonymous> (/app/test/x.test.ts:12:5)",
};

describe('estimateTokens', () => {
  it.each(Object.entries(samples))('never counts fewer tokens than a real BPE tokenizer: %s', (_, text) => {
    const real = countTokens(text);
    const est = estimateTokens(text);
    expect(est).toBeGreaterThanOrEqual(real);
    // conservative, but not so loose that budgets become useless
    expect(est).toBeLessThanOrEqual(real * 2.2 + 4);
  });

  it('is not chars/4 on dense content', () => {
    const ids = samples.ulids!;
    expect(estimateTokens(ids)).toBeGreaterThan((ids.length / 4) * 2);
  });

  it('counts nothing for nothing', () => {
    expect(estimateTokens('')).toBe(0);
  });
});

describe('truncateLinesToBudget', () => {
  it('keeps whole lines within the budget', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i} with some words in it`).join('\n');
    const cut = truncateLinesToBudget(text, 60);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(60);
    expect(text.startsWith(cut)).toBe(true);
    expect(cut.split('\n').every((l) => /^line \d+ with some words in it$/.test(l))).toBe(true);
  });
});

const LOCOMO = '/work/shared/bench/locomo-dev.json';
describe.skipIf(!existsSync(LOCOMO))('estimateTokens on 2,760 dialog turns', () => {
  it('never undercounts a single one', () => {
    const data = JSON.parse(readFileSync(LOCOMO, 'utf8')) as { records: { title: string; body: string }[] };
    const under = data.records
      .map((r) => `${r.title}\n${r.body}`)
      .filter((text) => estimateTokens(text) < countTokens(text));
    expect(under).toEqual([]);
  });
});
