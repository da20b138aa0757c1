import { describe, expect, it } from 'vitest';
import { createHttpHandler } from './handler.js';
import { encodeHeaderValue } from './headers.js';
import { bodyOf, makeServer, meta, post, rpc, tools } from './test-support/fixture.js';

// Every refusal: its status, its JSON-RPC code, and the same handler still answering the next request.

const handler = createHttpHandler(makeServer(), {
  tools,
  allowedHosts: ['127.0.0.1:3000', 'localhost'],
  allowedOrigins: ['https://app.example'],
});

async function expectRefusal(request: Request, status: number, code: number, message?: RegExp) {
  const response = await handler(request);
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = await bodyOf(response);
  expect(body.error.code).toBe(code);
  if (message) expect(body.error.message).toMatch(message);
  const next = await handler(post(rpc('tools/list')));
  expect(next.status).toBe(200);
  expect((await bodyOf(next)).result.tools).toBeDefined();
  return { response, body };
}

const echo = (args: Record<string, unknown>, id: number | string = 'e') =>
  rpc('tools/call', { name: 'echo', arguments: args }, id);

describe('createHttpHandler: transport refusals', () => {
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
    it(`${method} → 405 with Allow: POST (Mcp-Session-Id, Last-Event-ID ignored)`, async () => {
      const request = new Request('http://127.0.0.1:3000/mcp', {
        method,
        headers: { 'mcp-session-id': 'abc', 'last-event-id': '7', accept: 'text/event-stream' },
      });
      const { response } = await expectRefusal(request, 405, -32600);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.headers.get('mcp-session-id')).toBeNull();
    });
  }

  it('ignores Mcp-Session-Id on a POST and never echoes one', async () => {
    const response = await handler(post(rpc('tools/list'), { 'mcp-session-id': 'abc' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('403 for a Host outside allowedHosts (DNS rebinding)', async () => {
    const request = new Request('http://evil.example:3000/mcp', post(rpc('tools/list')));
    await expectRefusal(request, 403, -32600, /Host "evil\.example:3000"/);
  });

  it('accepts a bare host name entry on any port', async () => {
    const request = new Request('http://localhost:9999/mcp', post(rpc('tools/list')));
    expect((await handler(request)).status).toBe(200);
  });

  it('403 for an Origin outside allowedOrigins; requests without Origin pass', async () => {
    await expectRefusal(post(rpc('tools/list'), { origin: 'https://evil.example' }), 403, -32600, /Origin/);
    await expectRefusal(post(rpc('tools/list'), { origin: 'null' }), 403, -32600);
    expect((await handler(post(rpc('tools/list'), { origin: 'https://app.example' }))).status).toBe(200);
  });

  it('without allowedOrigins, only same-origin browser requests pass', async () => {
    const open = createHttpHandler(makeServer());
    expect((await open(post(rpc('tools/list'), { origin: 'http://127.0.0.1:3000' }))).status).toBe(200);
    expect((await open(post(rpc('tools/list'), { origin: 'http://attacker.example' }))).status).toBe(403);
  });

  it('415 unless Content-Type is application/json (parameters allowed)', async () => {
    await expectRefusal(post(rpc('tools/list'), { 'content-type': 'text/plain' }), 415, -32600);
    await expectRefusal(post(rpc('tools/list'), { 'content-type': null }), 415, -32600);
    const charset = post(rpc('tools/list'), { 'content-type': 'Application/JSON; charset=utf-8' });
    expect((await handler(charset)).status).toBe(200);
  });

  it('406 unless Accept allows both application/json and text/event-stream', async () => {
    await expectRefusal(post(rpc('tools/list'), { accept: 'application/json' }), 406, -32600);
    await expectRefusal(post(rpc('tools/list'), { accept: 'text/event-stream' }), 406, -32600);
    await expectRefusal(post(rpc('tools/list'), { accept: null }), 406, -32600);
    await expectRefusal(
      post(rpc('tools/list'), { accept: 'application/json, text/event-stream;q=0' }),
      406,
      -32600,
    );
    expect((await handler(post(rpc('tools/list'), { accept: '*/*' }))).status).toBe(200);
  });

  it('400 -32700 for a body that is not JSON, or not UTF-8', async () => {
    await expectRefusal(post('{"jsonrpc": "2.0", "id": 1,'), 400, -32700);
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    await expectRefusal(new Request(post(rpc('tools/list')), { body: bytes }), 400, -32700);
  });

  it('400 -32600 for a batch, a response, or a non-object body', async () => {
    await expectRefusal(post(JSON.stringify([rpc('tools/list')])), 400, -32600, /batch/);
    await expectRefusal(post(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })), 400, -32600);
    await expectRefusal(post('42'), 400, -32600);
    await expectRefusal(post(''), 400, -32700);
  });
});

describe('createHttpHandler: header validation (-32020, 400)', () => {
  it('requires MCP-Protocol-Version and checks it against _meta', async () => {
    await expectRefusal(
      post(rpc('tools/list'), { 'mcp-protocol-version': null }),
      400,
      -32020,
      /missing MCP-Protocol-Version/,
    );
    const { body } = await expectRefusal(
      post(rpc('tools/list', {}, 9), { 'mcp-protocol-version': '2025-11-25' }),
      400,
      -32020,
      /MCP-Protocol-Version/,
    );
    expect(body.id).toBe(9);
  });

  it('requires Mcp-Method and checks it (values are case-sensitive)', async () => {
    await expectRefusal(post(rpc('tools/list'), { 'mcp-method': null }), 400, -32020, /missing Mcp-Method/);
    await expectRefusal(post(rpc('tools/list'), { 'mcp-method': 'Tools/List' }), 400, -32020);
  });

  it('requires Mcp-Name on tools/call, prompts/get and resources/read', async () => {
    await expectRefusal(post(echo({ text: 'a' }), { 'mcp-name': null }), 400, -32020, /missing Mcp-Name/);
    await expectRefusal(post(echo({ text: 'a' }), { 'mcp-name': 'other' }), 400, -32020, /"other"/);
    const read = rpc('resources/read', { uri: 'file:///a' });
    await expectRefusal(post(read, { 'mcp-name': 'file:///b' }), 400, -32020);
    const prompt = rpc('prompts/get', { name: 'p' });
    await expectRefusal(post(prompt, { 'mcp-name': null }), 400, -32020);
  });

  it('decodes a Base64-sentinel Mcp-Name, and refuses an invalid one', async () => {
    const call = rpc('tools/call', { name: 'echo', arguments: {} });
    const encoded = post(call, { 'mcp-name': `=?base64?${btoa('echo')}?=` });
    expect((await handler(encoded)).status).toBe(200);
    await expectRefusal(post(call, { 'mcp-name': '=?base64?!!!?=' }), 400, -32020, /invalid Mcp-Name/);
  });

  it('requires a declared Mcp-Param-* header when the argument has a value', async () => {
    await expectRefusal(post(echo({ region: 'us-west1' })), 400, -32020, /missing Mcp-Param-Region/);
    const ok = await handler(post(echo({ region: 'us-west1' }), { 'mcp-param-region': 'us-west1' }));
    expect(ok.status).toBe(200);
  });

  it('checks Mcp-Param-* values (decoded) against the body, nested ones included', async () => {
    await expectRefusal(post(echo({ region: 'eu' }), { 'mcp-param-region': 'us' }), 400, -32020, /Region/);
    const unicode = post(echo({ region: 'Hello, 世界' }), {
      'mcp-param-region': encodeHeaderValue('Hello, 世界'),
    });
    expect((await handler(unicode)).status).toBe(200);
    const nested = echo({ options: { count: 42 } });
    expect((await handler(post(nested, { 'mcp-param-count': '42.0' }))).status).toBe(200);
    await expectRefusal(post(nested, { 'mcp-param-count': '43' }), 400, -32020);
    await expectRefusal(post(nested, { 'mcp-param-count': '0x2A' }), 400, -32020);
    await expectRefusal(post(nested), 400, -32020, /Mcp-Param-Count/);
  });

  it('refuses a Mcp-Param-* header whose argument is null or absent, and invalid characters', async () => {
    await expectRefusal(post(echo({ region: null }), { 'mcp-param-region': 'x' }), 400, -32020);
    await expectRefusal(post(echo({}), { 'mcp-param-region': 'x' }), 400, -32020);
    expect((await handler(post(echo({ region: null })))).status).toBe(200);
    const latin1 = new Request(post(echo({ region: 'é' })), {
      headers: (() => {
        const h = post(echo({ region: 'é' })).headers;
        h.set('mcp-param-region', 'é');
        return h;
      })(),
    });
    await expectRefusal(latin1, 400, -32020, /invalid Mcp-Param-Region/);
  });

  it('validates notification headers only when present (no required headers)', async () => {
    const note = { jsonrpc: '2.0' as const, method: 'notifications/initialized', params: { _meta: meta() } };
    const bare = post(note, { 'mcp-protocol-version': null, 'mcp-method': null });
    expect((await handler(bare)).status).toBe(202);
    const response = await handler(post(note, { 'mcp-method': 'other' }));
    expect(response.status).toBe(400);
    expect(await bodyOf(response)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32020, message: expect.stringMatching(/Mcp-Method/) },
    });
  });

  it('looks tools up through a function source, and skips unknown tools', async () => {
    const lookup = createHttpHandler(makeServer(), {
      tools: async (name) => tools.find((t) => t.name === name),
    });
    expect((await lookup(post(echo({ region: 'x' })))).status).toBe(400);
    const unknown = rpc('tools/call', { name: 'nope', arguments: { region: 'x' } });
    const response = await lookup(post(unknown)); // reaches the server, which does not know the tool
    expect([response.status, (await bodyOf(response)).error.code]).toEqual([200, -32603]);
  });

  it('answers 500 -32603 when the tools lookup throws, and reports it to onError', async () => {
    const errors: unknown[] = [];
    const failing = createHttpHandler(makeServer(), {
      tools: () => {
        throw new Error('registry down');
      },
      onError: (error) => errors.push(error),
    });
    const response = await failing(post(echo({ text: 'a' }, 'z')));
    expect(response.status).toBe(500);
    expect(await bodyOf(response)).toEqual({
      jsonrpc: '2.0',
      id: 'z',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(errors).toEqual([new Error('registry down')]);
    expect((await failing(post(rpc('tools/list')))).status).toBe(200);
  });

  it('answers 500 -32603 when an async tools lookup rejects, and reports it to onError', async () => {
    const errors: unknown[] = [];
    const failing = createHttpHandler(makeServer(), {
      tools: async () => {
        throw new Error('registry down');
      },
      onError: (error) => errors.push(error),
    });
    const response = await failing(post(echo({ text: 'a' }, 'z')));
    expect([response.status, (await bodyOf(response)).error]).toEqual([
      500,
      { code: -32603, message: 'Internal error' },
    ]);
    expect(errors).toEqual([new Error('registry down')]);
  });

  it('answers 500 -32603 when authenticate throws', async () => {
    const failing = createHttpHandler(makeServer(), {
      authenticate: () => {
        throw new Error('idp down');
      },
      onError: () => {},
    });
    const response = await failing(post(rpc('tools/list')));
    expect([response.status, (await bodyOf(response)).error.code]).toEqual([500, -32603]);
  });
});
