// The built site, end to end: built (or reused when fresh), its links and llms.txt checked, then opened in
// Debian's chromium through playwright-core: the sidebar and the search are used, and two pages screenshotted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '@boomerang/test-kit/built';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MARKER, siteIsStale } from './freshness.js';
import { checkLinks } from './links.js';
import { appDir, distDir } from './paths.js';
import { guidePages } from './sidebar.js';
import { type StaticServer, serveStatic } from './static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/** `DOCS_SCREENSHOTS=update` writes the screenshots the README shows; otherwise they go to a temporary folder. */
const screenshotDir =
  process.env.DOCS_SCREENSHOTS === 'update'
    ? join(appDir, 'screenshots')
    : mkdtempSync(join(tmpdir(), 'docs-screenshots-'));

let unavailable: string | undefined;
beforeAll(() => {
  unavailable = ensureBuilt({ appDir, buildApp: true, needs: [join(appDir, 'dist/cli.js')] });
  if (unavailable === undefined && siteIsStale()) {
    execFileSync(process.execPath, [join(appDir, 'dist/cli.js'), 'build'], {
      cwd: appDir,
      stdio: 'pipe',
      timeout: 280_000,
    });
  }
}, 300_000);

describe('the built site', () => {
  it('has no broken internal link or anchor', (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const report = checkLinks(distDir);
    expect(report.broken).toEqual([]);
    expect(report.pages).toBeGreaterThan(guidePages().length);
  });

  it('publishes llms.txt linking every page, and llms-full.txt with the included code itself', (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const index = readFileSync(join(distDir, 'llms.txt'), 'utf8');
    expect(index).toMatch(/^# Boomerang\n\n> /);
    for (const page of guidePages()) {
      expect(index).toContain(`](${page.link}.md)`);
      expect(existsSync(join(distDir, `${page.link}.md`))).toBe(true);
    }
    for (const link of index.matchAll(/\]\((\/[^)]+)\)/g))
      expect(existsSync(join(distDir, link[1] as string))).toBe(true);
    const full = readFileSync(BUILT_MARKER, 'utf8');
    expect(full).not.toContain('<<<');
    expect(full).toContain('const notes: string[] = [];');
  });
});

describe('the site in chromium', () => {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    if (unavailable !== undefined || !existsSync(CHROMIUM)) return;
    const { chromium } = await import('playwright-core');
    server = await serveStatic(distDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (error) => errors.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Skips (locally) or fails (in CI) when the browser cannot run. */
  function needsBrowser(ctx: { skip: (note: string) => void }): boolean {
    if (unavailable !== undefined) {
      ctx.skip(unavailable);
      return false;
    }
    if (!existsSync(CHROMIUM)) {
      if (process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
      ctx.skip(`${CHROMIUM} is missing: apt-get install chromium to run the browser test`);
      return false;
    }
    return true;
  }

  it('opens the landing page and screenshots it', async (ctx) => {
    if (!needsBrowser(ctx)) return;
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.locator('.VPHero .name').textContent()).toContain('Boomerang');
    mkdirSync(screenshotDir, { recursive: true });
    const shot = await page.screenshot({ path: join(screenshotDir, 'landing.png') });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
  });

  it('walks the sidebar: every entry opens its page, then screenshots the first guide', async (ctx) => {
    if (!needsBrowser(ctx)) return;
    await page.goto(`${server.url}/concepts/mrtr.html`);
    for (const entry of guidePages()) {
      await page.locator('.VPSidebar').getByRole('link', { name: entry.text, exact: true }).click();
      await page.waitForURL(`**${entry.link}.html`);
      await expect.poll(() => page.locator('.vp-doc h1').first().textContent()).toBeTruthy();
    }
    await page.locator('.VPSidebar').getByRole('link', { name: 'Your first server in 5 minutes' }).click();
    await page.waitForURL('**/guides/first-server.html');
    const shot = await page.screenshot({ path: join(screenshotDir, 'guide.png') });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
  });

  it('finds a page through the search box and opens it', async (ctx) => {
    if (!needsBrowser(ctx)) return;
    await page.goto(`${server.url}/`);
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('.VPLocalSearchBox input').fill('elicitResult');
    const first = page.locator('.VPLocalSearchBox a.result').first();
    await first.waitFor();
    const target = new URL((await first.getAttribute('href')) ?? '', server.url);
    expect(target.pathname).not.toBe('/');
    await first.click();
    await page.waitForURL((url) => url.pathname === target.pathname);
    await expect.poll(() => page.locator('.vp-doc').textContent()).toMatch(/elicitresult/i);
  });

  it('ran without a script error on any page', (ctx) => {
    if (!needsBrowser(ctx)) return;
    expect(errors).toEqual([]);
  });
});
