import { TranscriptBuilder } from './transcript-fixture.js';

/**
 * A labelled set for the "used" rule (core/usage/rule.ts): Claude Code transcripts in the
 * client's JSONL shapes, the records each session was shown and how, and what a careful reader
 * of the transcript says the session did with each: used it, ignored it, or (the developer)
 * contradicted it. Hard negatives on purpose: records retrieved because they share the
 * prompt's words, records whose terms only appear in tool output, a record the assistant names
 * to dismiss it, one whose advice the assistant went against while quoting it; and hard
 * positives the rule cannot see (tabs typed without a word about them).
 */

export type Label = 'used' | 'unused' | 'contradicted';

export interface LabelledRecord {
  key: string;
  type: 'decision' | 'convention' | 'preference' | 'bugfix' | 'handover' | 'discovery';
  title: string;
  body: string;
  /** Files the record is linked to (repository-relative). */
  files?: string[];
}

export const RECORDS: LabelledRecord[] = [
  {
    key: 'pnpm',
    type: 'convention',
    title: 'Use pnpm, not npm',
    body: 'This repo installs with `pnpm install --frozen-lockfile`; npm writes a package-lock.json that CI rejects.',
  },
  {
    key: 'zod',
    type: 'decision',
    title: 'Validate API payloads with zod',
    body: 'Request bodies are parsed with zod schemas in src/api/schemas.ts; do not hand-write type guards.',
    files: ['src/api/schemas.ts'],
  },
  {
    key: 'retries',
    type: 'decision',
    title: 'Payment client retries: MAX_RETRIES = 3 with jittered backoff',
    body: 'src/billing/charge.ts retries Stripe calls at most 3 times (MAX_RETRIES), backoff 200ms × 2^n with jitter; idempotency keys are required.',
    files: ['src/billing/charge.ts'],
  },
  {
    key: 'tabs',
    type: 'preference',
    title: 'Indent with tabs',
    body: 'The developer wants tabs for indentation in every project, never spaces.',
  },
  {
    key: 'pipelining',
    type: 'bugfix',
    title: 'Retry test flakes with undici pooling',
    body: 'undici pools connections; tests set `pipelining: 0` on the Agent in test/http/setup.ts.',
  },
  {
    key: 'iso',
    type: 'convention',
    title: 'Store timestamps as ISO 8601 UTC strings',
    body: 'Columns ending in _at hold ISO 8601 strings in UTC (toISOString()), never epoch numbers.',
  },
  {
    key: 'pino',
    type: 'decision',
    title: 'Logging through pino',
    body: 'Use the pino logger from src/log.ts; console.log is banned by the lint rule no-console.',
    files: ['src/log.ts'],
  },
  {
    key: 'migrations',
    type: 'convention',
    title: 'Migrations are append-only',
    body: 'Never edit a shipped migration in src/db/migrations/; add a new file numbered next (e.g. 0042_add_index.sql).',
  },
  {
    key: 'upload',
    type: 'handover',
    title: 'Next: migrate src/http/upload.ts to undici',
    body: 'The client moved to undici; src/http/upload.ts still imports node-fetch. Open question: streaming bodies.',
  },
  {
    key: 'flags',
    type: 'decision',
    title: 'Feature flags live in LaunchDarkly',
    body: 'Flags are read via getFlag() from src/flags.ts, backed by LaunchDarkly; no env-var flags.',
  },
  {
    key: 'apperror',
    type: 'convention',
    title: 'Wrap handler errors in AppError',
    body: 'HTTP handlers throw AppError(code, message); the errorMiddleware in src/api/errors.ts maps codes to statuses.',
  },
  {
    key: 'pgtest',
    type: 'discovery',
    title: 'Integration tests use a throwaway Postgres from docker compose',
    body: 'Run `docker compose up -d db-test` before `npm run test:int`; DATABASE_URL_TEST points at port 5433.',
  },
];

