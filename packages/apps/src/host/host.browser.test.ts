// The host in real Chromium (Debian's chromium, driven by playwright-core): a view nobody here wrote (the official
// basic-vanillajs example), an App-answered question with the form fallback, MRTR from a view, and a hostile view
// and server. The host page runs host.examples (the README's `startHost`) besides its own recording host. One
// browser for the file; every server on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserServer, modelOnlyCalls } from '../test-support/browser-server.js';
import {
  bundle,
  CHROMIUM,
  CHROMIUM_MISSING,
  FLAGS,
  type Harness,
  startHarness,
} from '../test-support/harness.js';

const WAIT = 10_000;
const entry = fileURLToPath(new URL('../test-support/host-page.ts', import.meta.url));
/** The attacker page, framed into the host page: it posts what a view would, from a frame that is no view. */
const ATTACK = `window.parent.postMessage({ jsonrpc: '2.0', id: 'x', method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'pwned' }] } }, '*');
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');`;

type Outcome = { ok: boolean; text?: string; code?: number; message?: string; view?: string };
/** `window.harness` of host-page.ts, as the page sees it. */
interface HarnessApi {
  events: { kind: string; detail: unknown }[];
  formAnswers: unknown[];
  formAsked: unknown[];
  connect(endpoint: string, sandbox: string): Promise<void>;
  renderTool(name: string, args?: Record<string, unknown>): Promise<Outcome>;
  render(uri: string): Promise<Outcome>;
  call(name: string, args?: Record<string, unknown>, withoutApps?: boolean): Promise<Outcome>;
  initialized(uri: string): boolean;
  close(uri: string): Promise<void>;
  viewCount(): number;
  sameOriginSandboxRefused(): string;
  example(endpoint: string, sandbox: string): Promise<void>;
  exampleCall(name: string): Promise<Outcome>;
}
declare const harness: HarnessApi;

