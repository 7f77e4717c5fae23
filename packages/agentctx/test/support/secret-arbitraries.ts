import fc from 'fast-check';

/**
 * Generated secrets for property tests: every family redaction covers, each written the way it
 * turns up in a session (a label in front, quotes, a separator, a line break, noise around it,
 * JSON-escaped inside tool output), with the values that must never survive. The benign
 * corpus that measures false positives is in benign-arbitraries.ts.
 */

export interface GeneratedSecret {
  family: string;
  text: string;
  /** The sensitive values in `text`: no 12-character piece of any may survive redaction. */
  secrets: string[];
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = `${UPPER}${LOWER}${DIGITS}`;
const B32 = `${UPPER}234567`;
export const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}-_`;
export const HEX = '0123456789abcdef';
/** Password characters a shell or URL passes through unquoted. */
const PASSWORDISH = `${ALNUM}!#%*+-._~^`;

export function chars(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}

/** Shannon entropy in bits per character (the test's own measure, not the redactor's). */
function bits(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * A random value as a key generator makes it: drawn from the alphabet, as varied as such draws
 * almost always are (so shrinking cannot turn it into `AAAA…`, which no generator emits).
 */
export function random(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  const floor = Math.min(3, 0.8 * Math.log2(alphabet.length));
  return chars(alphabet, min, max).filter((s) => bits(s) >= Math.min(floor, 0.8 * Math.log2(s.length)));
}

/** A random string of the alphabet that holds at least one letter and one digit (not a word). */
function mixed(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return fc
    .tuple(random(alphabet, min - 2, max - 2), chars(LOWER + UPPER, 1), chars(DIGITS, 1), fc.nat(), fc.nat())
    .map(([s, l, d, n, m]) => {
      const at = s.length ? n % s.length : 0;
      const t = `${s.slice(0, at)}${l}${s.slice(at)}`;
      const dt = m % (t.length + 1);
      return `${t.slice(0, dt)}${d}${t.slice(dt)}`;
    });
}

export const hex40 = random(HEX, 40);
export const uuid = fc.uuid();
const b64url = (obj: unknown) => Buffer.from(JSON.stringify(obj)).toString('base64url');

export const pick = <T>(...xs: T[]) => fc.constantFrom(...xs);

// ---------------------------------------------------------------- prefixed tokens

/** Tokens whose prefix says what they are: the whole token is the secret. */
const prefixed: Record<string, fc.Arbitrary<string>> = {
  anthropic: fc
    .tuple(pick('sk-ant-api03-', 'sk-ant-admin01-', 'sk-ant-oat01-'), chars(URLSAFE, 40, 95))
    .map(([p, s]) => p + s),
  openai: fc.oneof(
    fc.tuple(pick('sk-proj-', 'sk-svcacct-', 'sk-admin-'), chars(URLSAFE, 40, 120)).map(([p, s]) => p + s),
    fc.tuple(chars(ALNUM, 20), chars(ALNUM, 20)).map(([a, b]) => `sk-${a}T3BlbkFJ${b}`),
    chars(ALNUM, 48).map((s) => `sk-${s}`),
  ),
  'aws-key-id': fc.tuple(pick('AKIA', 'ASIA', 'AIDA', 'AROA'), chars(B32, 16)).map(([p, s]) => p + s),
  github: fc.oneof(
    fc.tuple(pick('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36)).map(([p, s]) => p + s),
    fc.tuple(chars(ALNUM, 22), chars(ALNUM, 59)).map(([a, b]) => `github_pat_11${a}_${b}`),
  ),
  gitlab: chars(URLSAFE, 20).map((s) => `glpat-${s}`),
  slack: fc
    .tuple(pick('xoxb-', 'xoxp-', 'xoxa-'), chars(DIGITS, 12), chars(DIGITS, 13), chars(ALNUM, 24))
    .map(([p, a, b, c]) => `${p}${a}-${b}-${c}`),
  stripe: fc.oneof(
    fc
      .tuple(pick('sk_live_', 'rk_live_', 'sk_test_', 'pk_live_'), chars(ALNUM, 24, 99))
      .map(([p, s]) => p + s),
    chars(ALNUM, 32).map((s) => `whsec_${s}`),
  ),
  google: fc.oneof(
    chars(URLSAFE, 35).map((s) => `AIza${s}`),
    chars(URLSAFE, 60, 160).map((s) => `ya29.${s}`),
    chars(URLSAFE, 28).map((s) => `GOCSPX-${s}`),
  ),
  npm: chars(ALNUM, 36).map((s) => `npm_${s}`),
  huggingface: chars(LOWER + UPPER, 34).map((s) => `hf_${s}`),
  sendgrid: fc.tuple(chars(URLSAFE, 22), chars(URLSAFE, 43)).map(([a, b]) => `SG.${a}.${b}`),
};

/** Where a bare token stands: alone, after a word, after a label, in an env line. */
const tokenFrame = pick(
  (v: string) => v,
  (v: string) => `token ${v}`,
  (v: string) => `the key is ${v}, keep it safe`,
  (v: string) => `the token: MY_SERVICE_KEY: ${v}`,
  (v: string) => `SERVICE_CREDENTIAL=${v}`,
  (v: string) => `"key": "${v}"`,
  (v: string) => `key: '${v}'`,
  (v: string) => `(${v})`,
  (v: string) => `\`${v}\``,
  (v: string) => `--key ${v}`,
  (v: string) => `url?key=${v}&x=1`,
);

function prefixedSecret(family: string, token: fc.Arbitrary<string>): fc.Arbitrary<GeneratedSecret> {
  return fc.tuple(token, tokenFrame).map(([v, frame]) => ({ family, text: frame(v), secrets: [v] }));
}

// ---------------------------------------------------------------- structured secrets

const jwt = fc
  .tuple(chars(ALNUM, 8, 16), fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }), chars(URLSAFE, 43))
  .map(([sub, iat, sig]) => {
    const payload = b64url({ sub, iat, name: 'Dev' });
    const token = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${payload}.${sig}`;
    return { token, secrets: [payload, sig] };
  });

const jwtSecret: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(
    jwt,
    pick(
      (t: string) => `Authorization: Bearer ${t}`,
      (t: string) => `the session cookie was ${t} when it failed`,
      (t: string) => `id_token=${t}`,
      (t: string) => `{"access_token": "${t}"}`,
    ),
  )
  .map(([j, frame]) => ({ family: 'jwt', text: frame(j.token), secrets: j.secrets }));

const pemLabel = pick(
  'RSA PRIVATE KEY',
  'PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
  'EC PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
);
const pemSecret: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(pemLabel, fc.array(chars(B64, 64), { minLength: 2, maxLength: 6 }), pick('\n', '\r\n', '\\n'))
  .map(([label, lines, nl]) => ({
    family: 'private-key',
    text: `here is the deploy key:${nl}-----BEGIN ${label}-----${nl}${lines.join(nl)}${nl}-----END ${label}-----${nl}done`,
    secrets: lines,
  }));

const gcpServiceAccount: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(
    hex40,
    fc.array(chars(B64, 64), { minLength: 2, maxLength: 4 }),
    chars(DIGITS, 21),
    pick(true, false),
  )
  .map(([keyId, lines, clientId, pretty]) => {
    const key = `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
    const obj = {
      type: 'service_account',
      project_id: 'acme-prod',
      private_key_id: keyId,
      private_key: key,
      client_email: 'deploy@acme-prod.iam.gserviceaccount.com',
      client_id: clientId,
    };
    return {
      family: 'gcp-service-account',
      text: JSON.stringify(obj, null, pretty ? 2 : undefined),
      secrets: [keyId, ...lines],
    };
  });

const awsSecretKey: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(
    mixed(B64, 40),
    pick(
      (v: string) => `aws_secret_access_key = ${v}`,
      (v: string) => `AWS_SECRET_ACCESS_KEY=${v}`,
      (v: string) => `{"SecretAccessKey": "${v}"}`,
      (v: string) => `export AWS_SECRET_ACCESS_KEY="${v}"`,
      (v: string) => `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = ${v}\n`,
    ),
  )
  .map(([v, frame]) => ({ family: 'aws-secret-key', text: frame(v), secrets: [v] }));

const slackWebhook: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(chars(B32, 8), chars(B32, 8), chars(ALNUM, 24))
  .map(([t, b, s]) => ({
    family: 'slack-webhook',
    text: `post alerts to https://hooks.slack.com/services/T${t}/B${b}/${s} please`,
    secrets: [s],
  }));

const connection: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(
    pick('postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis', 'amqp', 'mssql'),
    pick('app', 'admin', 'svc', ''),
    mixed(PASSWORDISH, 12, 32),
    pick(
      'db.internal:5432/shop',
      '10.0.0.5/prod',
      'cluster0.ab12c.mongodb.net/app?retryWrites=true',
      'cache:6379',
    ),
    pick(
      (u: string) => u,
      (u: string) => `DATABASE_URL=${u}`,
      (u: string) => `connecting to ${u} failed`,
      (u: string) => `"url": "${u}"`,
    ),
  )
  .map(([scheme, user, pass, host, frame]) => ({
    family: 'connection-string',
    text: frame(`${scheme}://${user}:${pass}@${host}`),
    secrets: [pass],
  }));

const bearer: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(
    mixed(`${URLSAFE}.~+/`, 20, 60),
    pick(
      (v: string) => `Authorization: Bearer ${v}`,
      (v: string) => `curl -H "Authorization: Bearer ${v}" https://api.example.com`,
      (v: string) => `> authorization: bearer ${v}`,
      (v: string) => `headers: { Authorization: \`Bearer ${v}\` }`,
      (v: string) => `Bearer ${v}`,
      (v: string) => `Authorization: Token ${v}`,
    ),
  )
  .map(([v, frame]) => ({ family: 'bearer-token', text: frame(v), secrets: [v] }));

const basicAuth: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(mixed(PASSWORDISH, 12, 24), pick('-u', '--user'))
  .map(([v, flag]) => ({
    family: 'basic-auth',
    text: `curl ${flag} deploy:${v} https://nexus.internal/repo`,
    secrets: [v],
  }));

/**
 * Secrets with no label of their own, kept by what stands next to them (issue 31 #1): an AWS
 * secret access key right after its key id, after a provider's name, a password or key inside a
 * `;` connection string or a URL, and a generated value on a `NAME=` line whatever the name.
 */
const awsKeyId = fc.tuple(pick('AKIA', 'ASIA'), chars(B32, 16)).map(([p, s]) => p + s);
/**
 * A value with no label of its own is judged by how generated it looks (the redactor's
 * `looksGenerated`: about 4 bits a character, or 0.8·log2 of its length when shorter). A key
 * generator's output clears that almost always; fast-check's biased draws do not (`0aAAAAAAAArD7…`
 * at 3.5 bits), so these draws are held to the same floor: the contract, not the bias, is tested.
 */
function keyLike(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return mixed(alphabet, min, max).filter((v) => bits(v) >= Math.min(4, 0.8 * Math.log2(v.length)) + 0.05);
}
const awsSecret = keyLike(B64, 40);
const byContext: fc.Arbitrary<GeneratedSecret> = fc.oneof(
  fc
    .tuple(
      awsKeyId,
      awsSecret,
      pick(
        (id: string, v: string) => `${id} ${v}`,
        (id: string, v: string) => `${id}:${v}`,
        (id: string, v: string) => `${id}\n${v}`,
        (id: string, v: string) => `key id ${id}, secret ${v}`,
        (id: string, v: string) => `bob,,${id},${v},Enabled`,
        (id: string, v: string) => `access key ${id}\nsecret access key ${v}`,
        (id: string, v: string) => `s3://${id}:${v}@acme-backups/db`,
        (id: string, v: string) => `${id} / ${v} (rotate these)`,
      ),
    )
    .map(([id, v, f]) => ({ family: 'secret-by-context', text: f(id, v), secrets: [id, v] })),
  fc
    .tuple(
      awsSecret,
      pick('AWS', 'aws', 'Amazon', 'Azure', 'Cloudflare', 'Datadog', 'boto3', 'the S3'),
      pick(
        (p: string, v: string) => `${p}: ${v}`,
        (p: string, v: string) => `${p} ${v}`,
        (p: string, v: string) => `my ${p} key is ${v}`,
        (p: string, v: string) => `${p} credentials ${v} for prod`,
        (p: string, v: string) => `(${p}) "${v}"`,
      ),
    )
    .map(([v, p, f]) => ({ family: 'secret-by-context', text: f(p, v), secrets: [v] })),
  fc
    .tuple(
      keyLike(B64, 40, 88),
      mixed(PASSWORDISH.replace(/[;]/g, ''), 12, 24),
      pick(
        (k: string, _p: string) =>
          `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${k}==;EndpointSuffix=core.windows.net`,
        (_k: string, p: string) => `Driver={ODBC Driver 18};Server=db.internal;Uid=sa;Pwd=${p};Encrypt=yes`,
        (k: string, _p: string) => `Host=db;Database=shop;Username=app;Credential=${k}`,
        (k: string, _p: string) => `"ConnectionString": "Server=db;Database=shop;Token=${k};"`,
        (k: string, _p: string) => `Endpoint=https://acme.vault;Id=prod;Data=${k}`,
        (_k: string, p: string) => `postgres://app:${p}/x@db.internal:5432/shop`,
      ),
    )
    .map(([k, p, f]) => {
      const text = f(k, p);
      return { family: 'secret-by-context', text, secrets: [text.includes(k) ? k : `${p}/x`] };
    }),
  fc
    .tuple(
      pick('PROD_AWS', 'DEPLOY', 'STRIPE_LIVE', 'DATADOG', 'SERVICE_A', 'BACKUP_TARGET_2', 'S3'),
      keyLike(ALNUM, 24, 64),
      pick(
        (n: string, v: string) => `${n}=${v}`,
        (n: string, v: string) => `export ${n}=${v}`,
        (n: string, v: string) => `# prod\n${n}="${v}"\nLOG_LEVEL=debug`,
        (n: string, v: string) => `  ${n}='${v}' # from the vault`,
      ),
    )
    .map(([n, v, f]) => {
      // a generated value that happens to hold no upper case letter or digit reads as a word
      const ok = /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v);
      return { family: 'secret-by-context', text: f(n, ok ? v : `${v}Q7`), secrets: [ok ? v : `${v}Q7`] };
    }),
);

