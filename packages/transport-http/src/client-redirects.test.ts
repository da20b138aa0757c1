import { Client } from '@boomerang/client';
import { isTransportFailure, type JSONRPCRequest, McpError } from '@boomerang/protocol';
import type { FetchLike } from '@boomerang/protocol/transport';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler } from './handler.js';
import { listen } from './node.js';
import { makeServer, rpc, tools } from './test-support/fixture.js';

// Redirects on the client transport's POSTs: a 307/308 re-sends the body, so only the endpoint's own origin may
// receive it again, and only when the policy allows.

/** A fetch that answers redirects from `routes` (by URL), serves the real handler elsewhere, and logs every call. */
function redirecting(routes: Record<string, Response | (() => Response)>) {
  const handler = createHttpHandler(makeServer(), { tools });
  const calls: { url: string; method: string; redirect: RequestRedirect | undefined; body: string }[] = [];
  const fetch: FetchLike = async (input, init) => {
    calls.push({
      url: input.href,
      method: init.method ?? 'GET',
      redirect: init.redirect,
      body: typeof init.body === 'string' ? init.body : '',
    });
    const route = routes[input.href];
    if (route !== undefined) return typeof route === 'function' ? route() : route.clone();
    return handler(new Request(input, init));
  };
  return { fetch, calls };
}

const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });

const call = rpc(
  'tools/call',
  { name: 'echo', arguments: { text: 'secret argument' } },
  'c',
) as JSONRPCRequest;

describe('StreamableHttpClientTransport: redirects', () => {
  it('follows a 307 or 308 to the same origin, re-sending the same body, and tells fetch not to follow', async () => {
    for (const status of [307, 308]) {
      const { fetch, calls } = redirecting({
        'http://127.0.0.1:3000/old': redirect(status, '/mcp'),
      });
      const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/old', { fetch });
      const answer = await transport.request(call);
      expect(answer).toMatchObject({ id: 'c', result: { content: [{ text: 'secret argument' }] } });
      expect(calls.map((c) => [c.url, c.method, c.redirect])).toEqual([
        ['http://127.0.0.1:3000/old', 'POST', 'manual'],
        ['http://127.0.0.1:3000/mcp', 'POST', 'manual'],
      ]);
      expect(calls[1]?.body).toBe(calls[0]?.body);
      await transport.close();
    }
  });

  it('refuses a redirect to another origin: nothing reaches it, and the failure says where and why', async () => {
    for (const status of [307, 308, 302]) {
      const { fetch, calls } = redirecting({
        'http://127.0.0.1:3000/mcp': redirect(status, 'https://elsewhere.example/collect?x=1'),
      });
      const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch });
      const answer = (await transport.request(call)) as {
        error: { code: number; message: string; data: unknown };
      };
      expect(answer).toMatchObject({ error: { code: -32603, data: { transportFailure: true, status } } });
      expect(answer.error.message).toMatch(
        new RegExp(
          `^HTTP transport: http://127.0.0.1:3000/mcp redirected the POST to https://elsewhere.example/collect \\(HTTP ${status}\\), not followed: another origin than http://127.0.0.1:3000 would receive the request`,
        ),
      );
      expect(calls.map((c) => c.url)).toEqual(['http://127.0.0.1:3000/mcp']);
      await transport.close();
    }
  });

  it('refuses a same-origin redirect that would turn the POST into a GET, a loop, and a missing Location', async () => {
    const cases: [Record<string, Response>, RegExp][] = [
      [{ 'http://127.0.0.1:3000/mcp': redirect(303, '/other') }, /a 303 would turn the POST into a GET/],
      [
        {
          'http://127.0.0.1:3000/mcp': redirect(307, '/a'),
          'http://127.0.0.1:3000/a': redirect(307, '/mcp'),
        },
        /more than 5 redirects/,
      ],
      [{ 'http://127.0.0.1:3000/mcp': new Response(null, { status: 308 }) }, /names no valid Location/],
    ];
    for (const [routes, why] of cases) {
      const { fetch, calls } = redirecting(routes);
      const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch });
      const answer = (await transport.request(call)) as { error: { message: string } };
      expect(answer.error.message).toMatch(why);
      expect(calls.length).toBeLessThanOrEqual(6);
      await transport.close();
    }
  });

  it("with redirect: 'error', refuses a same-origin redirect too", async () => {
    const { fetch, calls } = redirecting({ 'http://127.0.0.1:3000/old': redirect(308, '/mcp') });
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/old', {
      fetch,
      redirect: 'error',
    });
    const answer = (await transport.request(call)) as { error: { message: string } };
    expect(answer.error.message).toMatch(/not followed: the transport's redirect option is "error"/);
    expect(calls).toHaveLength(1);
    await transport.close();
  });

  it('refuses a redirect a browser keeps opaque (it cannot tell where it points)', async () => {
    const opaque = Object.defineProperty(new Response(null, { status: 200 }), 'type', {
      value: 'opaqueredirect',
    });
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
      fetch: async () => opaque,
    });
    const answer = (await transport.request(call)) as { error: { message: string } };
    expect(answer.error.message).toMatch(/the runtime hides where it points/);
    await transport.close();
  });

  it('refuses a cross-origin redirect on a notification POST too (send rejects)', async () => {
    const { fetch, calls } = redirecting({
      'http://127.0.0.1:3000/mcp': redirect(307, 'http://127.0.0.1:4000/mcp'),
    });
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch });
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/x' })).rejects.toThrow(
      /redirected the POST to http:\/\/127\.0\.0\.1:4000\/mcp \(HTTP 307\), not followed: another origin/,
    );
    expect(calls).toHaveLength(1);
    await transport.close();
  });
});

describe('redirects on 127.0.0.1 (global fetch)', () => {
  const endpoints: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
  });

  it('a Client follows a same-origin 308 and refuses a 307 to another port, which never sees a request', async () => {
    let foreignRequests = 0;
    const foreign = await listen(createHttpHandler(makeServer(), { tools }), {
      routes: {
        '/steal': () => {
          foreignRequests++;
          return new Response('{}', { headers: { 'content-type': 'application/json' } });
        },
      },
    });
    endpoints.push(foreign);
    const stealUrl = new URL('/steal', foreign.url).href;
    const home = await listen(createHttpHandler(makeServer(), { tools }), {
      routes: {
        '/moved': (request) => redirect(308, new URL('/mcp', request.url).href),
        '/hijacked': () => redirect(307, stealUrl),
      },
    });
    endpoints.push(home);

    const moved = new Client({ name: 'host', version: '1.0.0' });
    await moved.connect(new StreamableHttpClientTransport(new URL('/moved', home.url)));
    const echoed = await moved.callTool('echo', { text: 'over the redirect' });
    expect(echoed.content).toEqual([{ type: 'text', text: 'over the redirect' }]);
    await moved.close();

    const hijacked = new Client({ name: 'host', version: '1.0.0' }, { protocol: '2026-07-28' });
    await hijacked.connect(new StreamableHttpClientTransport(new URL('/hijacked', home.url)));
    const failure = await hijacked.callTool('echo', { text: 'secret' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(isTransportFailure(failure)).toBe(true);
    expect((failure as McpError).message).toMatch(
      /redirected the POST to http:\/\/127\.0\.0\.1:\d+\/steal \(HTTP 307\), not followed: another origin/,
    );
    expect(foreignRequests).toBe(0);
    await hijacked.close();
  });
});
