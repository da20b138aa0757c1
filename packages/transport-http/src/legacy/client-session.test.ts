// A Boomerang `Client` speaking 2025-11-25 over HTTP to a dual-era endpoint, in process (the transport's fetch
// calls the handler): the session's headers, the back-channel answered by the same callbacks as MRTR, GET/DELETE,
// and a session the server forgot.
import { Client } from '@boomerang/client';
import type { FetchLike } from '@boomerang/protocol/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from '../client.js';
import { createHttpHandler, type HttpHandler } from '../handler.js';
import { makeLegacyServer } from './test-support/fixture.js';

interface Seen {
  readonly method: string;
  readonly headers: Headers;
  readonly body: string;
  readonly status: number;
}

const open: { client: Client; handler: HttpHandler }[] = [];
afterEach(async () => {
  for (const { client, handler } of open.splice(0)) {
    await client.close();
    await handler.close();
  }
});

async function connect(protocol: 'auto' | '2025-11-25' = '2025-11-25') {
  const legacy = makeLegacyServer();
  const handler = createHttpHandler(legacy.server, { onError: () => {} });
  const seen: Seen[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const body = init.body === undefined ? '' : String(init.body);
    const response = await handler(request);
    seen.push({ method: request.method, headers: request.headers, body, status: response.status });
    return response;
  };
  const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
    fetch,
    onWarning: () => {},
  });
  const elicitation = vi.fn(async () => ({ action: 'accept' as const, content: { name: 'Grace' } }));
  const client = new Client({ name: 'host', version: '1.0.0' }, { elicitation, protocol });
  await client.connect(transport);
  open.push({ client, handler });
  return { client, handler, seen, elicitation, ...legacy };
}

describe('StreamableHttpClientTransport in a 2025-11-25 session', () => {
  it('initializes, then sends the session id and the negotiated version on every POST', async () => {
    const { client, seen } = await connect();
    expect(client.protocolVersion).toBe('2025-11-25');
    const init = seen.find((s) => s.body.includes('"initialize"'));
    const initialized = seen.find((s) => s.body.includes('notifications/initialized'));
    expect(JSON.parse(init?.body ?? '{}').method).toBe('initialize');
    expect(init?.headers.get('mcp-session-id')).toBeNull();
    expect(init?.headers.get('mcp-protocol-version')).toBeNull();
    const session = initialized?.headers.get('mcp-session-id');
    expect(session).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(initialized?.headers.get('mcp-protocol-version')).toBe('2025-11-25');
    expect(initialized?.status).toBe(202);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('ask');
    const last = seen.filter((s) => s.method === 'POST').at(-1);
    expect(last?.headers.get('mcp-session-id')).toBe(session);
    expect(last?.headers.get('mcp-method')).toBeNull(); // 2026-07-28 headers are not part of a session's POSTs
  });

  it('answers the server→client request with the elicitation callback, through a POST of the response', async () => {
    const { client, seen, elicitation } = await connect();
    const result = await client.callTool('ask');
    expect(result.content).toEqual([{ type: 'text', text: 'hello Grace' }]);
    expect(elicitation).toHaveBeenCalledTimes(1);
    const answer = seen.find((s) => s.method === 'POST' && 'result' in JSON.parse(s.body));
    expect(answer?.status).toBe(202);
    expect(JSON.parse(answer?.body ?? '{}').result).toEqual({ action: 'accept', content: { name: 'Grace' } });
  });

  it('opens the GET stream after initialize and ends the session with DELETE on close', async () => {
    const { client, seen } = await connect();
    await vi.waitFor(() => expect(seen.some((s) => s.method === 'GET' && s.status === 200)).toBe(true));
    await client.close();
    const deleted = seen.find((s) => s.method === 'DELETE');
    expect(deleted?.status).toBe(200);
    const initialized = seen.find((s) => s.body.includes('notifications/initialized'));
    expect(deleted?.headers.get('mcp-session-id')).toBe(initialized?.headers.get('mcp-session-id'));
  });

  it('starts a new session when the server forgot the old one (404), and retries the request', async () => {
    const { client, handler, seen } = await connect();
    const first = seen
      .find((s) => s.body.includes('notifications/initialized'))
      ?.headers.get('mcp-session-id');
    await handler.close(); // the server ends every session
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const inits = seen.filter((s) => s.body.includes('"initialize"'));
    expect(inits).toHaveLength(2);
    const last = seen.filter((s) => s.method === 'POST').at(-1);
    expect(last?.headers.get('mcp-session-id')).not.toBe(first);
    expect(seen.some((s) => s.status === 404)).toBe(true);
  });

  it('sends notifications/cancelled when a call is aborted (2025-11-25 cancellation)', async () => {
    const { client, seen, observed } = await connect();
    const controller = new AbortController();
    const call = client.callTool('wait', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(observed.waits).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(observed.waits[0]?.aborted).toBe(true));
    expect(seen.some((s) => s.body.includes('notifications/cancelled'))).toBe(true);
  });

  it('auto: a dual-era endpoint answers server/discover, so the client stays on 2026-07-28', async () => {
    const { client, seen } = await connect('auto');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(seen.some((s) => s.body.includes('"initialize"'))).toBe(false);
  });
});
