import fc from 'fast-check';

/**
 * Record text for the model test. Every title and every body carries a marker word: `q`, the
 * namespace letter (a, b, or g for global), then three letters. A marker is unique to the record
 * version that introduced it, so finding one in an output says which record version it shows:
 * a marker found only in superseded (or deleted) records is a stale fact on screen; a marker of
 * project B's records in project A's output is a leak. Topic words are shared, so searches and
 * prompts match many records at once.
 */

export const TOPICS = ['orders', 'billing', 'cache', 'queue', 'auth', 'deploy'] as const;
export type Topic = (typeof TOPICS)[number];

/** How a body is written: plain prose, dense CJK, near the 2,000-character limit, or mixed symbols. */
export const TEXT_KINDS = ['plain', 'plain', 'plain', 'cjk', 'long', 'mixed'] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

export interface TextSpec {
  topic: Topic;
  kind: TextKind;
  /** Variation inside the kind (which phrase, how long). */
  seed: number;
}

export const textSpec: fc.Arbitrary<TextSpec> = fc.record({
  topic: fc.constantFrom(...TOPICS),
  kind: fc.constantFrom(...TEXT_KINDS),
  seed: fc.nat(999),
});

export const MARKER = /\bq[abg][a-z]{3}\b/g;

export function markersIn(text: string): string[] {
  return text.match(MARKER) ?? [];
}

const PHRASES = [
  'store money as integer cents',
  'retry failed jobs with backoff',
  'keep the read model in Postgres',
  'use one connection pool per worker',
  'expire entries after ten minutes',
  'sign tokens with rotating keys',
  'ship from main behind a flag',
  'log every state change as an event',
];

const CJK =
  '我们决定把订单总额以整数分保存，因为浮点数在结算时会产生误差。キャッシュは十分後に失効させ、再計算は非同期で行います。배포는 메인 브랜치에서만 하고 기능 플래그로 보호합니다。';

const MIXED = '🚀 `const total = cents(order.items)`; ✅ dGhpcyBpcyBub3QgYSBzZWNyZXQ= → naïve façade Привет ';

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A record title: topic, marker, phrase (≤ 120 characters). */
export function titleText(spec: TextSpec, marker: string): string {
  return `${cap(spec.topic)} ${marker}: ${PHRASES[spec.seed % PHRASES.length]}`;
}

/** A record body that opens with its marker (the digest shows a body's first sentence). */
export function bodyText(spec: TextSpec, marker: string): string {
  const phrase = PHRASES[(spec.seed >> 3) % PHRASES.length]!;
  const first = `Rule ${marker} for ${spec.topic}: ${phrase}.`;
  switch (spec.kind) {
    case 'plain':
      return `${first} The ${spec.topic} service depends on it since the last review.`;
    case 'cjk': {
      const n = 200 + (spec.seed % 1700);
      return `${first} ${CJK.repeat(30)}`.slice(0, n + first.length);
    }
    case 'long': {
      const unit = ` The ${spec.topic} team agreed to ${phrase} in every module, and reviews check it.`;
      return `${first}${unit.repeat(40)}`.slice(0, 1500 + (spec.seed % 450));
    }
    case 'mixed':
      return `${first} ${MIXED.repeat(1 + (spec.seed % 12))}`.slice(0, 1900);
  }
}

/** Marker words: q + namespace letter + three letters from a counter. */
export function markerFor(ns: 'A' | 'B' | 'G', n: number): string {
  const l = (i: number) => String.fromCharCode(97 + (Math.floor(n / 26 ** i) % 26));
  return `q${ns === 'G' ? 'g' : ns.toLowerCase()}${l(2)}${l(1)}${l(0)}`;
}
