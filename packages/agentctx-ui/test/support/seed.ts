import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkRecordEntity, upsertNode } from '../../../agentctx/src/database/graph-repo.js';
import {
  addExtractionCost,
  addInjectedTokens,
  endSession,
} from '../../../agentctx/src/database/sessions-repo.js';
import { addShown, setVerdict } from '../../../agentctx/src/database/usage-repo.js';
import { createApp, createRecord, type RecordsDeps, supersedeRecord } from '../../src/server/core.js';

/** A git folder with an origin remote, made without running git. */
export function fakeRepo(parent: string, name: string, origin: string): string {
  const root = join(parent, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = ${origin}\n`);
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return root;
}

export interface Seeded {
  dir: string;
  home: string;
  env: Record<string, string>;
  repo: string;
  projectId: string;
  otherProjectId: string;
  ids: {
    sqlite: string;
    tabs: string;
    oldTabs: string;
    retry: string;
    bugfix: string;
    globalPref: string;
    otherDecision: string;
  };
  cleanup(): void;
}

/**
 * A temp AGENTCTX_HOME with two projects, a global preference, a supersession chain, file links
 * and sessions, all written through the agentctx core services (as hooks and the CLI write).
 */
export function seedStore(): Seeded {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-ui-'));
  const home = join(dir, 'home');
  const env = { AGENTCTX_HOME: home, HOME: dir };
  const repo = fakeRepo(dir, 'shop', 'git@github.com:acme/shop.git');
  writeFileSync(
    join(repo, 'CLAUDE.md'),
    '# Shop\n\n- Indent with tabs: source files are indented with tabs.\n- Run the tests with npm test.\n',
  );
  const other = fakeRepo(dir, 'billing', 'https://github.com/acme/billing');

  const app = createApp({ cwd: repo, env });
  const deps = app.records();
  const otherApp = createApp({ cwd: other, env });
  const otherDeps: RecordsDeps = { ...deps, projectId: otherApp.project.id };
  otherApp.close();

  const rec = (d: RecordsDeps, type: string, title: string, body: string, extra: object = {}) =>
    createRecord(d, { type, title, body, source: 'cli', confidence: 'explicit', ...extra });

  const sqlite = rec(
    deps,
    'decision',
    'Store context in SQLite with WAL',
    'One SQLite file, WAL mode, so parallel hooks can write.',
  );
  const oldTabs = rec(deps, 'convention', 'Indent with tabs', 'Source files are indented with tabs.');
  const tabs = supersedeRecord(deps, oldTabs.id, {
    body: 'Source files are indented with two spaces.',
    title: 'Indent with two spaces',
    rationale: 'the formatter settled on spaces',
    source: 'cli',
  }).record;
  const retry = rec(
    deps,
    'discovery',
    'Payment webhook retries three times',
    'The provider retries a failed webhook three times, one minute apart.',
    {
      confidence: 'inferred',
    },
  );
  const bugfix = rec(
    deps,
    'bugfix',
    'Error: cannot read cart of undefined',
    'The cart was read before the session loaded; await loadSession first.',
    {
      confidence: 'inferred',
    },
  );
  rec(deps, 'profile', 'profile: name', 'shop');
  const globalPref = rec(
    deps,
    'preference',
    'Prefers small focused commits',
    'Commit each logical change on its own with a short message.',
    {
      scope: 'global',
      confidence: 'inferred',
    },
  );
  const otherDecision = rec(
    otherDeps,
    'decision',
    'Invoices are immutable',
    'An issued invoice is never edited; a credit note corrects it.',
  );

  for (const [recordId, file] of [
    [sqlite.id, 'src/storage/open.ts'],
    [retry.id, 'src/payments/webhook.ts'],
    [bugfix.id, 'src/cart/cart.ts'],
    [tabs.id, 'biome.json'],
    [sqlite.id, 'src/storage/migrations.ts'],
  ] as const) {
    linkRecordEntity(app.db, recordId, upsertNode(app.db, app.newId, app.project.id, 'file', file));
  }

  const days = ['2026-11-20', '2026-11-22', '2026-11-25', '2026-11-28'];
  days.forEach((day, i) => {
    const sid = `session-${i + 1}`;
    addInjectedTokens(app.db, sid, app.project.id, 600 + i * 250, `${day}T09:00:00.000Z`);
    addExtractionCost(app.db, sid, app.project.id, 0.012 + i * 0.001, `${day}T10:00:00.000Z`);
    endSession(app.db, sid, app.project.id, `${day}T10:00:00.000Z`);
  });
  // what the sessions were shown and used (usage evidence): session-1 used one record of three,
  // session-2 two, session-3 none, session-4 is not judged yet
  const shown = [sqlite.id, tabs.id, retry.id];
  const used: Record<string, string[]> = {
    'session-1': [sqlite.id],
    'session-2': [sqlite.id, retry.id],
    'session-3': [],
  };
  days.forEach((day, i) => {
    const sid = `session-${i + 1}`;
    addShown(app.db, sid, shown, 'prompt', (600 + i * 250) / 3, `${day}T09:00:00.000Z`);
    const u = used[sid];
    if (!u) return;
    for (const id of shown)
      setVerdict(app.db, sid, id, u.includes(id) ? 'used' : 'unused', 'seed', `${day}T10:00:00.000Z`);
  });
  addInjectedTokens(app.db, 'session-b1', otherDeps.projectId, 420, '2026-11-21T09:00:00.000Z');

  const seeded: Seeded = {
    dir,
    home,
    env,
    repo,
    projectId: app.project.id,
    otherProjectId: otherDeps.projectId,
    ids: {
      sqlite: sqlite.id,
      tabs: tabs.id,
      oldTabs: oldTabs.id,
      retry: retry.id,
      bugfix: bugfix.id,
      globalPref: globalPref.id,
      otherDecision: otherDecision.id,
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  app.close();
  return seeded;
}