export interface Shown {
  key: string;
  via: 'digest' | 'prompt';
  /** When it was injected (prompt injections; the digest is shown at the start). */
  at?: string;
}

export interface LabelledSession {
  name: string;
  builder: TranscriptBuilder;
  /** Injected by the hooks (MCP results are found in the transcript). */
  shown: Shown[];
  labels: Record<string, Label>;
}

const ROOT = '/home/dev/shop';

function last(b: TranscriptBuilder): string {
  return String(b.lines[b.lines.length - 1]?.timestamp);
}

function searchResult(ids: Record<string, string>, keys: string[]): string {
  return JSON.stringify({
    results: keys.map((k) => {
      const r = RECORDS.find((x) => x.key === k)!;
      return { id: ids[k], type: r.type, title: r.title, age: '3d', confidence: 'explicit', score: 1 };
    }),
  });
}

function getResult(ids: Record<string, string>, keys: string[]): string {
  return JSON.stringify({
    records: keys.map((k) => {
      const r = RECORDS.find((x) => x.key === k)!;
      return { id: ids[k], type: r.type, title: r.title, body: r.body };
    }),
    missing: [],
  });
}

/** An injection: the prompt, then the hook's attachment (its time is the injection's). */
function inject(b: TranscriptBuilder, prompt: string, ids: Record<string, string>, keys: string[]): Shown[] {
  b.user(prompt).attachment(`agentctx: ${keys.map((k) => ids[k]).join(', ')}`);
  const at = last(b);
  return keys.map((key) => ({ key, via: 'prompt' as const, at }));
}

function digest(keys: string[]): Shown[] {
  return keys.map((key) => ({ key, via: 'digest' as const }));
}

