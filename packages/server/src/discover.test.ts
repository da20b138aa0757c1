import { ErrorCode } from '@boomerang/protocol';
import { DiscoverResultResponseSchema } from '@boomerang/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import { errorOf, example, haveExamples, meta, request, resultOf } from './test-support/wire.js';

const info = { name: 'ExampleServer', version: '1.0.0' };

describe('server/discover', () => {
  it('is always served, with versions, capabilities, instructions, cache hints and serverInfo in _meta', async () => {
    const server = new Server(info, {
      instructions: 'Weather and resources.',
      onCallTool: () => ({ content: [] }),
      onReadResource: () => ({ contents: [] }),
      cache: { methods: { 'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' } } },
    });
    const response = await server.handle(request('server/discover', {}, { id: 'discover-1' }));
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'discover-1',
      result: {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, resources: {} },
        instructions: 'Weather and resources.',
        ttlMs: 3_600_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': info },
      },
    });
    expect(DiscoverResultResponseSchema.safeParse(response).success).toBe(true);
    expect(resultOf(response)).not.toHaveProperty('serverInfo');
  });

  it.skipIf(!haveExamples)(
    'answers the official example request like the official example response',
    async () => {
      const server = new Server(info, {
        onListTools: () => ({ tools: [] }),
        onListResources: () => ({ resources: [] }),
        cache: { ttlMs: 3_600_000, cacheScope: 'public' },
      });
      const response = await server.handle(example('DiscoverRequest/server-discover-request.json'));
      expect(response).toEqual(example('DiscoverResultResponse/discover-result-response.json'));
    },
  );

  it('advertises exactly what the handlers imply, merged with extra capabilities', async () => {
    const discover = async (server: Server) =>
      resultOf(await server.handle(request('server/discover'))).capabilities;
    expect(await discover(new Server(info))).toEqual({});
    expect(
      await discover(
        new Server(info, {
          onGetPrompt: () => ({ messages: [] }),
          onListResourceTemplates: () => ({ resourceTemplates: [] }),
          onComplete: () => ({ completion: { values: [] } }),
          capabilities: {
            prompts: { listChanged: false },
            logging: {},
            extensions: { 'com.example/x': { level: 1 } },
          },
        }),
      ),
    ).toEqual({
      prompts: { listChanged: false },
      resources: {},
      completions: {},
      logging: {},
      extensions: { 'com.example/x': { level: 1 } },
    });
  });

  it('has no instructions member when none were given', async () => {
    const result = resultOf(await new Server(info).handle(request('server/discover')));
    expect(result).not.toHaveProperty('instructions');
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('needs the per-request _meta like every other method', async () => {
    const server = new Server(info);
    const missing = await server.handle({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    expect(errorOf(missing).code).toBe(ErrorCode.InvalidParams);
    const unsupported = await server.handle({
      jsonrpc: '2.0',
      id: 2,
      method: 'server/discover',
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    });
    expect(errorOf(unsupported)).toEqual({
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
  });
});
