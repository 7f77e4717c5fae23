import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Fake but realistic secrets, generated fresh for every run (no real key is ever in the repo):
 * each entry is a line as it would appear in a session (a pasted .env, a curl command, a
 * config file) and the secret part that must never leave the machine or reach the store.
 */

export interface SecretSample {
  family: string;
  /** Unique word on the line, to prove the line itself was sent. */
  marker: string;
  line: string;
  /** The sensitive value(s) in the line. */
  secrets: string[];
  /** Where the line goes in the transcript. */
  where: 'user' | 'bash' | 'result' | 'assistant';
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}-_`;
const HEX = '0123456789abcdef';

export function rand(n: number, alphabet = ALNUM): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

function b64url(obj: unknown): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

function jwt(): string {
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: rand(12), iat: 1700000000, name: 'Dev' })}.${rand(43, URLSAFE)}`;
}

function pem(label: string, lines: number, sep = '\n'): { text: string; body: string[] } {
  const body = Array.from({ length: lines }, () => rand(64, B64));
  return { text: [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join(sep), body };
}

/** At least 50 samples across every family redaction covers. */
export function secretCorpus(): SecretSample[] {
  const s: Omit<SecretSample, 'marker'>[] = [];
  const add = (family: string, where: SecretSample['where'], line: string, ...secrets: string[]) =>
    s.push({ family, where, line, secrets });

  let v = `sk-ant-api03-${rand(93, URLSAFE)}AA`;
  add('anthropic', 'user', `Use this key for staging: ANTHROPIC_API_KEY=${v}`, v);
  v = `sk-ant-admin01-${rand(60, URLSAFE)}`;
  add('anthropic', 'user', `the admin key is ${v} do not lose it`, v);
  v = `sk-ant-oat01-${rand(70, URLSAFE)}`;
  add('anthropic', 'bash', `CLAUDE_CODE_OAUTH_TOKEN=${v} claude -p hello`, v);

  v = `sk-proj-${rand(48, URLSAFE)}`;
  add('openai', 'user', `OPENAI_API_KEY="${v}"`, v);
  v = `sk-${rand(20)}T3BlbkFJ${rand(20)}`;
  add('openai', 'result', `loaded openai key ${v} from settings`, v);
  v = `sk-svcacct-${rand(50, URLSAFE)}`;
  add('openai', 'user', `openai.api_key = '${v}'`, v);

  v = `AKIA${rand(16, UPPER_DIGITS)}`;
  add('aws', 'user', `AWS_ACCESS_KEY_ID=${v}`, v);
  v = `ASIA${rand(16, UPPER_DIGITS)}`;
  add('aws', 'result', `{"Credentials": {"AccessKeyId": "${v}", "Expiration": "2026-12-02"}}`, v);
  v = rand(40, B64);
  add('aws', 'user', `[default]\naws_secret_access_key = ${v}\nregion = eu-west-1`, v);
  v = rand(40, B64);
  add('aws', 'result', `{"SecretAccessKey": "${v}", "SessionToken": "${rand(10)}"}`, v);

  v = `ghp_${rand(36)}`;
  add('github', 'bash', `git clone https://${v}@github.com/acme/shop.git`, v);
  v = `gho_${rand(36)}`;
  add('github', 'user', `my oauth token: ${v}`, v);
  v = `ghs_${rand(36)}`;
  add('github', 'result', `Using installation token ${v} for the checkout`, v);
  v = `github_pat_11${rand(20, UPPER_DIGITS)}_${rand(59)}`;
  add('github', 'user', `export GH_TOKEN=${v}`, v);
  v = `ghu_${rand(36)}`;
  add('github', 'assistant', `The workflow used ${v} as the user token.`, v);
  v = `ghp_${rand(36)}`;
  add('github', 'bash', `curl -H "Authorization: token ${v}" https://api.github.com/user`, v);

  v = `xoxb-${rand(12, '0123456789')}-${rand(13, '0123456789')}-${rand(24)}`;
  add('slack', 'user', `SLACK_BOT_TOKEN=${v}`, v);
  v = `xoxp-${rand(12, '0123456789')}-${rand(12, '0123456789')}-${rand(13, '0123456789')}-${rand(32, HEX)}`;
  add('slack', 'result', `slack user token ${v}`, v);
  v = `https://hooks.slack.com/services/T${rand(8, UPPER_DIGITS)}/B${rand(8, UPPER_DIGITS)}/${rand(24)}`;
  add('slack', 'user', `post alerts to ${v} please`, v.slice(v.lastIndexOf('/') + 1));

  v = `sk_live_${rand(99)}`;
  add('stripe', 'user', `STRIPE_SECRET_KEY=${v}`, v);
  v = `rk_live_${rand(99)}`;
  add('stripe', 'assistant', `I set the restricted key ${v} in the dashboard config.`, v);
  v = `pk_live_${rand(99)}`;
  add('stripe', 'result', `publishableKey: "${v}"`, v);
  v = `whsec_${rand(32)}`;
  add('stripe', 'user', `webhook signing secret is ${v}`, v);

  v = `AIza${rand(35, URLSAFE)}`;
  add('google', 'user', `GOOGLE_MAPS_KEY=${v}`, v);
  v = `ya29.${rand(120, URLSAFE)}`;
  add('google', 'result', `access token ${v} expires in 3599`, v);
  v = `GOCSPX-${rand(28, URLSAFE)}`;
  add('google', 'user', `client secret for the OAuth app: ${v}`, v);

  v = jwt();
  add(
    'jwt',
    'bash',
    `curl -H "Authorization: Bearer ${v}" http://localhost:3000/api/me`,
    v.split('.')[2]!,
    v.split('.')[1]!,
  );
  v = jwt();
  add('jwt', 'user', `the session cookie was ${v} when it failed`, v.split('.')[2]!, v.split('.')[1]!);

  let p = pem('RSA PRIVATE KEY', 6);
  add('private-key', 'user', `here is the deploy key:\n${p.text}`, ...p.body);
  p = pem('OPENSSH PRIVATE KEY', 5);
  add('private-key', 'result', p.text, ...p.body.slice(0, 2));
  p = pem('PRIVATE KEY', 4, '\\n');
  add('private-key', 'user', `{"type": "service_account", "private_key": "${p.text}\\n"}`, ...p.body);
  p = pem('EC PRIVATE KEY', 3);
  add('private-key', 'assistant', `The key file contains:\n${p.text}`, ...p.body);

  v = Buffer.from(`admin:${rand(16)}`).toString('base64');
  add('auth-header', 'bash', `curl -H 'Authorization: Basic ${v}' https://ci.internal/api`, v);
  v = rand(40, URLSAFE);
  add('auth-header', 'result', `> Authorization: Bearer ${v}`, v);
  v = rand(32);
  add('auth-header', 'user', `headers: { Authorization: "Bearer ${v}" }`, v);

  v = `P@ss-${rand(12)}`;
  add('assignment', 'user', `password=${v}`, v);
  v = rand(18);
  add('assignment', 'user', `DB_PASSWORD="${v}"`, v);
  v = `${rand(14)}!`;
  add('assignment', 'result', `{"username": "svc", "password": "${v}"}`, v);
  v = rand(16);
  add('assignment', 'user', `database:\n  host: db\n  password: ${v}`, v);
  v = rand(15);
  add('assignment', 'bash', `psql --host db --password ${v} -c "select 1"`, v);
  v = rand(24);
  add('assignment', 'user', `client_secret: ${v}`, v);
  v = rand(30, URLSAFE);
  add('assignment', 'result', `GET /callback?code=abc&access_token=${v}&state=x`, v);
  v = rand(32, HEX);
  add('assignment', 'user', `"apiKey": "${v}"`, v);
  v = rand(20);
  add('assignment', 'bash', `deploy --api-key=${v} --env prod`, v);
  v = rand(40, HEX);
  add('assignment', 'user', `export GITHUB_TOKEN=${v}`, v);
  v = randomUUID();
  add('assignment', 'user', `HEROKU_API_KEY=${v}`, v);
  v = rand(24);
  add('assignment', 'bash', `docker build --build-arg NPM_TOKEN=${v} .`, v);

  v = rand(16);
  add('connection', 'user', `DATABASE_URL=postgres://app:${v}@db.internal:5432/shop`, v);
  v = rand(16);
  add('connection', 'result', `connecting to postgresql://admin:${v}@10.0.0.5/prod`, v);
  v = rand(20);
  add(
    'connection',
    'user',
    `MONGO_URI=mongodb+srv://svc:${v}@cluster0.ab12c.mongodb.net/app?retryWrites=true`,
    v,
  );
  v = rand(20);
  add('connection', 'bash', `redis-cli -u redis://:${v}@cache:6379 ping`, v);
  v = rand(18);
  add('connection', 'user', `amqp://worker:${v}@rabbit:5672/ broke again`, v);
  v = rand(18);
  add('connection', 'assistant', `The config uses mysql://root:${v}@localhost/test for tests.`, v);

  v = rand(32, B64);
  add('high-entropy', 'user', `const signingKey = "${v}";`, v);
  v = rand(44, B64);
  add('high-entropy', 'user', `ENCRYPTION_KEY=${v}`, v);
  v = rand(32);
  add('high-entropy', 'result', `webhookSalt: "${v}"`, v);
  v = rand(40, URLSAFE);
  add('high-entropy', 'user', `cookie_sig => '${v}'`, v);

  v = `npm_${rand(36)}`;
  add('npm', 'user', `//registry.npmjs.org/:_authToken=${v}`, v);
  v = `glpat-${rand(20, URLSAFE)}`;
  add('gitlab', 'user', `gitlab token ${v}`, v);
  v = `hf_${rand(34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}`;
  add('huggingface', 'bash', `HF_HUB_TOKEN=${v} python train.py`, v);
  v = `SG.${rand(22, URLSAFE)}.${rand(43, URLSAFE)}`;
  add('sendgrid', 'user', `sendgrid: ${v}`, v);
  v = rand(14);
  add('basic-auth', 'bash', `curl -u deploy:${v} https://nexus.internal/repo`, v);

  return s.map((x, i) => ({ ...x, marker: `zq${i.toString().padStart(2, '0')}mark` }));
}

/** Every distinctive piece of a secret: the whole value and its 12-character windows. */
export function secretPieces(secret: string, width = 12): string[] {
  if (secret.length <= width) return [secret];
  const out = [secret];
  for (let i = 0; i + width <= secret.length; i += 4) out.push(secret.slice(i, i + width));
  return out;
}

/** The samples whose secret (or a 12-char piece of it) occurs in `text`. */
export function leaks(samples: readonly SecretSample[], text: string): string[] {
  const found: string[] = [];
  for (const sample of samples)
    for (const secret of sample.secrets)
      if (secretPieces(secret).some((p) => text.includes(p))) found.push(`${sample.family} ${sample.marker}`);
  return found;
}
