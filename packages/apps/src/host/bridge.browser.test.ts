// The other interop direction, in real Chromium: a view a Boomerang server serves, rendered by the official
// `AppBridge` (@modelcontextprotocol/ext-apps 2.0.4, constructed with a null client) whose handlers forward to a
// Boomerang client: the handshake, app-tool calls (MRTR included) and size changes all cross it.
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserServer } from '../test-support/browser-server.js';
import {
  bundle,
  CHROMIUM,
  CHROMIUM_MISSING,
  FLAGS,
  type Harness,
  startHarness,
} from '../test-support/harness.js';

const WAIT = 10_000;
const entry = fileURLToPath(new URL('../test-support/bridge-page.ts', import.meta.url));

interface BridgeApi {
  events: { kind: string; detail: unknown }[];
  formAnswers: unknown[];
  open(endpoint: string, uri: string): Promise<void>;
}
declare const bridgeHarness: BridgeApi;

describe.skipIf(CHROMIUM_MISSING !== undefined)(
  `a Boomerang view in the official AppBridge ${CHROMIUM_MISSING ?? ''}`,
  () => {
    let world: Harness;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      world = await startHarness(browserServer, await bundle(entry));
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
      page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(world.hostUrl.href);
      await page.waitForFunction(() => 'bridgeHarness' in window, undefined, { timeout: WAIT });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await world?.close();
    });

    const kinds = () => page.evaluate(() => bridgeHarness.events.map((e) => e.kind));

    async function srcdocFrame(title: string): Promise<Frame> {
      const deadline = Date.now() + WAIT;
      while (Date.now() < deadline) {
        for (const frame of page.frames()) {
          if (frame.url() === 'about:srcdoc' && (await frame.title().catch(() => '')) === title) return frame;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no frame titled ${title}`);
    }

    it('initializes the picker, which lists books through an app tool the bridge forwards', async () => {
      await page.evaluate((endpoint) => bridgeHarness.open(endpoint, 'ui://shop/picker'), world.mcpUrl.href);
      await expect
        .poll(kinds, { timeout: WAIT })
        .toEqual(expect.arrayContaining(['mime', 'initialized', 'size']));
      expect(await page.evaluate(() => bridgeHarness.events[0])).toEqual({
        kind: 'mime',
        detail: 'text/html;profile=mcp-app',
      });
      const picker = await srcdocFrame('Book picker');
      await expect
        .poll(() => picker.locator('button[data-isbn]').allTextContents(), { timeout: WAIT })
        .toEqual(['Dune', 'Foundation']);
    });

    it('carries a tool call that asks (MRTR) through the bridge to the Boomerang client', async () => {
      await page.evaluate(() => bridgeHarness.formAnswers.push({ action: 'accept', content: { copies: 3 } }));
      await page.evaluate((endpoint) => bridgeHarness.open(endpoint, 'ui://test/probe'), world.mcpUrl.href);
      const probe = await srcdocFrame('probe');
      const reply = await probe.evaluate(
        () =>
          new Promise((resolve) => {
            window.addEventListener('message', (event) => {
              if (event.data?.id === 'mrtr') resolve(event.data);
            });
            const send = () =>
              window.parent.postMessage(
                {
                  jsonrpc: '2.0',
                  id: 'mrtr',
                  method: 'tools/call',
                  params: { name: 'reserve_copies', arguments: {} },
                },
                '*',
              );
            // After the bridge answered ui/initialize (the probe records every message from its parent).
            const wait = () =>
              (window as { received?: unknown[] }).received?.length ? send() : setTimeout(wait, 20);
            wait();
          }),
      );
      expect(reply).toMatchObject({ result: { content: [{ type: 'text', text: 'reserved 3' }] } });
      expect(pageErrors).toEqual([]);
    });
  },
);