// ---------------------------------------------------------------- NAME = value

/** Names whose value is a secret whatever it looks like. */
const secretNames = pick(
  'PASSWORD',
  'DB_PASSWORD',
  'db_password',
  'API_KEY',
  'apiKey',
  'api-key',
  'client_secret',
  'CLIENT_SECRET',
  'MY_SERVICE_TOKEN',
  'auth_token',
  'access_token',
  'SECRET_KEY',
  'secretKey',
  'private_key_id',
  'passphrase',
  'ENCRYPTION_KEY',
  'x-api-key',
);

/** Values people keep in them: random strings of every alphabet, hex, ids used as keys. */
const secretValue = fc.oneof(
  mixed(ALNUM, 12, 40),
  mixed(B64, 20, 44),
  mixed(PASSWORDISH, 12, 32),
  random(HEX, 32),
  hex40,
  random(HEX, 64),
  random(DIGITS, 16, 24),
  uuid,
  random(B32, 16, 32),
);

/** How the name and value are joined. */
const assignmentFrame = pick(
  (n: string, v: string) => `${n}=${v}`,
  (n: string, v: string) => `${n}="${v}"`,
  (n: string, v: string) => `${n}='${v}'`,
  (n: string, v: string) => `export ${n}=${v}`,
  (n: string, v: string) => `${n}: ${v}`,
  (n: string, v: string) => `${n}:\t${v}`,
  (n: string, v: string) => `"${n}": "${v}"`,
  (n: string, v: string) => `'${n}': '${v}'`,
  (n: string, v: string) => `${n} = "${v}"`,
  (n: string, v: string) => `${n} = ${v}`,
  (n: string, v: string) => `${n} := ${v}`,
  (n: string, v: string) => `${n} => '${v}'`,
  (n: string, v: string) => `--${n.toLowerCase().replace(/_/g, '-')} ${v}`,
  (n: string, v: string) => `--${n.toLowerCase().replace(/_/g, '-')}=${v}`,
  (n: string, v: string) => `?${n}=${v}&state=x`,
  (n: string, v: string) => `<${n}>${v}</${n}>`,
  (n: string, v: string) => `the ${n.toLowerCase()}: ${v}`,
  (n: string, v: string) => `the token: ${n}: ${v}`,
  (n: string, v: string) => `${n}:\n  ${v}`,
);

