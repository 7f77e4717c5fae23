// The pieces of synthetic developer text the benchmark stores share: a developer vocabulary,
// syllables for made-up identifiers, sentences and record ids.
import type { Rand } from './prng.js';

/** Words of the kind developer records are made of. */
export const DEV_WORDS: readonly string[] =
  `auth session token refresh cookie middleware router handler request response cache redis
postgres migration schema index query transaction retry backoff timeout queue worker job cron webhook
payload signature stripe invoice billing subscription tenant account user role permission policy
audit log logger metrics tracing span exporter build bundle esbuild vite webpack typescript eslint
biome prettier vitest jest fixture mock snapshot coverage docker compose kubernetes helm deploy
staging production rollout feature flag config env secret vault bucket upload image resize thumbnail
cdn graphql resolver mutation websocket socket reconnect heartbeat rate limit throttle debounce
pagination cursor offset sort filter search fulltext sqlite wal busy lock mutex race condition
deadlock memory leak heap profile flame latency regression benchmark allocation buffer stream pipe
backpressure encoding utf8 locale timezone date parsing validation error boundary fallback circuit
breaker health readiness liveness probe monorepo workspace package version semver changelog release
tag branch rebase merge conflict hook commit lint format pipeline artifact terraform lambda gateway
proxy nginx certificate dns tls oauth jwt csrf cors header form modal button layout theme css grid
animation render hydration server client component state store reducer selector effect context
prop slot template route loader action endpoint controller service repository entity model dto
serializer parser lexer compiler plugin adapter driver pool connection replica shard partition`
    .split(/\s+/)
    .filter(Boolean);

const SYLLABLES = 'ka lo mer ti zan qu bri dor fel gra hon jis vek nup ost ry sel wu'.split(' ');

/** An identifier of three syllables chosen by `n` (different n, mostly different names). */
export function madeUpName(n: number, salt = 0): string {
  let k = n;
  let w = '';
  for (let j = 0; j < 3; j++) {
    w += SYLLABLES[k % SYLLABLES.length];
    k = Math.floor(k / SYLLABLES.length) + j + salt;
  }
  return w;
}

/** Words as one sentence: the first capitalised, a full stop at the end. */
export function sentenceOf(words: readonly string[]): string {
  const [first = '', ...rest] = words;
  return `${first.slice(0, 1).toUpperCase()}${first.slice(1)} ${rest.join(' ')}.`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-shaped id whose time part grows with `i` (one second apart) and whose rest is `rand`'s. */
export function ulidAt(i: number, rand: Rand): string {
  const t = (1_700_000_000_000 + i * 1000).toString(32).toUpperCase().padStart(10, '0');
  let r = '';
  for (let k = 0; k < 16; k++) r += CROCKFORD[Math.floor(rand() * 32)];
  return (t + r).slice(0, 26);
}

/** A fixed-width id `<prefix><i, zero-padded>` of 26 characters (ULID length). */
export const serialId = (prefix: string, i: number): string =>
  `${prefix}${String(i).padStart(26 - prefix.length, '0')}`;