describe.skipIf(CHROMIUM_MISSING !== undefined)(`the Apps host in chromium ${CHROMIUM_MISSING ?? ''}`, () => {
  let world: Harness;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const script = await bundle(entry);
    world = await startHarness(browserServer, script, ATTACK);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(world.hostUrl.href);
    await page.waitForFunction(() => 'harness' in window, undefined, { timeout: WAIT });
    await page.evaluate(([endpoint, sandbox]) => harness.connect(endpoint, sandbox), [
      world.mcpUrl.href,
      world.sandboxUrl.href,
    ] as const);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const events = (kind: string) =>
    page.evaluate((k) => harness.events.filter((e) => e.kind === k).map((e) => e.detail), kind);

  /** The inner frame of the view whose document has `title`. */
  async function viewFrame(title: string, waitMs = WAIT): Promise<Frame> {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      for (const frame of page.frames()) {
        if (frame.url() !== 'about:srcdoc' || frame.isDetached()) continue;
        if ((await frame.title().catch(() => '')) === title) return frame;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no view titled ${title}`);
  }

  /** Posts `message` from inside a view to its parent (the proxy) and waits for the reply with its id. */
  function rpc(frame: Frame, message: Record<string, unknown>, waitMs = 3_000): Promise<unknown> {
    return frame.evaluate(
      ([message, waitMs]) =>
        new Promise((resolve) => {
          const on = (event: MessageEvent) => {
            if (event.source !== window.parent || event.data?.id !== message.id) return;
            clearTimeout(timer);
            window.removeEventListener('message', on);
            resolve(event.data);
          };
          const timer = setTimeout(() => {
            window.removeEventListener('message', on);
            resolve('no reply');
          }, waitMs);
          window.addEventListener('message', on);
          window.parent.postMessage(message, '*');
        }),
      [message, waitMs] as const,
    );
  }

  const request = (id: string | number, method: string, params: unknown = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });

  it('renders the official basic-vanillajs view, which calls its tool, sends messages and opens links', async () => {
    const shown = await page.evaluate(() => harness.renderTool('get-time'));
    expect(shown).toEqual({ ok: true, text: '2026-01-26T00:00:00.000Z', view: 'ui://get-time/mcp-app.html' });
    const frame = await viewFrame('Get Time App');
    await expect
      .poll(() => frame.textContent('#server-time'), { timeout: WAIT })
      .toBe('2026-01-26T00:00:00.000Z');
    await frame.click('#get-time-btn');
    await expect
      .poll(() => frame.textContent('#server-time'), { timeout: WAIT })
      .toBe('2026-01-26T00:00:01.000Z');
    await frame.fill('#message-text', 'hello from the view');
    await frame.click('#send-message-btn');
    await frame.fill('#link-url', 'https://modelcontextprotocol.io/');
    await frame.click('#open-link-btn');
    await expect
      .poll(() => events('message'), { timeout: WAIT })
      .toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello from the view' }] }]);
    await expect
      .poll(() => events('open-link'), { timeout: WAIT })
      .toEqual(['https://modelcontextprotocol.io/']);
    expect(await events('size')).not.toEqual([]);
    await page.evaluate(() => harness.close('ui://get-time/mcp-app.html'));
  });

  it('lets the picker view answer the question, validating its answer first', async () => {
    const before = await page.evaluate(() => harness.viewCount());
    const pending = page.evaluate(() => harness.call('order_book'));
    const frame = await viewFrame('Book picker');
    await expect
      .poll(() => frame.textContent('#question'), { timeout: WAIT })
      .toBe('Which book shall I order?');
    const wrong = { action: 'accept', content: { isbn: '0000000000' } };
    expect(await rpc(frame, request('bad', 'ui/elicitation-result', wrong))).toMatchObject({
      error: { code: -32602, message: expect.stringMatching(/requested schema/) },
    });
    expect(await rpc(frame, request('odd', 'ui/elicitation-result', { action: 'maybe' }))).toMatchObject({
      error: { code: -32602 },
    });
    await frame.click('button[data-isbn="9780441013593"]');
    expect(await pending).toEqual({ ok: true, text: 'Ordered "Dune"' });
    await expect.poll(() => page.evaluate(() => harness.viewCount()), { timeout: WAIT }).toBe(before);
  });

  it('asks the same question as a form on a host without Apps', async () => {
    await page.evaluate(() => {
      harness.formAsked.length = 0;
      harness.formAnswers.push({ action: 'accept', content: { isbn: '9780553293357' } });
    });
    expect(await page.evaluate(() => harness.call('order_book', {}, true))).toEqual({
      ok: true,
      text: 'Ordered "Foundation"',
    });
    expect(await page.evaluate(() => harness.formAsked)).toEqual([
      expect.objectContaining({
        message: 'Which book shall I order?',
        _meta: { ui: { resourceUri: 'ui://shop/picker' } },
      }),
    ]);
  });

  it('runs the README host example: a declined pick becomes an error result the model reads', async () => {
    await page.evaluate(([endpoint, sandbox]) => harness.example(endpoint, sandbox), [
      world.mcpUrl.href,
      world.sandboxUrl.href,
    ] as const);
    const pending = page.evaluate(() => harness.exampleCall('order_book'));
    const frame = await viewFrame('Book picker');
    await frame.click('text=None of these');
    expect(await pending).toEqual({
      ok: true,
      text: "Resolver for 'choice' could not resolve: elicitation was declined",
    });
  });

  describe('a hostile view', () => {
    let probe: Frame;

    beforeAll(async () => {
      expect(await page.evaluate(() => harness.render('ui://test/probe'))).toEqual({
        ok: true,
        text: 'rendered',
      });
      probe = await viewFrame('probe');
      await page.waitForFunction(() => harness.initialized('ui://test/probe'), undefined, { timeout: WAIT });
    });

    it('calls app tools, with MRTR answered by the host', async () => {
      await page.evaluate(() => harness.formAnswers.push({ action: 'accept', content: { copies: 2 } }));
      expect(
        await rpc(probe, request(1, 'tools/call', { name: 'reserve_copies', arguments: {} })),
      ).toMatchObject({
        id: 1,
        result: { content: [{ type: 'text', text: 'reserved 2' }] },
      });
      expect(await rpc(probe, request(2, 'resources/read', { uri: 'ui://shop/picker' }))).toMatchObject({
        result: { contents: [{ mimeType: 'text/html;profile=mcp-app' }] },
      });
    });

    it('cannot call model-only or unknown tools', async () => {
      for (const name of ['delete_everything', 'no_such_tool']) {
        expect(await rpc(probe, request(`t-${name}`, 'tools/call', { name, arguments: {} }))).toMatchObject({
          error: { code: -32602, message: `Tool '${name}' is not available to this app` },
        });
      }
      expect(modelOnlyCalls).toEqual([]);
    });

    it('gets JSON-RPC errors for bad messages, and the host keeps serving it', async () => {
      const huge = 'x'.repeat(1_100_000);
      expect(await rpc(probe, request('big', 'ping', { huge }))).toMatchObject({ error: { code: -32600 } });
      expect(await rpc(probe, { jsonrpc: '1.0', id: 'v1', method: 'ping' })).toMatchObject({
        error: { code: -32600 },
      });
      expect(await rpc(probe, request('nope', 'tools/delete'))).toMatchObject({ error: { code: -32601 } });
      expect(
        await rpc(probe, request('args', 'tools/call', { name: 'search_books', arguments: [1] })),
      ).toMatchObject({
        error: { code: -32602 },
      });
      expect(await rpc(probe, request('js', 'ui/open-link', { url: 'javascript:alert(1)' }))).toMatchObject({
        error: { code: -32602 },
      });
      expect(await rpc(probe, request('ctx', 'ui/elicitation-result', { action: 'accept' }))).toMatchObject({
        error: { code: -32601 },
      });
      await probe.evaluate(() => {
        window.parent.postMessage('not json-rpc', '*');
        window.parent.postMessage({ jsonrpc: '2.0', id: 'map', method: 'ping', params: new Map() }, '*');
      });
      expect(await rpc(probe, request('alive', 'ping'))).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
      expect(await events('reject')).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/larger than/),
          expect.stringMatching(/not a JSON-RPC message/),
        ]),
      );
    });

    it('has at most 16 requests in flight', async () => {
      const replies = await probe.evaluate(
        () =>
          new Promise<unknown[]>((resolve) => {
            const replies: unknown[] = [];
            window.addEventListener('message', (event) => {
              if (typeof event.data?.id !== 'string' || !event.data.id.startsWith('slow-')) return;
              replies.push(event.data.error?.code ?? event.data.result?.content?.[0]?.text);
              if (replies.length === 20) resolve(replies);
            });
            for (let i = 0; i < 20; i++) {
              const params = { name: 'slow_echo', arguments: {} };
              window.parent.postMessage(
                { jsonrpc: '2.0', id: `slow-${i}`, method: 'tools/call', params },
                '*',
              );
            }
          }),
      );
      expect(replies.filter((r) => r === 'echo')).toHaveLength(16);
      expect(replies.filter((r) => r === -32000)).toHaveLength(4);
    });

    it('cannot reach the host page, the proxy, or storage', async () => {
      const reach = await probe.evaluate(() => {
        const attempts: Record<string, string> = {};
        const attempt = (name: string, run: () => unknown) => {
          try {
            run();
            attempts[name] = 'reached';
          } catch (error) {
            attempts[name] = (error as Error).name;
          }
        };
        attempt('proxy document', () => window.parent.document.body);
        attempt('host document', () => window.top?.document.body);
        attempt('host location', () => window.top?.location.href);
        attempt('storage', () => window.localStorage.length);
        attempt('cookies', () => document.cookie);
        return attempts;
      });
      expect(reach).toEqual({
        'proxy document': 'SecurityError',
        'host document': 'SecurityError',
        'host location': 'SecurityError',
        storage: 'SecurityError',
        cookies: 'SecurityError',
      });
    });

    it('is not heard when it posts to the host page directly, nor can it forge the proxy', async () => {
      const sneaked = await probe.evaluate(
        () =>
          new Promise((resolve) => {
            window.addEventListener('message', (event) => {
              if (event.data?.id === 'sneak') resolve(event.data);
            });
            window.top?.postMessage(
              { jsonrpc: '2.0', id: 'sneak', method: 'ui/message', params: { role: 'user', content: [] } },
              '*',
            );
            setTimeout(() => resolve('no reply'), 500);
          }),
      );
      expect(sneaked).toBe('no reply');
      await probe.evaluate(() =>
        window.parent.postMessage(
          {
            jsonrpc: '2.0',
            method: 'ui/notifications/sandbox-resource-ready',
            params: { html: '<title>forged</title>' },
          },
          '*',
        ),
      );
      expect(await rpc(probe, request('still', 'ping'))).toMatchObject({ result: {} });
      expect(page.frames().filter((f) => f.url() === 'about:srcdoc').length).toBeGreaterThan(0);
      await expect(viewFrame('forged', 500)).rejects.toThrow(/no view titled forged/);
    });

    it('reaches only the origins its CSP declares', async () => {
      const fetchFrom = (frame: Frame, url: string) =>
        frame.evaluate(
          (url) =>
            fetch(url).then(
              (r) => r.text(),
              (e: Error) => e.name,
            ),
          url,
        );
      expect(await fetchFrom(probe, new URL('/ping', world.attackerUrl).href)).toBe('pong');
      expect(await fetchFrom(probe, world.mcpUrl.href)).toBe('TypeError');
      expect(await page.evaluate(() => harness.render('ui://test/probe-strict'))).toMatchObject({ ok: true });
    });

    it('is closed when it navigates away from its document', async () => {
      const before = await page.evaluate(() => harness.viewCount());
      await probe.evaluate((url) => {
        window.location.href = url;
      }, new URL('/ping', world.attackerUrl).href);
      await expect
        .poll(() => events('closed'), { timeout: WAIT })
        .toContain('the view navigated away from its document');
      expect(await page.evaluate(() => harness.viewCount())).toBe(before - 1);
    });
  });

  it('ignores frames that are not views', async () => {
    await page.evaluate((url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      document.body.append(frame);
    }, new URL('/attack.html', world.attackerUrl).href);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const texts = JSON.stringify(await events('message'));
    expect(texts).not.toContain('pwned');
  });

  describe('a malicious server', () => {
    it('cannot widen the CSP, and its early script runs under it', async () => {
      expect(await page.evaluate(() => harness.render('ui://evil/view'))).toMatchObject({ ok: true });
      const evil = await viewFrame('evil');
      const policy = await evil.evaluate(
        () =>
          document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      );
      expect(policy).toMatch(/connect-src 'none'/);
      expect(policy).not.toMatch(/script-src \*|unsafe-eval/);
      expect(
        await evil.evaluate(
          (url) =>
            fetch(url).then(
              () => 'reached',
              (e: Error) => e.name,
            ),
          new URL('/ping', world.attackerUrl).href,
        ),
      ).toBe('TypeError');
    });

    it('does not stop a tool call whose view cannot be read', async () => {
      expect(await page.evaluate(() => harness.renderTool('broken_view'))).toEqual({
        ok: true,
        text: 'still works',
      });
      expect(await events('reject')).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/view ui:\/\/evil\/missing of tool 'broken_view' could not be shown/),
        ]),
      );
    });

    it('cannot have a host render what is not a view', async () => {
      expect(await page.evaluate(() => harness.render('ui://evil/not-html'))).toMatchObject({
        ok: false,
        message: 'ui://evil/not-html is not a text/html;profile=mcp-app resource',
      });
      expect(await page.evaluate(() => harness.render('ui://evil/missing'))).toMatchObject({
        ok: false,
        code: -32602,
      });
    });
  });

  it('refuses a sandbox proxy on the origin of the host page', async () => {
    expect(await page.evaluate(() => harness.sameOriginSandboxRefused())).toBe('TypeError');
  });

  it('raised no error on the host page', () => {
    expect(pageErrors).toEqual([]);
  });
});
