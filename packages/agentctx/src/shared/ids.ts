/**
 * Monotonic ULIDs for the records agentctx writes, without the `ulid` package (whose Node build
 * loads node:crypto at start-up). Randomness comes from Web Crypto, touched only when an id
 * is made.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function randomChars(): number[] {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b % 32);
}

/** An id generator: ULIDs strictly increasing within this process, even within one millisecond. */
export function ulidFactory(now: () => number = Date.now): () => string {
  let lastTime = -1;
  let last: number[] = [];
  return () => {
    const t = now();
    if (t <= lastTime) {
      // same millisecond (or a clock step back): increment the random part
      let i = last.length - 1;
      while (i >= 0 && last[i] === 31) {
        last[i] = 0;
        i--;
      }
      if (i >= 0) last[i] = last[i]! + 1;
    } else {
      lastTime = t;
      last = randomChars();
    }
    return encodeTime(lastTime) + last.map((d) => ALPHABET[d]).join('');
  };
}
