import { afterEach, describe, expect, it } from 'vitest';
import { type Listening, listen } from './node.js';
import { isResponse, json, refuse } from './replies.js';
import { headersFor, makeServer, rpc } from './test-support/fixture.js';
import { raw } from './test-support/raw-http.js';

// The `Response` global is lazy in node: its first read loads the fetch implementation (about 6 MB). A server that
// answers plain JSON replies must not read it. These tests count its reads.

const original = Object.getOwnPropertyDescriptor(globalThis, 'Response') as PropertyDescriptor;
const WebResponse = globalThis.Response;
let reads = 0;

/** Counts reads of `globalThis.Response` until the test ends. */
function countResponseReads(): void {
  reads = 0;
  Object.defineProperty(globalThis, 'Response', {
    configurable: true,
    get() {
      reads++;
      return WebResponse;
    },
  });
}

const running: Listening[] = [];
afterEach(async () => {
  Object.defineProperty(globalThis, 'Response', original);
  await Promise.all(running.splice(0).map((server) => server.close()));
});

describe('isResponse', () => {
  it('tells a plain reply from a Response, reading the Response global only for the latter', () => {
    const response = new WebResponse('x');
    countResponseReads();
    expect(isResponse(json(200, { ok: true }))).toBe(false);
    expect(isResponse(refuse(400, 'no'))).toBe(false);
    expect(reads).toBe(0);
    expect(isResponse(response)).toBe(true);
  });
});

describe('listen() answering plain replies', () => {
  it('never reads the Response global: a request, a refusal and a 404', async () => {
    const server = await listen(makeServer());
    running.push(server);
    const list = rpc('tools/list');
    const headers = Object.fromEntries(headersFor(list));
    countResponseReads();
    const ok = await raw(server.url, { headers, body: JSON.stringify(list) });
    const refused = await raw(server.url, {
      headers: { ...headers, 'content-type': 'text/plain' },
      body: '{}',
    });
    const missing = await raw(server.url, { path: '/other', headers, body: '{}' });
    expect([ok.status, refused.status, missing.status]).toEqual([200, 415, 404]);
    expect(reads).toBe(0);
  });
});

describe('a rate-limited request', () => {
  it('is 429 with Retry-After (whole seconds, rounded up), through the web handler and listen()', async () => {
    const { rateLimit } = await import('@boomerang/server');
    const { createHttpHandler } = await import('./handler.js');
    const server = makeServer().use(rateLimit({ requests: 1, perMs: 90_000 }));
    const handler = createHttpHandler(server);
    const post = (message: ReturnType<typeof rpc>) =>
      handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: headersFor(message),
          body: JSON.stringify(message),
        }),
      );
    expect((await post(rpc('tools/list'))).status).toBe(200);
    const refused = await post(rpc('tools/list'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('90');
    const body = (await refused.json()) as { error: { code: number; data: { retryAfterMs: number } } };
    expect(body.error.code).toBe(-32029);
    expect(body.error.data.retryAfterMs).toBeGreaterThan(89_000);

    const node = makeServer().use(rateLimit({ requests: 1, perMs: 1_500 }));
    const endpoint = await listen(node, { port: 0 });
    running.push(endpoint);
    const send = async () => {
      const message = rpc('tools/list');
      return fetch(endpoint.url, {
        method: 'POST',
        headers: headersFor(message),
        body: JSON.stringify(message),
      });
    };
    expect((await send()).status).toBe(200);
    const second = await send();
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('says an absurd or huge wait as at most a day, always a whole number of seconds', async () => {
    const { headersOf } = await import('./replies.js');
    const refusal = (retryAfterMs: unknown) =>
      headersOf({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32029, message: 'limited', data: { retryAfterMs } },
      });
    expect(refusal(1e300)).toEqual({ 'retry-after': '86400' });
    expect(refusal(Number.MAX_SAFE_INTEGER)).toEqual({ 'retry-after': '86400' });
    expect(refusal(0.5)).toEqual({ 'retry-after': '1' });
    expect(refusal(Number.NaN)).toEqual({});
    expect(refusal(-5)).toEqual({});
    expect(refusal('9')).toEqual({});
  });
});
