import fc from 'fast-check';
import { B64, chars, HEX, hex40, pick, random, uuid } from './secret-arbitraries.js';

/**
 * The benign corpus: random-looking text that is not secret (SHAs, ULIDs, UUIDs, lockfile
 * integrity, base64 images, identifiers, paths, semver, URLs, code and prose near secret
 * names), each family in the places it is written, to measure redaction's false positives.
 */

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

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
  // issue 31 #1: what stands where a secret by context would, and is not one
  'near-key-ids-and-providers': fc
    .tuple(
      hex40,
      uuid,
      fc.array(identWord, { minLength: 2, maxLength: 4 }),
      fc.integer({ min: 100000000000, max: 999999999999 }),
      pick(
        (h: string, _u: string, _ws: string[], _n: number) =>
          `[REDACTED:aws-access-key-id] rotated in commit ${h}`,
        (_h: string, _u: string, ws: string[], _n: number) =>
          `aws s3 cp dist/ s3://acme-assets/${ws.join('/')}/ --recursive`,
        (_h: string, _u: string, ws: string[], n: number) => `arn:aws:iam::${n}:role/${ws.join('-')}`,
        (_h: string, u: string, _ws: string[], _n: number) => `AWS request id ${u} (throttled)`,
        (_h: string, _u: string, ws: string[], _n: number) =>
          `aws lambda invoke --function-name ${ws.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}2024 out.json`,
        (_h: string, _u: string, ws: string[], _n: number) =>
          `Azure storage https://acme.blob.core.windows.net/${ws.join('/')}/logo.png`,
        (h: string, _u: string, _ws: string[], _n: number) => `Cloudflare zone ${h.slice(0, 32)} purged`,
        (_h: string, _u: string, ws: string[], _n: number) =>
          `datadog monitor ${ws.join('_').toUpperCase()}_P95 fired`,
        (_h: string, u: string, _ws: string[], _n: number) => `heroku release ${u} rolled back`,
      ),
    )
    .map(([h, u, ws, n, f]) => f(h, u, ws, n)),
  'benign-connection-strings': fc
    .tuple(
      fc.array(identWord, { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 1, max: 65535 }),
      pick(
        (ws: string[], _p: number) => `Server=db.internal;Database=${ws.join('_')};Trusted_Connection=True;`,
        (_ws: string[], p: number) => `Host=db;Port=${p};Username=app;Pooling=true;Maximum Pool Size=20`,
        (ws: string[], _p: number) =>
          `Endpoint=sb://acme.servicebus.windows.net/;EntityPath=${ws.join('-')};SharedAccessKeyName=RootManageSharedAccessKey`,
        (ws: string[], p: number) => `see http://localhost:${p}/${ws.join('/')}?email=dev@example.com`,
      ),
    )
    .map(([ws, p, f]) => f(ws, p)),
  'benign-env-lines': fc
    .tuple(
      hex40,
      uuid,
      fc.array(identWord, { minLength: 2, maxLength: 5 }),
      chars(B64, 43),
      pick(
        (h: string, _u: string, _ws: string[], _b: string) => `GIT_COMMIT=${h}`,
        (_h: string, u: string, _ws: string[], _b: string) => `export BUILD_ID=${u}`,
        (_h: string, _u: string, ws: string[], _b: string) =>
          `IMAGE=ghcr.io/acme/${ws.join('-')}:v1.2.3-rc.1`,
        (_h: string, _u: string, ws: string[], _b: string) => `ENTRYPOINT=src/${ws.join('/')}/main.ts`,
        (_h: string, _u: string, ws: string[], _b: string) =>
          `HANDLER=${ws.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('')}Handler2`,
        (_h: string, _u: string, ws: string[], _b: string) => `DATABASE_NAME=${ws.join('_')}_production`,
        (_h: string, _u: string, _ws: string[], b: string) => `SCRIPT_INTEGRITY=sha256-${b}=`,
        (_h: string, _u: string, _ws: string[], _b: string) => `NODE_OPTIONS=--max-old-space-size=4096`,
        (_h: string, _u: string, ws: string[], _b: string) =>
          `PUBLIC_URL=https://${ws.join('.')}.example.com/app`,
      ),
    )
    .map(([h, u, ws, b, f]) => f(h, u, ws, b)),
  prose: fc
    .tuple(identWord, identWord)
    .map(
      ([a, b]) =>
        `The ${a} is stored in the keychain; rotate the ${b} token monthly. Password: see the vault.`,
    ),
};