const assignment: fc.Arbitrary<GeneratedSecret> = fc
  .tuple(secretNames, secretValue, assignmentFrame)
  .map(([n, v, frame]) => ({ family: 'assignment', text: frame(n, v), secrets: [v] }));

// ---------------------------------------------------------------- every family, with noise

export const SECRET_FAMILIES: Record<string, fc.Arbitrary<GeneratedSecret>> = {
  ...Object.fromEntries(Object.entries(prefixed).map(([f, a]) => [f, prefixedSecret(f, a)])),
  jwt: jwtSecret,
  'private-key': pemSecret,
  'gcp-service-account': gcpServiceAccount,
  'aws-secret-key': awsSecretKey,
  'slack-webhook': slackWebhook,
  'connection-string': connection,
  'bearer-token': bearer,
  'basic-auth': basicAuth,
  assignment,
  'secret-by-context': byContext,
};

const noiseWord = pick(
  'deploy',
  'the build failed',
  'see above',
  'Note:',
  '- item',
  '>',
  '#',
  'ok.',
  'value',
  '```',
  '```bash',
  'TODO',
  '→',
  'é日本',
);
const noise = fc.array(noiseWord, { maxLength: 4 }).map((ws) => ws.join(' '));
const lineBreak = pick(' ', '\n', '\r\n', '\n\n', '\t', '  ');

