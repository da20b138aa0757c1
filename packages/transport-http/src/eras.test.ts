// The era seam, proven by counting: with V8's precise coverage on (call counts per function), 2026-07-28 traffic
// through the endpoint and the client transport runs not one function of legacy/, the 2025-11-25 era, while a
// 2025-11-25 `initialize` does run it (so the count sees that folder). Also the seam itself, with a spy era.
import { Session } from 'node:inspector/promises';
import { Client } from '@boomerang/client';
import type { FetchLike } from '@boomerang/protocol/transport';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createEndpoint } from './endpoint.js';
import { webExchange } from './exchange.js';
import { createHttpHandler } from './handler.js';
import type { EndpointEra } from './inbound.js';
import { toResponse } from './replies.js';
import { bodyOf, eventsOf, makeServer, meta, post, rpc, tools } from './test-support/fixture.js';

const LEGACY = '/transport-http/src/legacy/';

/** The inspector session counting calls, for the whole file. */
const session = new Session();

beforeAll(async () => {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});

afterAll(async () => {
  await session.post('Profiler.stopPreciseCoverage');
  await session.post('Profiler.disable');
  session.disconnect();
});

/**
 * The functions of legacy/ (test support aside) called since the last count, with their call counts; taking
 * the coverage resets the counters.
 */
async function legacyCalls(): Promise<string[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const calls: string[] = [];
  for (const script of result) {
    if (!script.url.includes(LEGACY) || script.url.includes(`${LEGACY}test-support/`)) continue;
    const file = script.url.slice(script.url.indexOf(LEGACY) + LEGACY.length);
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      if (count > 0) calls.push(`${file} ${fn.functionName || '(anonymous)'} ×${count}`);
    }
  }
  return calls;
}

const initialize = {
  jsonrpc: '2.0' as const,
  id: 'init',
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'legacy-host', version: '1.0.0' },
  },
};

describe('a 2026-07-28 exchange runs no 2025-11-25 code (counted with V8 precise coverage)', () => {
  it('on the endpoint: JSON and SSE answers, notifications, header checks, refusals, a stray session id', async () => {
    const handler = createHttpHandler(makeServer(), { tools, onError: () => {} });
    await legacyCalls(); // building the handler checks the era's settings: not counted

    const listed = await handler(post(rpc('tools/list')));
    expect((await bodyOf(listed)).result.tools).toHaveLength(tools.length);
    const call = rpc('tools/call', { name: 'echo', arguments: { text: 'hi', region: 'eu' } });
    const echoed = await handler(post(call, { 'mcp-name': 'echo', 'mcp-param-region': 'eu' }));
    expect((await bodyOf(echoed)).result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const tracked = rpc('tools/call', { name: 'progress', _meta: meta({ progressToken: 'p' }) });
    const progress = await handler(post(tracked, { 'mcp-name': 'progress' }));
    expect(progress.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await eventsOf(progress)).at(-1)).toMatchObject({ result: { content: [{ text: 'done' }] } });
    const mismatch = await handler(post(call, { 'mcp-name': 'echo', 'mcp-param-region': 'us' }));
    expect((await bodyOf(mismatch)).error.code).toBe(-32020);
    const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: meta() } };
    expect((await handler(post(notification))).status).toBe(202);
    const stray = await handler(post(rpc('tools/list'), { 'mcp-session-id': 'not-a-session' }));
    expect(stray.status).toBe(200);
    const get = await handler(new Request('http://127.0.0.1:3000/mcp', { method: 'GET' }));
    expect(get.status).toBe(405);
    expect((await handler(post('{"not json'))).status).toBe(400);

    expect(await legacyCalls()).toEqual([]);

    // The control: a 2025-11-25 initialize does run legacy/, and the count sees it.
    const opened = await handler(
      post(initialize, { 'mcp-protocol-version': null, 'mcp-method': 'initialize' }),
    );
    expect(opened.headers.get('mcp-session-id')).not.toBeNull();
    expect(await legacyCalls()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^sessions\.ts /),
        expect.stringMatching(/^session\.ts /),
      ]),
    );
    await handler.close();
  });

  it('through the client transport and a Client: discover, list, call, progress, two MRTR rounds', async () => {
    const handler = createHttpHandler(makeServer(), { tools, onError: () => {} });
    const fetch: FetchLike = async (input, init) => handler(new Request(input, init));
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch });
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      { elicitation: async () => ({ action: 'accept', content: { color: 'teal' } }) },
    );
    await legacyCalls();

    await client.connect(transport); // protocol 'auto': server/discover answers, so 2026-07-28
    expect(client.protocolVersion).toBe('2026-07-28');
    await client.listTools();
    const onprogress = vi.fn();
    await client.callTool('progress', {}, { onprogress });
    expect(onprogress).toHaveBeenCalledTimes(3);
    expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'color: teal' }]);
    await client.close();

    expect(await legacyCalls()).toEqual([]);
    await handler.close();
  });
});

describe('the endpoint seam', () => {
  /** An era that records what it was handed, and hands everything on. */
  function spyEra() {
    const seen: string[] = [];
    const era: EndpointEra = {
      serve: async (inbound, next) => {
        const received = inbound.received;
        seen.push(
          `${inbound.exchange.method} ${received?.ok === true ? JSON.stringify(received.message) : ''}`,
        );
        return next(inbound);
      },
      close: async () => {},
    };
    return { era, seen };
  }

  it('hands the era only POSTs whose message names no protocol version, and GET/DELETE naming a session', async () => {
    const { era, seen } = spyEra();
    const endpoint = createEndpoint(makeServer(), { tools }, era);
    const fetch = (request: Request) => endpoint(webExchange(request)).then(toResponse);

    expect((await fetch(post(rpc('tools/list')))).status).toBe(200);
    expect((await fetch(post(rpc('tools/list'), { 'mcp-session-id': 'a' }))).status).toBe(200);
    expect((await fetch(new Request('http://127.0.0.1:3000/mcp', { method: 'GET' }))).status).toBe(405);
    expect((await fetch(post('{"not json'))).status).toBe(400);
    expect(seen).toEqual([]);

    const legacyPost = post(initialize, { 'mcp-protocol-version': null });
    await fetch(legacyPost);
    const withSession = { method: 'DELETE', headers: { 'mcp-session-id': 'a' } };
    await fetch(new Request('http://127.0.0.1:3000/mcp', withSession));
    expect(seen).toEqual([`POST ${JSON.stringify(initialize)}`, 'DELETE ']);
    await endpoint.close();
  });
});
