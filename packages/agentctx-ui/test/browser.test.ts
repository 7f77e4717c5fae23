import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Db as Database } from '../../agentctx/src/database/sqlite.js';
import { type RunningDashboard, startDashboard } from '../src/server/start.js';
import { type Browser, chromiumPath, launch, screenshotDir } from './support/browser.js';
import { graphGeometry, layoutFaults } from './support/geometry.js';
import { withToken } from './support/http.js';
import { type Seeded, seedStore } from './support/seed.js';

// The browser comes with `npm install` (@sparticuz/chromium); AGENTCTX_SKIP_BROWSER=1 skips these tests knowingly.
const skipBrowser = process.env.AGENTCTX_SKIP_BROWSER === '1';
const shots = screenshotDir();

let seed: Seeded;
let dash: RunningDashboard;
let b: Browser;

async function shot(name: string): Promise<void> {
  const file = join(shots, `${name}.png`);
  await b.page.screenshot({ path: file, fullPage: false });
  expect(statSync(file).size).toBeGreaterThan(5000);
}

describe.skipIf(skipBrowser)('the dashboard in headless Chromium', () => {
  beforeAll(async () => {
    const chromium = await chromiumPath();
    if (!existsSync(chromium)) {
      throw new Error(`no browser at ${chromium} (AGENTCTX_CHROMIUM, or the @sparticuz/chromium package)`);
    }
    console.log(`screenshots: ${shots}`);
  });

  beforeEach(async () => {
    seed = seedStore();
    dash = await startDashboard({ cwd: seed.repo, env: seed.env, port: 0 });
    b = await launch();
  });

  afterEach(async () => {
    const errors = [...b.errors];
    await b.close();
    await dash.close();
    seed.cleanup();
    expect(errors).toEqual([]);
  });

  it('Projects: every project with counts and activity', async () => {
    await b.page.goto(`${dash.url}#/projects`);
    const rows = b.page.locator('table.projects tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => rows.first().innerText()).toContain('shop');
    expect(await b.page.locator('table.projects').innerText()).toContain('Global profile');
    expect(await b.page.locator('nav a[aria-current="page"]').innerText()).toBe('Projects');
    await shot('projects');
    await rows.first().locator('a').first().click();
    await b.page.waitForURL(/#\/records\?p=/);
    await b.page.locator('.record-list li').first().waitFor();
  });

  it('the page keeps the token from the URL it was opened with and sends it on every request', async () => {
    const sent: { url: string; header: string | undefined }[] = [];
    b.page.on('request', (r) => {
      if (r.url().startsWith(dash.origin))
        sent.push({ url: r.url(), header: r.headers()['x-agentctx-token'] });
    });
    await b.page.goto(`${dash.url}#/records`);
    await b.page.locator('.record-list li').first().waitFor();
    for (const view of ['projects', 'graph', 'profile', 'sessions', 'review']) {
      await b.page.locator(`nav a[href^="#/${view}"]`).click();
      await b.page.waitForURL(new RegExp(`#/${view}`));
    }
    await b.page.goto(`${dash.url}#/records/${seed.ids.sqlite}`);
    await b.page.locator('article.record').waitFor();
    expect(sent.some((r) => r.url.includes('/api/'))).toBe(true);
    for (const r of sent) {
      const inUrl = new URL(r.url).searchParams.get('token') === dash.token;
      expect(inUrl || r.header === dash.token, r.url).toBe(true);
    }
    // the address keeps the token across views, so a reload still works
    await b.page.reload();
    await b.page.locator('article.record').waitFor();
    // opened without it, the server refuses and says which URL to open
    const bare = await b.page.goto(dash.origin);
    expect(bare?.status()).toBe(403);
    expect(await b.page.locator('body').innerText()).toContain('agentctx ui');
    b.errors.length = 0; // the refused page's own console error is expected here
  });

  it('Records: search, open a record with its chain', async () => {
    await b.page.goto(`${dash.url}#/records`);
    await b.page.locator('.record-list li').first().waitFor();
    expect(await b.page.locator('.record-list li').count()).toBe(6);
    await b.page.getByPlaceholder(/Search titles/).fill('webhook retries');
    await b.page.keyboard.press('Enter');
    await expect.poll(() => b.page.locator('.record-list li').count()).toBe(1);
    expect(await b.page.locator('.record-list li').innerText()).toContain(
      'Payment webhook retries three times',
    );
    await b.page.locator('.record-list a').first().click();
    await b.page.locator('article.record h2').waitFor();
    expect(await b.page.locator('article.record h2').innerText()).toBe('Payment webhook retries three times');
    expect(await b.page.locator('article.record').innerText()).toContain('src/payments/webhook.ts');
    // filters: type select narrows the list
    await b.page.goto(`${dash.url}#/records`);
    await b.page.locator('select[name="type"]').selectOption('convention');
    await expect.poll(() => b.page.locator('.record-list li').count()).toBe(1);
    await b.page.locator('.record-list a').first().click();
    await b.page.getByTestId('chain').waitFor();
    expect(await b.page.getByTestId('chain').locator('li').count()).toBe(2);
    // the timeline: each version's validity, the first one ended when the second began
    const spans = await b.page.getByTestId('valid').allInnerTexts();
    expect(spans.length).toBe(2);
    expect(spans[0]).toMatch(/^valid .+ → .+/);
    expect(spans[1]).toMatch(/→ now/);
    // where each version came from, in words: never the store's raw source values
    const raw = /\b(cli|llm_extraction|hook_observation|mcp_tool|import)\b/;
    for (const s of spans) expect(s).not.toMatch(raw);
    expect(await b.page.locator('article.record dl.facts').innerText()).not.toMatch(raw);
    expect(await b.page.locator('article.record dl.facts').innerText()).toContain(
      'by hand (CLI or dashboard)',
    );
    await b.page.goto(`${dash.url}#/records/${seed.ids.tabs}`);
    await b.page.getByTestId('chain').waitFor();
    await expect.poll(() => b.page.locator('.record-list li').count()).toBe(6);
    await shot('records');
  });

  it('Records: supersede through the UI; the old version shows only under history', async () => {
    await b.page.goto(`${dash.url}#/records/${seed.ids.sqlite}`);
    await b.page.getByRole('button', { name: 'Edit (supersede)' }).click();
    await b.page
      .locator('form.edit input[name="title"]')
      .fill('Store context in SQLite, WAL and busy timeout');
    await b.page
      .locator('form.edit textarea[name="body"]')
      .fill('One SQLite file in WAL mode with a 10 second busy timeout.');
    await b.page.locator('form.edit input[name="rationale"]').fill('parallel hooks hit SQLITE_BUSY');
    await b.page.getByRole('button', { name: 'Save new version' }).click();
    await expect
      .poll(() => b.page.locator('article.record h2').innerText())
      .toBe('Store context in SQLite, WAL and busy timeout');
    const newId = await b.page.locator('article.record').getAttribute('data-record-id');
    expect(newId).not.toBe(seed.ids.sqlite);
    expect(await b.page.getByTestId('chain').locator('li').count()).toBe(2);
    const titles = () => b.page.locator('.record-list .title').allInnerTexts();
    await expect.poll(titles).toContain('Store context in SQLite, WAL and busy timeout');
    expect(await titles()).not.toContain('Store context in SQLite with WAL');
    await b.page.getByLabel('History').check();
    await expect.poll(titles).toContain('Store context in SQLite with WAL');
    const old = b.page.locator('.record-list li.old', { hasText: 'Store context in SQLite with WAL' });
    expect(await old.innerText()).toContain('superseded');
    await old.locator('a').click();
    await expect.poll(() => b.page.locator('article.record').innerText()).toContain('It no longer surfaces');
    // the store agrees
    const api = await fetch(`${dash.origin}api/records/${seed.ids.sqlite}`, withToken(dash));
    expect((await api.json()).record.superseded_by).toBe(newId);
    await shot('supersede');
  });

  it('Records: pin and confirm an inferred record', async () => {
    await b.page.goto(`${dash.url}#/records/${seed.ids.bugfix}`);
    await b.page.getByRole('button', { name: 'Pin' }).click();
    await b.page.getByRole('button', { name: 'Unpin' }).waitFor();
    await b.page.getByRole('button', { name: 'Confirm (mark reinforced)' }).click();
    await expect.poll(() => b.page.locator('article.record .badge.conf').innerText()).toBe('reinforced');
    const rec = (await (await fetch(`${dash.origin}api/records/${seed.ids.bugfix}`, withToken(dash))).json())
      .record;
    expect(rec).toMatchObject({ pinned: 1, confidence: 'reinforced' });
  });

  it('Review: a stale record is labelled, then answered with one key; an inferred one dismissed', async () => {
    // what consolidation stores when a file the record was linked to changed since (derived rows)
    const db = new Database(join(seed.home, 'agentctx.db'));
    db.prepare(
      `INSERT INTO record_staleness (record_id, project_id, path, state, new_path, commits, changed_share, checked_at)
       VALUES (?, ?, 'src/storage/open.ts', 'changed', NULL, 3, 0.25, '2026-01-01T00:00:00.000Z')`,
    ).run(seed.ids.sqlite, seed.projectId);
    db.close();
    await b.page.goto(`${dash.url}#/records`);
    const row = b.page.locator('.record-list li', { hasText: 'Store context in SQLite with WAL' });
    await expect.poll(() => row.locator('.badge.stale').count()).toBe(1);
    await row.locator('a').click();
    await expect
      .poll(() => b.page.locator('article.record .note.stale').innerText())
      .toContain('may be outdated: src/storage/open.ts changed since (3 commits, ~25% of lines)');

    await b.page.goto(`${dash.url}#/review`);
    const item = b.page.locator('article.review-item');
    await expect.poll(() => item.getAttribute('data-key')).toBe(`stale:${seed.ids.sqlite}`);
    expect(await item.innerText()).toContain('may be outdated: src/storage/open.ts');
    await shot('review');
    const before = Number((await b.page.getByTestId('review-count').innerText()).split(' ')[0]);
    await b.page.keyboard.press('c');
    await expect.poll(() => item.getAttribute('data-key')).not.toBe(`stale:${seed.ids.sqlite}`);
    const detail = await (
      await fetch(`${dash.origin}api/records/${seed.ids.sqlite}`, withToken(dash))
    ).json();
    expect(detail.stale).toBeNull();
    expect(detail.record.superseded_at).toBeNull();

    // an inferred record of the project: dismissing it retires it (agentctx retire); n moves on
    const key = `inferred:${seed.ids.retry}`;
    for (let i = 0; i < 6 && (await item.getAttribute('data-key')) !== key; i++)
      await b.page.keyboard.press('n');
    expect(await item.getAttribute('data-key')).toBe(key);
    await item.getByRole('button', { name: /Dismiss/ }).click();
    await expect.poll(() => item.getAttribute('data-key')).not.toBe(key);
    const gone = await (
      await fetch(`${dash.origin}api/records/${key.slice('inferred:'.length)}`, withToken(dash))
    ).json();
    expect(gone.record.superseded_at).not.toBeNull();
    await expect
      .poll(async () => Number((await b.page.getByTestId('review-count').innerText()).split(' ')[0]))
      .toBe(before - 2);

    // writes need the start-up token, as every dashboard write does
    const refused = await fetch(`${dash.origin}api/review/act`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: `inferred:${seed.ids.bugfix}`, action: 'dismiss' }),
    });
    expect(refused.status).toBe(403);
  });

  it('Graph: records and files coloured by type, all inside the view; clicking a node opens the record', async () => {
    await b.page.goto(`${dash.url}#/graph?history=1`);
    const node = b.page.locator(`[data-testid="graph"] circle.node[data-id="${seed.ids.retry}"]`);
    await node.waitFor();
    expect(await b.page.locator('.legend li').count()).toBeGreaterThanOrEqual(6);
    expect(layoutFaults(await graphGeometry(b.page), 4)).toEqual([]);
    // the seeded titles are short and few: every one is written out
    const records = await b.page.locator('[data-testid="graph"] circle.node.record').count();
    expect(await b.page.locator('text.graph-label.record').count()).toBe(records);
    await shot('graph');
    await node.click();
    await b.page.waitForURL(new RegExp(`#/records/${seed.ids.retry}`), { timeout: 10_000 });
    await expect
      .poll(() => b.page.locator('article.record h2').innerText())
      .toBe('Payment webhook retries three times');
  });

  it('Profile: global preferences, edited by supersession', async () => {
    await b.page.goto(`${dash.url}#/profile`);
    const item = b.page.locator('.profile-list > li').first();
    await item.waitFor();
    expect(await item.innerText()).toContain('Prefers small focused commits');
    expect(await item.innerText()).toContain('inferred');
    await shot('profile');
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.locator('textarea[name="body"]').fill('One logical change per commit; squash fixups.');
    await item.getByRole('button', { name: 'Save new version' }).click();
    await expect
      .poll(() => b.page.locator('.profile-list > li').first().innerText())
      .toContain('squash fixups');
    expect(await b.page.locator('.profile-list > li').count()).toBe(1);
  });

  it('Sessions: history, tokens injected, extraction cost, the token-tax chart and the share used', async () => {
    await b.page.goto(`${dash.url}#/sessions`);
    await b.page.getByTestId('total-tokens').waitFor();
    expect(await b.page.getByTestId('total-tokens').innerText()).toBe('3,900');
    expect(await b.page.getByTestId('total-sessions').innerText()).toBe('4');
    expect(await b.page.locator('.chart rect.bar').count()).toBe(4);
    expect(await b.page.locator('table tbody tr').count()).toBe(4);
    // the used share: over each bar the tokens of records the session used (sessions 1 and 2)
    expect(await b.page.locator('.chart rect.bar-used').count()).toBe(2);
    const bars = await b.page
      .locator('.chart rect.bar')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))));
    const used = await b.page
      .locator('.chart rect.bar-used')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))));
    // session-1: 600 tokens, a third used; session-2: 850 tokens, two thirds used
    expect(used[0]! / bars[0]!).toBeCloseTo(1 / 3, 2);
    expect(used[1]! / bars[1]!).toBeCloseTo(2 / 3, 2);
    // newest first in the table: session-4 not judged, session-3 none used, then 67% and 33%
    expect(await b.page.getByTestId('used-share').allInnerTexts()).toEqual(['—', '0%', '67%', '33%']);
    // 767 used tokens of the 2,550 judged (sessions 1–3: 200 + 567 + 0 of 600 + 850 + 1,100)
    expect(await b.page.getByTestId('total-used').innerText()).toBe('30%');
    await shot('sessions');
  });

  it('Sync: CLAUDE.md drift and the proposed diff', async () => {
    await b.page.goto(`${dash.url}#/sync`);
    await b.page.locator('pre.diff').waitFor();
    const text = await b.page.locator('main').innerText();
    expect(text).toContain('Store context in SQLite with WAL');
    expect(text).toContain('CLAUDE.md:3');
    expect(await b.page.locator('pre.diff .add').count()).toBeGreaterThan(0);
    await shot('sync');
  });

  it('fits a 390-px-wide window in dark mode, keyboard first', async () => {
    await b.close();
    b = await launch({ width: 390, height: 844, dark: true });
    await b.page.goto(`${dash.url}#/records`);
    await b.page.locator('.record-list li').first().waitFor();
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const bg = await b.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(bg).toBe('rgb(21, 23, 26)');
    // keyboard: the skip link comes first, then the nav
    await b.page.keyboard.press('Tab');
    expect(await b.page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await b.page.keyboard.press('Tab');
    expect(await b.page.evaluate(() => document.activeElement?.textContent)).toBe('Projects');
    await b.page.locator('.record-list a').first().focus();
    await b.page.keyboard.press('Enter');
    await b.page.locator('article.record h2').waitFor();
    expect(await b.page.locator('.list-pane').isVisible()).toBe(false);
    await shot('records-390-dark');
  });
});
