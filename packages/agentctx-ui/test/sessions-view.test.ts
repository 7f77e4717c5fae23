import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../agentctx/src/database/sqlite.js';
import { type RunningDashboard, startDashboard } from '../src/server/start.js';
import { type Browser, launch } from './support/browser.js';
import { withToken } from './support/http.js';
import { type Seeded, seedStore } from './support/seed.js';

/**
 * Issue 31 #17, the Sessions page in Chromium: the chart's axis labels were larger than the page
 * heading (a 640-unit viewBox stretched to the window), its caption spoke of a "green part" that
 * a store with no judged session does not draw, and "Started" was relative while "Ended" was absolute.
 */

const skipBrowser = process.env.AGENTCTX_SKIP_BROWSER === '1';

describe.skipIf(skipBrowser)('the Sessions page in Chromium', () => {
  let seed: Seeded;
  let dash: RunningDashboard;
  let b: Browser;

  const open = async () => {
    await b.page.goto(`${dash.url}#/projects`);
    await b.page.locator('table.projects').waitFor();
    await b.page.evaluate(() => {
      location.hash = '#/sessions';
    });
    await b.page.locator('.chart svg rect.bar').first().waitFor();
  };
  const setVerdicts = (verdict: string | null) => {
    const db = new Database(join(seed.home, 'agentctx.db'));
    db.prepare('UPDATE session_shown SET verdict = ?, judged_at = ?').run(
      verdict,
      verdict ? '2026-11-29T00:00:00.000Z' : null,
    );
    db.close();
  };

  beforeAll(async () => {
    seed = seedStore();
    dash = await startDashboard({ cwd: seed.repo, env: seed.env, port: 0 });
    b = await launch();
  });

  afterAll(async () => {
    const errors = [...(b?.errors ?? [])];
    await b?.close();
    await dash?.close();
    seed?.cleanup();
    expect(errors).toEqual([]);
  });

  it('the axis labels are smaller than the page heading and still readable, at any window width', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 360, max: 2400 }), async (width) => {
        await b.page.setViewportSize({ width, height: 900 });
        await open();
        // as drawn: the computed size times the SVG's scale on screen
        const sizes = () =>
          b.page.evaluate(() => {
            const h1 = Number.parseFloat(getComputedStyle(document.querySelector('main h1')!).fontSize);
            const svg = document.querySelector('.chart svg') as SVGSVGElement;
            const scale = svg.getScreenCTM()?.a ?? 1;
            const ticks = [...svg.querySelectorAll('text')].map(
              (t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale,
            );
            return { h1, smallest: Math.min(...ticks), largest: Math.max(...ticks) };
          });
        await expect.poll(async () => (await sizes()).largest < (await sizes()).h1).toBe(true);
        expect((await sizes()).smallest).toBeGreaterThanOrEqual(10);
      }),
      { numRuns: 8, endOnFailure: true },
    );
  }, 120_000);

  it('the caption names only what the chart draws, in the colour it is drawn', async () => {
    await b.page.setViewportSize({ width: 1280, height: 800 });
    const claimsUsed = /went to records the session used/;
    const check = async () => {
      const caption = await b.page.locator('.chart figcaption').innerText();
      const usedBars = await b.page.locator('.chart svg rect.bar-used').count();
      expect(claimsUsed.test(caption)).toBe(usedBars > 0);
      expect(caption).not.toMatch(/green|blue/i);
      const items = b.page.locator('.chart figcaption [data-series]');
      expect(await items.count()).toBeGreaterThan(0);
      for (const series of await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-series')!))) {
        const marks = b.page.locator(`.chart svg rect.${series}`);
        expect(await marks.count(), series).toBeGreaterThan(0);
        const drawn = await marks.first().evaluate((e) => getComputedStyle(e).fill);
        const swatch = await b.page
          .locator(`.chart figcaption [data-series="${series}"] .swatch`)
          .evaluate((e) => getComputedStyle(e).backgroundColor);
        expect(swatch, series).toBe(drawn);
      }
      return { caption, usedBars };
    };
    // seeded: sessions 1 and 2 used some of their records
    await open();
    expect((await check()).usedBars).toBe(2);
    // judged, none used: no used part drawn, and the caption says so
    setVerdicts('unused');
    await open();
    const none = await check();
    expect(none.usedBars).toBe(0);
    expect(none.caption).toContain('None of the 4 sessions judged so far used the records they were shown.');
    // nothing judged yet (a new user's store): no used part, no claim of one
    setVerdicts(null);
    await open();
    const fresh = await check();
    expect(fresh.usedBars).toBe(0);
    expect(fresh.caption).toContain('No session has been judged yet');
  });

  it('Started and Ended read the same way: how long ago, the exact time as a tooltip', async () => {
    await open();
    const api = await (
      await fetch(`${dash.origin}api/sessions?project=${seed.projectId}`, withToken(dash))
    ).json();
    const rows = await b.page.locator('table tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')].slice(0, 2).map((td) => {
          const t = td.querySelector('time');
          return t
            ? { text: t.textContent, datetime: t.getAttribute('datetime'), title: t.getAttribute('title') }
            : { text: td.textContent, datetime: null, title: null };
        }),
      ),
    );
    expect(rows.length).toBe(api.sessions.length);
    rows.forEach((cells, i) => {
      const s = api.sessions[i];
      const expected = [s.started_at, s.ended_at];
      cells.forEach((c, k) => {
        expect(c.datetime, `${s.session_id} column ${k}`).toBe(expected[k]);
        expect(c.text).toMatch(/^(\d+ (minute|hour|day|month|year)s? ago|just now)$/);
        // the tooltip is the absolute time of that same instant
        expect(c.title).toBe(new Date(expected[k]).toLocaleString('en-US'));
      });
    });
  });
});