/** A secret with text around it, maybe JSON-escaped the way tool output holds it. */
export function withNoise(secret: fc.Arbitrary<GeneratedSecret>): fc.Arbitrary<GeneratedSecret> {
  return fc
    .tuple(
      secret,
      noise,
      noise,
      lineBreak,
      lineBreak,
      pick('plain', 'plain', 'plain', 'json-escaped', 'markdown'),
    )
    .map(([s, before, after, b1, b2, wrap]) => {
      let text = `${before}${b1}${s.text}${b2}${after}`;
      if (wrap === 'json-escaped') text = JSON.stringify({ stdout: text });
      if (wrap === 'markdown') text = `**Secret**:\n\n    ${s.text.replace(/\n/g, '\n    ')}\n`;
      return { ...s, text };
    });
}

export const anySecret: fc.Arbitrary<GeneratedSecret> = withNoise(
  fc.oneof(...Object.values(SECRET_FAMILIES)),
);

/** Every 12-character piece of `secret` (the whole of a shorter one) that occurs in `text`. */
export function survivingPieces(secret: string, text: string, width = 12): string[] {
  if (secret.length <= width) return text.includes(secret) ? [secret] : [];
  const found: string[] = [];
  for (let i = 0; i + width <= secret.length; i++) {
    const piece = secret.slice(i, i + width);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}
