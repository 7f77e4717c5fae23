import fc from 'fast-check';

/**
 * Generated secrets for property tests: every family redaction covers, each written the way it
 * turns up in a session (a label in front, quotes, a separator, a line break, noise around it,
 * JSON-escaped inside tool output), with the values that must never survive. And a benign
 * corpus of random-looking text that is not secret, to measure false positives.
 */

export interface GeneratedSecret {
  family: string;
  text: string;
  /** The sensitive values in `text`: no 12-character piece of any may survive redaction. */
  secrets: string[];
}

export interface BenignSample {
  family: string;
  text: string;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = `${UPPER}${LOWER}${DIGITS}`;
const B32 = `${UPPER}234567`;
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}-_`;
const HEX = '0123456789abcdef';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
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

const hex40 = random(HEX, 40);
const uuid = fc.uuid();
const b64url = (obj: unknown) => Buffer.from(JSON.stringify(obj)).toString('base64url');

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs);

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

// ---------------------------------------------------------------- benign corpus

const identWord = pick(
  'create',
  'token',
  'refresh',
  'handler',
  'session',
  'manager',
  'secret',
  'scanner',
  'key',
  'store',
  'password',
  'reset',
  'budget',
  'max',
  'per',
  'request',
  'auth',
  'provider',
  'signing',
  'cache',
);

/** Random-looking text that is not secret, each family in the places it is written. */
export const BENIGN_FAMILIES: Record<string, fc.Arbitrary<string>> = {
  'git-sha': fc
    .tuple(
      hex40,
      pick(
        (s: string) => `commit ${s} (HEAD -> main)`,
        (s: string) => `HEAD is now at ${s.slice(0, 7)} fix tests; full ${s}`,
        (s: string) => `git show ${s}`,
        (s: string) => `"sha": "${s}"`,
        (s: string) => `parent: ${s}`,
        (s: string) => `Merge ${s} into main`,
        (s: string) => `https://github.com/acme/shop/commit/${s}`,
        (s: string) => `resolved ${s}`,
        (s: string) => `commit_sha=${s}`,
      ),
    )
    .map(([s, f]) => f(s)),
  ulid: fc
    .tuple(
      fc.constantFrom(...'01234567'),
      chars(CROCKFORD, 25),
      pick('record ', 'id: ', '"id": "', 'superseded by '),
    )
    .map(([a, b, p]) => `${p}${a}${b}${p.endsWith('"') ? '"' : ''}`),
  uuid: fc
    .tuple(uuid, pick('session ', 'session_id: ', '"request_id": "', 'trace=', 'x-request-id: '))
    .map(([u, p]) => `${p}${u}${p.endsWith('"') ? '"' : ''}`),
  'lockfile-integrity': fc
    .tuple(
      pick('sha512-', 'sha1-', 'sha384-'),
      chars(B64, 86),
      pick('"integrity": "', 'integrity ', 'integrity: '),
    )
    .map(([alg, b, p]) => `${p}${alg}${b}==${p.endsWith('"') ? '"' : ''}`),
  'base64-image': fc
    .tuple(chars(B64, 200, 600), pick('png', 'jpeg', 'gif', 'webp'))
    .map(([b, t]) => `<img src="data:image/${t};base64,iVBORw0KGgo${b}=">`),
  'long-identifier': fc
    .tuple(fc.array(identWord, { minLength: 3, maxLength: 7 }), pick('camel', 'snake', 'SCREAMING', 'kebab'))
    .map(([ws, style]) => {
      if (style === 'camel')
        return `const ${ws.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('')} = 1;`;
      if (style === 'snake') return `def ${ws.join('_')}(self):`;
      if (style === 'SCREAMING') return `${ws.join('_').toUpperCase()}_LIMIT = 4096`;
      return `npm run ${ws.join('-')}`;
    }),
  'file-path': fc
    .tuple(
      fc.array(identWord, { minLength: 2, maxLength: 6 }),
      pick('.ts', '.py', '.json', '.md', ''),
      pick('/', './', '~/', 'C:\\\\'),
    )
    .map(([ws, ext, root]) => `edit ${root}${ws.join(root === 'C:\\\\' ? '\\\\' : '/')}${ext}`),
  semver: fc
    .tuple(fc.nat(30), fc.nat(99), fc.nat(999), pick('', '-beta.4', '-rc.1+build.567', '-alpha'))
    .map(([a, b, c, pre]) => `"version": "${a}.${b}.${c}${pre}"`),
  url: fc
    .tuple(
      fc.array(identWord, { minLength: 1, maxLength: 4 }),
      pick('https://example.com/', 'http://localhost:3000/', 'https://github.com/acme/shop/blob/main/'),
      pick('', '?page=2&sort=asc', '#section-3', '?token_type=bearer&expires_in=3600'),
    )
    .map(([ws, base, q]) => `see ${base}${ws.join('/')}${q}`),
  'code-near-secret-names': fc
    .tuple(
      pick('token', 'password', 'apiKey', 'secret', 'clientSecret', 'accessToken', 'api_key', 'auth_token'),
      pick('options', 'config', 'input', 'req.body', 'this.settings', 'env'),
      pick(
        (n: string, o: string) => `const ${n} = ${o}.${n};`,
        (n: string, o: string) => `${n}: ${o}.${n},`,
        (n: string, _o: string) => `function login(${n}: string) {}`,
        (n: string, _o: string) => `${n} = get${n[0]!.toUpperCase()}${n.slice(1)}()`,
        (n: string, _o: string) => `${n}: new${n[0]!.toUpperCase()}${n.slice(1)},`,
        (n: string, _o: string) => `if (!${n}) throw new Error("missing ${n}")`,
        (n: string, o: string) => `${n} = ${o}[${JSON.stringify(n)}]`,
        (n: string, _o: string) => `${n}: \${{ secrets.${n.toUpperCase()} }}`,
        (n: string, _o: string) => `export ${n.toUpperCase()}=\${${n.toUpperCase()}}`,
        (n: string, _o: string) => `${n}: process.env.${n.toUpperCase()}`,
      ),
    )
    .map(([n, o, f]) => f(n, o)),
  'labelled-id': fc
    .tuple(
      fc.oneof(hex40, uuid, random(HEX, 64)),
      pick(
        'commit',
        'head_sha',
        'parent',
        '"tree"',
        'session_id',
        'request_id',
        'trace_id',
        'etag',
        'checksum',
        'keyCommit',
        'tokenizer_revision',
        'image@sha256',
      ),
    )
    .map(([v, label]) => (label === 'image@sha256' ? `node:20-alpine@sha256:${v}` : `${label}: ${v}`)),
  'prose-after-label': fc
    .tuple(
      pick('Password:', 'Token:', 'The secret:', 'API key:', 'client_secret:', 'password ='),
      pick(
        ...(
          'the see use none stored rotated expires forgotten authentication unknown monthly keychain vault ' +
          'environment missing invalid expired revoked generated provided configured hidden encrypted ' +
          'plaintext temporary permanent optional mandatory automatically manually managed refreshed ' +
          'validated verified compromised changed reset updated deleted something whatever because however ' +
          'therefore although credentials username administrator production staging deployment pipeline'
        ).split(' '),
      ),
    )
    .map(([label, word]) => `${label} ${word} (see the runbook).`),
  prose: fc
    .tuple(identWord, identWord)
    .map(
      ([a, b]) =>
        `The ${a} is stored in the keychain; rotate the ${b} token monthly. Password: see the vault.`,
    ),
};
