import { ErrorCode, McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import { errorOf, meta, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { ServerOptions } from './types.js';

const info = { name: 'test-server', version: '1.2.3' };
const tool = { name: 'echo', inputSchema: { type: 'object' as const } };

function makeServer(options: ServerOptions = {}) {
  const logger = recordingLogger();
  const server = new Server(info, {
    logger,
    onListTools: () => ({ tools: [tool] }),
    onCallTool: ({ arguments: args }) => ({ content: [{ type: 'text', text: JSON.stringify(args ?? {}) }] }),
    ...options,
  });
  return { server, logger };
}

describe('new Server()', () => {
  it('rejects an invalid info', () => {
    expect(() => new Server({ name: 'x' } as never)).toThrow(TypeError);
    expect(() => new Server(null as never)).toThrow(TypeError);
  });

  it('rejects unknown options and handlers of the wrong type', () => {
    expect(() => new Server(info, { onCallTools: () => ({}) } as never)).toThrow(
      'unknown option "onCallTools"',
    );
    expect(() => new Server(info, { onCallTool: 'nope' } as never)).toThrow(
      '"onCallTool" expected a function',
    );
    expect(() => new Server(info, { instructions: 1 } as never)).toThrow(TypeError);
    expect(() => new Server(info, { capabilities: [] } as never)).toThrow(TypeError);
    expect(() => new Server(info, { requestState: {} } as never)).toThrow(
      '"requestState" expected { seal, open }',
    );
    expect(() => new Server(info, { logger: 'console' } as never)).toThrow(TypeError);
  });

  it('checks the cache defaults once, at construction', () => {
    expect(() => new Server(info, { cache: { ttlMs: -1 } })).toThrow(RangeError);
    expect(() => new Server(info, { cache: { ttlMs: 1.5 } })).toThrow(RangeError);
    expect(() => new Server(info, { cache: { cacheScope: 'shared' as never } })).toThrow(TypeError);
    expect(() => new Server(info, { cache: { methods: { 'tools/call': {} } as never } })).toThrow(
      '"cache.methods" has "tools/call", which is not a cacheable method',
    );
  });
});

describe('handle(): envelopes', () => {
  it('answers text that is not JSON with -32700', async () => {
    const { server } = makeServer();
    expect(errorOf(await server.handle('{"jsonrpc":')).code).toBe(ErrorCode.ParseError);
  });

  it('answers a value that is not a JSON-RPC message with -32600, echoing a readable id', async () => {
    const { server } = makeServer();
    const response = await server.handle({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    expect(errorOf(response).code).toBe(ErrorCode.InvalidRequest);
    expect(response).toMatchObject({ id: 7 });
  });

  it('returns undefined for notifications and for responses', async () => {
    const { server } = makeServer();
    expect(
      await server.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    ).toBe(undefined);
    expect(await server.handle({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } })).toBe(
      undefined,
    );
  });

  it('accepts JSON text and UTF-8 bytes as well as parsed values', async () => {
    const { server } = makeServer();
    const text = JSON.stringify(request('tools/list', {}, { id: 'text' }));
    expect(resultOf(await server.handle(text)).tools).toEqual([tool]);
    expect(resultOf(await server.handle(new TextEncoder().encode(text))).tools).toEqual([tool]);
  });
});

describe('handle(): routing', () => {
  it('answers an unknown method with -32601', async () => {
    const { server } = makeServer();
    const error = errorOf(await server.handle(request('tools/destroy')));
    expect(error).toEqual({ code: ErrorCode.MethodNotFound, message: 'Method not found: tools/destroy' });
  });

  it('answers a method whose handler was not given with -32601 (its capability is not advertised)', async () => {
    const { server } = makeServer();
    expect(errorOf(await server.handle(request('prompts/list'))).code).toBe(ErrorCode.MethodNotFound);
    expect(errorOf(await server.handle(request('completion/complete'))).code).toBe(ErrorCode.MethodNotFound);
    expect(errorOf(await server.handle(request('subscriptions/listen'))).code).toBe(ErrorCode.MethodNotFound);
  });

  it('does not route prototype members as methods', async () => {
    const { server } = makeServer();
    expect(errorOf(await server.handle(request('constructor'))).code).toBe(ErrorCode.MethodNotFound);
    expect(errorOf(await server.handle(request('__proto__'))).code).toBe(ErrorCode.MethodNotFound);
  });

  it('answers a legacy initialize with -32022 naming the supported versions', async () => {
    const { server } = makeServer();
    const error = errorOf(
      await server.handle({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    );
    expect(error.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(error.message).toContain('2026-07-28');
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });
});

describe('handle(): initialize with modern _meta', () => {
  it('is -32601: 2026-07-28 has no initialize method (HTTP 404), and names the supported versions', async () => {
    const { server } = makeServer();
    const error = errorOf(
      await server.handle({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'c', version: '1' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    );
    expect(error.code).toBe(ErrorCode.MethodNotFound);
    expect(error.data).toEqual({ supported: ['2026-07-28'] });
  });
});

describe('handle(): per-request _meta', () => {
  const call = (params: Record<string, unknown> | undefined) => {
    const { server } = makeServer();
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    if (params !== undefined) message.params = params;
    return server.handle(message);
  };

  it('answers a request without params or _meta with -32602', async () => {
    for (const params of [undefined, {}, { _meta: 'x' }]) {
      const error = errorOf(await call(params));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('io.modelcontextprotocol/protocolVersion');
    }
  });

  it('answers a missing or non-string protocol version with -32602', async () => {
    const { 'io.modelcontextprotocol/protocolVersion': _, ...noVersion } = meta();
    for (const _meta of [noVersion, { ...meta(), 'io.modelcontextprotocol/protocolVersion': 20260728 }]) {
      const error = errorOf(await call({ _meta }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('"io.modelcontextprotocol/protocolVersion"');
    }
  });

  it('answers missing client capabilities with -32602', async () => {
    const { 'io.modelcontextprotocol/clientCapabilities': _, ...noCaps } = meta();
    for (const _meta of [noCaps, { ...meta(), 'io.modelcontextprotocol/clientCapabilities': null }]) {
      const error = errorOf(await call({ _meta }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('"io.modelcontextprotocol/clientCapabilities"');
    }
  });

  it('answers an unsupported version with -32022 and data.supported / data.requested', async () => {
    const response = await call({
      _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
    });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: McpError.unsupportedProtocolVersion('1900-01-01', ['2026-07-28']).toJSON(),
    });
  });

  it('checks the version before the capabilities (a future revision may change the rest of _meta)', async () => {
    const error = errorOf(await call({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }));
    expect(error.code).toBe(ErrorCode.UnsupportedProtocolVersion);
  });

  it('answers an unknown log level or a malformed clientInfo with -32602', async () => {
    const badLevel = errorOf(
      await call({ _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'verbose' }) }),
    );
    expect(badLevel.code).toBe(ErrorCode.InvalidParams);
    expect(badLevel.message).toContain('logLevel');
    const badInfo = errorOf(
      await call({ _meta: meta({}, { 'io.modelcontextprotocol/clientInfo': { name: 1 } }) }),
    );
    expect(badInfo.code).toBe(ErrorCode.InvalidParams);
    expect(badInfo.message).toContain('clientInfo');
  });

  it('answers malformed method params with -32602 naming the member', async () => {
    const { server } = makeServer();
    const error = errorOf(await server.handle(request('tools/call', { arguments: {} })));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/^Invalid params: params\.name: /);
  });
});

describe('handle(): results', () => {
  it('stamps resultType and serverInfo on every result, keeping the handler _meta', async () => {
    const { server } = makeServer({
      onCallTool: () => ({ content: [], _meta: { 'com.example/trace': 'abc' } }),
    });
    const result = resultOf(await server.handle(request('tools/call', { name: 'echo' })));
    expect(result).toEqual({
      resultType: 'complete',
      content: [],
      _meta: { 'com.example/trace': 'abc', 'io.modelcontextprotocol/serverInfo': info },
    });
  });

  it('echoes string and number ids', async () => {
    const { server } = makeServer();
    expect(await server.handle(request('tools/list', {}, { id: 'a-1' }))).toMatchObject({
      jsonrpc: '2.0',
      id: 'a-1',
    });
    expect(await server.handle(request('tools/list', {}, { id: 0 }))).toMatchObject({ id: 0 });
  });

  it('turns a thrown error into -32603 "Internal error", logs it, and keeps serving', async () => {
    const { server, logger } = makeServer({
      onCallTool: () => {
        throw new Error('database password is hunter2');
      },
    });
    const response = await server.handle(request('tools/call', { name: 'echo' }, { id: 9 }));
    expect(response).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error' } });
    expect(JSON.stringify(response)).not.toContain('hunter2');
    expect(logger.lines).toEqual([
      expect.objectContaining({ level: 'error', message: 'internal error on tools/call (request 9)' }),
    ]);
    expect(resultOf(await server.handle(request('tools/list'))).tools).toEqual([tool]);
  });

  it('turns a rejected promise into -32603 too', async () => {
    const { server } = makeServer({ onCallTool: async () => Promise.reject(new Error('boom')) });
    expect(errorOf(await server.handle(request('tools/call', { name: 'echo' })))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });

  it('sends an McpError thrown by a handler as it is (code, message, data; never its cause)', async () => {
    const { server } = makeServer({
      onCallTool: ({ name }) => {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool: ${name}`,
          { name },
          { cause: new Error('x') },
        );
      },
    });
    expect(errorOf(await server.handle(request('tools/call', { name: 'nope' })))).toEqual({
      code: -32602,
      message: 'Unknown tool: nope',
      data: { name: 'nope' },
    });
  });

  it('answers -32603 when a handler returns something that is not a valid result', async () => {
    const cases: ServerOptions[] = [
      { onCallTool: () => 'text' as never },
      { onCallTool: () => ({ content: 'not-an-array' }) as never },
      { onCallTool: () => ({ content: [], resultType: 'task' }) as never },
      { onListTools: () => ({ tools: [{ name: 1 }] }) as never },
      { onListTools: () => ({ tools: [], ttlMs: -5 }) },
    ];
    for (const options of cases) {
      const { server, logger } = makeServer(options);
      const method = options.onListTools ? 'tools/list' : 'tools/call';
      const error = errorOf(await server.handle(request(method, { name: 'echo' })));
      expect(error).toEqual({ code: -32603, message: 'Internal error' });
      expect(logger.lines[0]?.level).toBe('error');
    }
  });

  it('answers undefined when the transport aborted the request', async () => {
    const { server } = makeServer();
    const controller = new AbortController();
    controller.abort();
    expect(await server.handle(request('tools/list'), { signal: controller.signal })).toBe(undefined);
  });

  it('answers undefined as soon as the signal aborts, even if the handler ignores it', async () => {
    const controller = new AbortController();
    const { server } = makeServer({ onCallTool: () => new Promise(() => {}) });
    const pending = server.handle(request('tools/call', { name: 'echo' }), { signal: controller.signal });
    controller.abort();
    expect(await pending).toBe(undefined);
  });

  it('never rejects when a logger throws', async () => {
    const server = new Server(info, {
      logger: {
        error: () => {
          throw new Error('logger down');
        },
      },
      onCallTool: () => {
        throw new Error('boom');
      },
    });
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }))).code).toBe(-32603);
  });
});

describe('handle(): cache hints', () => {
  const lists = {
    onListTools: () => ({ tools: [] }),
    onListPrompts: () => ({ prompts: [] }),
    onListResources: () => ({ resources: [] }),
    onListResourceTemplates: () => ({ resourceTemplates: [] }),
    onReadResource: () => ({ contents: [] }),
  } satisfies ServerOptions;
  const cacheable = [
    'tools/list',
    'prompts/list',
    'resources/list',
    'resources/templates/list',
    'resources/read',
  ];

  it('puts ttlMs 0 and cacheScope "private" on every cacheable result by default', async () => {
    const server = new Server(info, lists);
    for (const method of cacheable) {
      const result = resultOf(await server.handle(request(method, { uri: 'file:///a' })));
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    }
  });

  it('applies configured defaults, per-method overrides, and lets the handler win', async () => {
    const server = new Server(info, {
      ...lists,
      onListPrompts: () => ({ prompts: [], ttlMs: 5, cacheScope: 'private' }),
      cache: { ttlMs: 1000, cacheScope: 'public', methods: { 'resources/read': { cacheScope: 'private' } } },
    });
    expect(resultOf(await server.handle(request('tools/list')))).toMatchObject({
      ttlMs: 1000,
      cacheScope: 'public',
    });
    expect(resultOf(await server.handle(request('resources/read', { uri: 'file:///a' })))).toMatchObject({
      ttlMs: 1000,
      cacheScope: 'private',
    });
    expect(resultOf(await server.handle(request('prompts/list')))).toMatchObject({
      ttlMs: 5,
      cacheScope: 'private',
    });
  });

  it('puts no cache hints on results of methods that are not cacheable', async () => {
    const server = new Server(info, {
      onCallTool: () => ({ content: [] }),
      onComplete: () => ({ completion: { values: [] } }),
      cache: { ttlMs: 1000 },
    });
    for (const [method, params] of [
      ['tools/call', { name: 'x' }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }],
    ] as const) {
      const result = resultOf(await server.handle(request(method, params)));
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
    }
  });
});