/** The labelled sessions, given the ids the store gave the records (key → id). */
export function labelledSessions(ids: Record<string, string>): LabelledSession[] {
  const out: LabelledSession[] = [];
  const add = (name: string, f: (b: TranscriptBuilder) => Omit<LabelledSession, 'name' | 'builder'>) => {
    const b = new TranscriptBuilder(`sess-${name}`, ROOT);
    out.push({ name, builder: b, ...f(b) });
  };

  add('install', (b) => {
    b.user('install the dependencies and run the tests')
      .assistant('Installing first.')
      .tool('Bash', { command: 'pnpm install --frozen-lockfile' }, 'Done in 4.2s')
      .tool('Bash', { command: 'pnpm test' }, 'Tests  41 passed (41)')
      .assistant('Installed with pnpm; all 41 tests pass.');
    return {
      shown: digest(['pnpm', 'tabs', 'iso']),
      labels: { pnpm: 'used', tabs: 'unused', iso: 'unused' },
    };
  });

  add('signup', (b) => {
    const shown = inject(b, 'add validation to the signup request body', ids, ['zod', 'apperror']);
    b.assistant('I will add a schema for the signup request.')
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/api/schemas.ts`,
          old_string: '// schemas',
          new_string:
            'export const Signup = z.object({ email: z.string().email(), password: z.string().min(12) });',
        },
        'The file has been updated.',
      )
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/api/signup.ts`,
          old_string: 'const body = req.body;',
          new_string: 'const body = Signup.parse(req.body);',
        },
        'The file has been updated.',
      )
      .assistant('The signup handler now parses its body with the Signup schema.');
    return { shown, labels: { zod: 'used', apperror: 'unused' } };
  });

  add('charge', (b) => {
    const shown = inject(b, 'the charge call times out sometimes, make it more robust', ids, [
      'retries',
      'pino',
    ]);
    b.tool('Read', { file_path: `${ROOT}/src/billing/charge.ts` }, 'export async function charge() {}')
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/billing/charge.ts`,
          old_string: 'return stripe.charges.create(req);',
          new_string:
            'for (let i = 0; i < MAX_RETRIES; i++) {\n  try { return await stripe.charges.create(req, { idempotencyKey }); }\n  catch (e) { console.log("retrying", i); await sleep(jitter(200 * 2 ** i)); }\n}',
        },
        'The file has been updated.',
      )
      .assistant('charge() now retries with jittered backoff and an idempotency key.');
    // the assistant wrote console.log, which the pino record forbids: it ignored that record
    return { shown, labels: { retries: 'used', pino: 'unused' } };
  });

  add('format', (b) => {
    b.user('format the new module src/cart/total.ts')
      .tool(
        'Write',
        {
          file_path: `${ROOT}/src/cart/total.ts`,
          content: 'export function total(items) {\n\treturn items.length;\n}\n',
        },
        'File created successfully',
      )
      .assistant('Reformatted: indented with tabs, as you prefer.');
    return {
      shown: digest(['tabs', 'iso', 'migrations']),
      labels: { tabs: 'used', iso: 'unused', migrations: 'unused' },
    };
  });

  add('timestamps', (b) => {
    b.user('how do we handle timestamps in this codebase?')
      .tool('mcp__agentctx__ctx_search', { query: 'timestamps dates' }, searchResult(ids, ['iso', 'pgtest']))
      .tool('mcp__agentctx__ctx_get', { ids: [ids.iso] }, getResult(ids, ['iso']))
      .assistant('Timestamps are stored as ISO 8601 strings in UTC.');
    return { shown: [], labels: { iso: 'used', pgtest: 'unused' } };
  });

  add('continue', (b) => {
    const shown = inject(b, 'continue where we left off', ids, ['upload', 'pipelining']);
    b.assistant(`Picking up the handover ${ids.upload}: moving the upload client next.`)
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/http/upload.ts`,
          old_string: "from 'node-fetch'",
          new_string: "from 'undici'",
        },
        'The file has been updated.',
      )
      .assistant('Done.');
    return { shown, labels: { upload: 'used', pipelining: 'unused' } };
  });

  add('flags', (b) => {
    b.user('add a feature flag for the new checkout')
      .assistant('I will add it through getFlag() in src/flags.ts, backed by LaunchDarkly.')
      .user("No, that's outdated: we moved feature flags to env vars, LaunchDarkly is gone.")
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/config.ts`,
          old_string: '};',
          new_string: '  newCheckout: process.env.NEW_CHECKOUT === "1",\n};',
        },
        'The file has been updated.',
      )
      .assistant('Added NEW_CHECKOUT as an environment variable.');
    return { shown: digest(['flags']), labels: { flags: 'contradicted' } };
  });

  add('index', (b) => {
    const shown = inject(b, 'add an index on users.email', ids, ['migrations']);
    b.tool(
      'Write',
      {
        file_path: `${ROOT}/src/db/migrations/0043_users_email_index.sql`,
        content: 'CREATE INDEX users_email ON users(email);',
      },
      'File created successfully',
    )
      .assistant('Added migration 0043 instead of editing the shipped one.')
      .user('yes, append-only migrations, good.');
    return { shown, labels: { migrations: 'used' } };
  });

  add('dbtests', (b) => {
    const shown = inject(b, 'the tests for the database layer fail', ids, ['pgtest', 'migrations']);
    b.tool(
      'Bash',
      { command: 'npx vitest run test/db' },
      'FAIL test/db/query.test.ts: expected "usr" to be "user"',
    )
      .tool(
        'Edit',
        { file_path: `${ROOT}/src/db/query.ts`, old_string: "'usr'", new_string: "'user'" },
        'The file has been updated.',
      )
      .tool('Bash', { command: 'npx vitest run test/db' }, 'Tests 12 passed')
      .assistant('Fixed a typo in the table name in src/db/query.ts; the database tests pass.');
    return { shown, labels: { pgtest: 'unused', migrations: 'unused' } };
  });

  add('logging', (b) => {
    b.user('log every failed login')
      .tool(
        'Read',
        { file_path: `${ROOT}/src/log.ts` },
        "import pino from 'pino';\nexport const logger = pino();",
      )
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/auth/login.ts`,
          old_string: 'return fail();',
          new_string: "logger.warn({ user }, 'login failed');\nreturn fail();",
        },
        'The file has been updated.',
      )
      .assistant('Failed logins are now logged with the shared logger.');
    return { shown: digest(['pino']), labels: { pino: 'used' } };
  });

  add('outputonly', (b) => {
    b.user('run the integration tests')
      .tool('Bash', { command: 'npm test' }, 'db-test container on port 5433 ready\nTests 30 passed')
      .assistant('All 30 tests pass.');
    return { shown: digest(['pgtest']), labels: { pgtest: 'unused' } };
  });

  add('readme', (b) => {
    b.user('rename the README title to Shop')
      .tool(
        'Edit',
        { file_path: `${ROOT}/README.md`, old_string: '# shop-api', new_string: '# Shop' },
        'The file has been updated.',
      )
      .assistant('Updated the title.');
    return {
      shown: digest(['pnpm', 'retries', 'iso', 'pino', 'flags']),
      labels: { pnpm: 'unused', retries: 'unused', iso: 'unused', pino: 'unused', flags: 'unused' },
    };
  });

  add('orders', (b) => {
    const shown = inject(b, 'add a created column to the orders table', ids, ['iso']);
    b.tool(
      'Write',
      {
        file_path: `${ROOT}/src/db/migrations/0044_orders_created.sql`,
        content: 'ALTER TABLE orders ADD COLUMN created_at TEXT NOT NULL; -- ISO 8601, UTC',
      },
      'File created successfully',
    ).assistant('Added created_at.');
    return { shown, labels: { iso: 'used' } };
  });

  add('silenttabs', (b) => {
    const shown = inject(b, 'write a helper that sums the cart lines', ids, ['tabs']);
    b.tool(
      'Write',
      {
        file_path: `${ROOT}/src/cart/sum.ts`,
        content: 'export function sum(lines) {\n\treturn lines.reduce((a, l) => a + l.price, 0);\n}\n',
      },
      'File created successfully',
    ).assistant('Added sum().');
    // it followed the preference without a word about it: the rule cannot see this
    return { shown, labels: { tabs: 'used' } };
  });

  add('refund', (b) => {
    b.user('refunds should be possible from the admin panel')
      .tool(
        'mcp__agentctx__ctx_search',
        { query: 'billing retries refund' },
        searchResult(ids, ['retries', 'flags']),
      )
      .assistant('Nothing stored about refunds; I will look at the code.')
      .tool(
        'Edit',
        {
          file_path: `${ROOT}/src/billing/refund.ts`,
          old_string: '// TODO',
          new_string: 'export async function refund(id) { return stripe.refunds.create({ charge: id }); }',
        },
        'The file has been updated.',
      )
      .assistant('Added refund().');
    return { shown: [], labels: { retries: 'unused', flags: 'unused' } };
  });

  add('dismiss', (b) => {
    const shown = inject(b, 'set up the dependencies for the python worker', ids, ['pnpm']);
    b.assistant(`Record ${ids.pnpm} is about the Node side; the worker uses uv.`)
      .tool('Bash', { command: 'cd worker && uv sync' }, 'Resolved 12 packages')
      .assistant('Worker dependencies installed with uv.');
    // the id is named only to set the record aside
    return { shown, labels: { pnpm: 'unused' } };
  });

  add('notfound', (b) => {
    const shown = inject(b, 'return a 404 when the user is missing', ids, ['apperror', 'zod']);
    b.tool(
      'Edit',
      {
        file_path: `${ROOT}/src/api/users.ts`,
        old_string: 'if (!user) return null;',
        new_string: "if (!user) throw new AppError('not_found', 'no such user');",
      },
      'The file has been updated.',
    ).assistant('Missing users now raise a not_found error.');
    return { shown, labels: { apperror: 'used', zod: 'unused' } };
  });

  return out;
}
