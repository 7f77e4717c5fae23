import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * The browser: AGENTCTX_CHROMIUM when set, else the Chromium that ships inside the
 * `@sparticuz/chromium` npm package (unpacked to the temp dir on first use), so a fresh
 * machine runs these tests after `npm install` alone, with no system package.
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.AGENTCTX_CHROMIUM) return process.env.AGENTCTX_CHROMIUM;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** Chromium, headless, with a fresh profile that is deleted afterwards. */
export async function launch(
  opts: { width?: number; height?: number; dark?: boolean } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'agentctx-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: await chromiumPath(),
    headless: true,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: opts.dark ? 'dark' : 'light',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where screenshots go: AGENTCTX_UI_SCREENSHOTS, else a temp folder (printed once). */
export function screenshotDir(): string {
  const dir = process.env.AGENTCTX_UI_SCREENSHOTS || join(tmpdir(), 'agentctx-ui-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
