/** Random and hostile query texts for the never-throw tests of the retrieval engine. */

const PIECES = [
  '"',
  '""',
  "'",
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'NEAR(',
  'NEAR("a" "b", 2)',
  '*',
  '^',
  '^title',
  'title:',
  'body:',
  '{title body}:',
  '-',
  '+',
  '(',
  ')',
  '()',
  ':',
  ';',
  '\\',
  '%',
  '_',
  '\u0000',
  '\u0001',
  '\u001b[31m',
  '\t',
  '\n',
  '\r\n',
  '🚀',
  '👩‍💻',
  '🇩🇪',
  '数据库迁移',
  '検索エンジン',
  'مرحبا بالعالم',
  'שלום',
  '\u202e',
  '\u200b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  'café',
  'ﬁle',
  'Ⅻ',
  'SELECT * FROM records; DROP TABLE records;--',
  "' OR 1=1 --",
  'records_fts',
  'rank',
  'bm25(',
  '0x7fffffff',
  '1e308',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'postgres',
  'redis',
  'cache',
  'the',
  'a',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

/** A deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCodeUnits(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.5) s += String.fromCharCode(32 + Math.floor(rand() * 95));
    else if (r < 0.7) s += String.fromCharCode(Math.floor(rand() * 32));
    else s += String.fromCharCode(Math.floor(rand() * 0x10000)); // includes lone surrogates
  }
  return s;
}

/** `count` queries: fixed nasty cases first, then random mixes, pastes and raw code units. */
export function hostileQueries(count: number, seed = 7): string[] {
  const rand = prng(seed);
  const out: string[] = [
    '"',
    '*',
    'AND',
    'NOT NOT',
    'NEAR(a b)',
    'title:postgres',
    '^postgres',
    '(((',
    'a OR',
    '"unterminated',
    '\u0000',
    '\ud800',
    '🚀🚀🚀',
    '数据库',
    'مرحبا',
    ' ',
    '',
    'x'.repeat(5000),
    'postgres '.repeat(700),
    Array.from({ length: 900 }, (_, i) => `word${i}`).join(' '),
  ];
  while (out.length < count) {
    const kind = rand();
    if (kind < 0.6) {
      const n = 1 + Math.floor(rand() * 12);
      out.push(Array.from({ length: n }, () => pick(rand, PIECES)).join(rand() < 0.5 ? ' ' : ''));
    } else if (kind < 0.8) out.push(randomCodeUnits(rand, 1 + Math.floor(rand() * 60)));
    else if (kind < 0.9) {
      // a 5,000-character paste of mixed text
      let s = '';
      while (s.length < 5000) s += `${pick(rand, PIECES)} ${randomCodeUnits(rand, 8)} `;
      out.push(s.slice(0, 5000));
    } else out.push(`${pick(rand, PIECES)}postgres${pick(rand, PIECES)} "cache"* OR NEAR(redis)`);
  }
  return out.slice(0, count);
}
