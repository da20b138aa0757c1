import type { JSONRPCNotification, LoggingLevel } from '@boomerang/protocol';
import { CancellableHandleContext, RequestCancellation } from '@boomerang/protocol/transport';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import { example, haveExamples, meta, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { RequestContext, ServerOptions } from './types.js';

const info = { name: 'ctx', version: '1.0.0' };

/** Runs one tools/call whose handler is `body`, collecting the notifications it emits through `ctx.notify`. */
async function run(
  body: (ctx: RequestContext) => unknown,
  params: Record<string, unknown> = {},
  options: ServerOptions = {},
) {
  const sent: JSONRPCNotification[] = [];
  const logger = recordingLogger();
  const server = new Server(info, {
    logger,
    onCallTool: async (_p, ctx) => {
      await body(ctx);
      return { content: [] };
    },
    ...options,
  });
  const response = await server.handle(request('tools/call', { name: 't', ...params }), {
    notify: (n) => {
      sent.push(n);
    },
  });
  return { response, sent, logger };
}

describe('the request context', () => {
  it('describes this request: id, method, version, capabilities, clientInfo, auth', async () => {
    let seen: RequestContext | undefined;
    const server = new Server(info, {
      onCallTool: (_p, ctx) => {
        seen = ctx;
        return { content: [] };
      },
    });
    const auth = { clientId: 'app', subject: 'alice', scopes: ['read'] };
    await server.handle(request('tools/call', { name: 't' }, { id: 'r-1', caps: { roots: {} } }), { auth });
    expect(seen).toMatchObject({
      requestId: 'r-1',
      method: 'tools/call',
      protocolVersion: '2026-07-28',
      clientCapabilities: { roots: {} },
      clientInfo: { name: 'test-client', version: '1.0.0' },
      auth,
      progressToken: undefined,
      logLevel: undefined,
    });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });
  it('makes the signal on first read from the transport’s cancellation; sendProgress and log work destructured', async () => {
    const cancellation = new RequestCancellation();
    const sent: JSONRPCNotification[] = [];
    let signal: AbortSignal | undefined;
    const server = new Server(info, {
      capabilities: { logging: {} },
      onCallTool: async (_p, ctx) => {
        const { sendProgress, log } = ctx;
        await sendProgress(1);
        await log('error', 'boom');
        signal = ctx.signal;
        return { content: [] };
      },
    });
    const params = {
      name: 't',
      _meta: meta({}, { progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'info' }),
    };
    await server.handle(
      request('tools/call', params),
      new CancellableHandleContext(cancellation, (n) => void sent.push(n)),
    );
    expect(sent.map((n) => n.method)).toEqual(['notifications/progress', 'notifications/message']);
    expect(signal).toBe(cancellation.signal);
  });
});

describe('ctx.sendProgress', () => {
  const withToken = { _meta: meta({}, { progressToken: 'tok-1' }) };

  it('sends notifications/progress with the request’s token', async () => {
    const { sent } = await run(async (ctx) => {
      await ctx.sendProgress(1);
      await ctx.sendProgress(2, 10, 'halfway');
    }, withToken);
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: 1 } },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok-1', progress: 2, total: 10, message: 'halfway' },
      },
    ]);
  });

  it.skipIf(!haveExamples)('works with the official progress-token example params', async () => {
    const params = example('CallToolRequestParams/tool-call-params-with-progress-token.json');
    const { sent } = await run((ctx) => ctx.sendProgress(50, 100), params);
    expect(sent[0]?.params).toEqual({ progressToken: 'oivaizmir', progress: 50, total: 100 });
  });

  it('is a no-op without a progressToken', async () => {
    const { sent } = await run((ctx) => ctx.sendProgress(1));
    expect(sent).toEqual([]);
  });

  it('drops progress that does not increase', async () => {
    const { sent } = await run(async (ctx) => {
      await ctx.sendProgress(5);
      await ctx.sendProgress(5);
      await ctx.sendProgress(3);
      await ctx.sendProgress(6);
    }, withToken);
    expect(sent.map((n) => n.params?.progress)).toEqual([5, 6]);
  });

  it('throws TypeError for a progress that is not a finite number', async () => {
    let thrown: unknown;
    await run(async (ctx) => {
      thrown = await ctx.sendProgress(Number.NaN).catch((e: unknown) => e);
    }, withToken);
    expect(thrown).toBeInstanceOf(TypeError);
  });

  it('stops once the response is decided', async () => {
    let late: RequestContext | undefined;
    const { sent } = await run((ctx) => {
      late = ctx;
    }, withToken);
    await late?.sendProgress(1);
    expect(sent).toEqual([]);
  });

  it('keeps serving when notification delivery fails (reported to the logger)', async () => {
    const logger = recordingLogger();
    const server = new Server(info, {
      logger,
      onCallTool: async (_p, ctx) => {
        await ctx.sendProgress(1);
        return { content: [] };
      },
    });
    const response = await server.handle(request('tools/call', { name: 't', ...withToken }), {
      notify: () => Promise.reject(new Error('stream closed')),
    });
    expect(resultOf(response).resultType).toBe('complete');
    expect(logger.lines[0]).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('notifications/progress'),
    });
  });
});

describe('ctx.log', () => {
  const logging: ServerOptions = { capabilities: { logging: {} } };
  const at = (level: LoggingLevel) => ({ _meta: meta({}, { 'io.modelcontextprotocol/logLevel': level }) });
  const emitAll = async (ctx: RequestContext) => {
    for (const level of ['debug', 'info', 'warning', 'error', 'emergency'] as const) {
      await ctx.log(level, { level }, 'db');
    }
  };

  it('emits notifications/message at or above the level the request asked for', async () => {
    const { sent } = await run(emitAll, at('warning'), logging);
    expect(sent).toEqual(
      ['warning', 'error', 'emergency'].map((level) => ({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, data: { level }, logger: 'db' },
      })),
    );
  });

  it('emits nothing when the request did not ask', async () => {
    const { sent } = await run(emitAll, {}, logging);
    expect(sent).toEqual([]);
  });

  it('emits nothing when the server does not advertise logging', async () => {
    const { sent } = await run(emitAll, at('debug'));
    expect(sent).toEqual([]);
  });

  it('throws TypeError for an unknown level', async () => {
    let thrown: unknown;
    await run(
      async (ctx) => {
        thrown = await ctx.log('verbose' as LoggingLevel, 'x').catch((e: unknown) => e);
      },
      at('debug'),
      logging,
    );
    expect(thrown).toBeInstanceOf(TypeError);
  });
});
