// The pieces of synthetic developer text the benchmark stores share (hook-bench-store.mjs for
// bench:hooks and profile:hook, bench-scale.mjs for issue 20's 100,000-record store): a seeded
// generator, a developer vocabulary, syllables for made-up identifiers, record ids and the
// SQL that inserts a record as the CLI would leave it.

/** mulberry32: a seeded generator in 32-bit integer arithmetic, the same sequence per seed. */
export function mulberry32(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of the kind developer records are made of. */
export const DEV_WORDS =
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

/** Syllables that made-up identifiers (a project's own modules, functions, vendors) are built of. */
export const SYLLABLES = 'ka lo mer ti zan qu bri dor fel gra hon jis vek nup ost ry sel wu'.split(' ');

/** An identifier of three syllables chosen by `n` (different n, mostly different names). */
export function madeUpName(n, salt = 0) {
  let k = n;
  let w = '';
  for (let j = 0; j < 3; j++) {
    w += SYLLABLES[k % SYLLABLES.length];
    k = Math.floor(k / SYLLABLES.length) + j + salt;
  }
  return w;
}

/** One entry of a weighted table [[value, weight], …] (weights summing to about 1). */
export function pickWeighted(rand, table, otherwise) {
  let x = rand();
  for (const [v, w] of table) {
    x -= w;
    if (x <= 0) return v;
  }
  return otherwise;
}

/** Words as one sentence: the first capitalised, a full stop at the end. */
export function sentenceOf(words) {
  return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(' ')}.`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-shaped id whose time part grows with `i` (one second apart) and whose rest is `rand`'s. */
export function ulidAt(i, rand) {
  const t = (1_700_000_000_000 + i * 1000).toString(32).toUpperCase().padStart(10, '0');
  let r = '';
  for (let k = 0; k < 16; k++) r += CROCKFORD[Math.floor(rand() * 32)];
  return (t + r).slice(0, 26);
}

/** A record row as the CLI writes it; values in this order. */
export const INSERT_RECORD_SQL = `INSERT INTO records (id, project_id, type, title, body, scope, pinned, confidence,
    reinforce_count, valid_from, recorded_at, superseded_at, superseded_by, source, session_id)
  VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?, NULL, ?, ?)`;
