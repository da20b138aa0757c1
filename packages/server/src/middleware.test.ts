// Server middleware on the wire: order, what ctx tells before next(), outcomes and errors as next() reports them,
// short-circuits, rounds counted through sealed state, what middleware carries from one round to the next.
import { elicitRequest, inputRequired, McpError, type Result } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { describe, expect, it } from 'vitest';
import type { ServerMiddleware, ServerMiddlewareContext } from './middleware.js';
import { MAX_CARRIED_BYTES } from './middleware.js';
import { sealed } from './sealed.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { ServerOptions } from './types.js';

const ask = elicitRequest({
  message: 'Proceed?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
});
const elicitation = { elicitation: { form: {} } };

/** A tool that asks twice (one question a round), keeping the round in its state; `done` after the third. */
const threeRounds: ServerOptions = {
  onListTools: () => ({ tools: [{ name: 'deploy', inputSchema: { type: 'object' } }] }),
  onCallTool: (params, ctx) => {
    const seen = Number(ctx.requestState ?? '0');
    if (seen < 2)
      return inputRequired({ inputRequests: { [`q${seen}`]: ask }, requestState: String(seen + 1) });
    return { content: [{ type: 'text', text: `done for ${String(params.arguments?.env)}` }] };
  },
};

/** Records what each middleware saw, before and after next(). */
function recorder(name: string, log: string[]): ServerMiddleware {
  return async (ctx, next) => {
    log.push(`${name} in ${ctx.method} round ${ctx.round}`);
    try {
      const result = await next();
      log.push(`${name} out ${String(result.resultType)}`);
      return result;
    } catch (error) {
      log.push(`${name} error ${error instanceof McpError ? error.code : String(error)}`);
      throw error;
    }
  };
}

/** Runs a three-round tools/call flow, answering each question; returns the responses. */
async function flow(server: Server, auth?: object) {
  const responses: Record<string, unknown>[] = [];
  let params: Record<string, unknown> = { name: 'deploy', arguments: { env: 'prod' } };
  for (let i = 0; i < 3; i++) {
    const response = await server.handle(request('tools/call', params, { caps: elicitation }), {
      ...(auth !== undefined && { auth }),
    });
    responses.push(response as Record<string, unknown>);
    const result = resultOf(response);
    if (result.resultType !== 'input_required') break;
    const key = Object.keys(result.inputRequests as object)[0] as string;
    params = {
      name: 'deploy',
      arguments: { env: 'prod' },
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
      requestState: result.requestState,
    };
  }
  return responses;
}

describe('Server#use', () => {
  it('runs middleware in registration order, the first outermost, around every request', async () => {
    const log: string[] = [];
    const server = new Server({ name: 's', version: '1' }, threeRounds)
      .use(recorder('a', log))
      .use(recorder('b', log));
    await server.handle(request('tools/list'));
    expect(log).toEqual([
      'a in tools/list round 0',
      'b in tools/list round 0',
      'b out complete',
      'a out complete',
    ]);
  });

  it('tells method, params, _meta, principal and protocol version before next(); handlers read ctx.meta', async () => {
    const seen: ServerMiddlewareContext[] = [];
    const handlerMeta: unknown[] = [];
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: () => ({ tools: [] }),
        onCallTool: (_params, ctx) => {
          handlerMeta.push(ctx.meta);
          return { content: [] };
        },
      },
    ).use(async (ctx, next) => {
      seen.push(ctx);
      return next();
    });
    const traced = request('tools/call', { name: 'x' });
    (traced.params as { _meta: Record<string, unknown> })._meta.traceparent =
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const auth = { clientId: 'app', issuer: 'https://as', subject: 'ada', token: 't' };
    await server.handle(traced, { auth });
    const [ctx] = seen;
    expect(ctx?.method).toBe('tools/call');
    expect(ctx?.params.name).toBe('x');
    expect(ctx?.meta.traceparent).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(ctx?.protocolVersion).toBe('2026-07-28');
    expect(ctx?.principal).toEqual(['app', 'https://as', 'ada']);
    expect(ctx?.auth).toBe(auth);
    expect(ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(handlerMeta).toEqual([(traced.params as { _meta: unknown })._meta]);
  });

  it('counts the rounds of a flow through sealed state, and carries strings from one round to the next', async () => {
    const rounds: [number, Readonly<Record<string, string>>][] = [];
    const server = new Server(
      { name: 's', version: '1' },
      { ...threeRounds, requestState: sealed({ keys: [generateKey()] }) },
    ).use(async (ctx, next) => {
      rounds.push([ctx.round, ctx.carried]);
      ctx.carry('minted-in', String(ctx.round));
      return next();
    });
    const responses = await flow(server);
    expect(resultOf(responses[2] as never).content).toEqual([{ type: 'text', text: 'done for prod' }]);
    expect(rounds).toEqual([
      [0, {}],
      [1, { 'minted-in': '0' }],
      [2, { 'minted-in': '1' }],
    ]);
  });

  it('without sealed state, any retry is round 1 and nothing is carried', async () => {
    const rounds: number[] = [];
    const server = new Server({ name: 's', version: '1' }, threeRounds).use(async (ctx, next) => {
      rounds.push(ctx.round);
      ctx.carry('k', 'v');
      return next();
    });
    await flow(server);
    expect(rounds).toEqual([0, 1, 1]);
  });

  it('sees every outcome: complete, input_required, and errors as the McpError the wire gets', async () => {
    const log: string[] = [];
    const logger = recordingLogger();
    const server = new Server(
      { name: 's', version: '1' },
      {
        ...threeRounds,
        logger,
        onGetPrompt: () => {
          throw new Error('boom');
        },
        onListPrompts: () => ({ prompts: [] }),
      },
    ).use(recorder('m', log));
    await flow(server);
    expect(errorOf(await server.handle(request('tools/call', { name: 3 }))).code).toBe(-32602);
    expect(errorOf(await server.handle(request('nope/nope'))).code).toBe(-32601);
    expect(errorOf(await server.handle(request('prompts/get', { name: 'p' })))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    const missingMeta = { jsonrpc: '2.0', id: 99, method: 'tools/list' };
    expect(errorOf(await server.handle(missingMeta)).code).toBe(-32602);
    expect(log.filter((line) => !line.includes(' in '))).toEqual([
      'm out input_required',
      'm out input_required',
      'm out complete',
      'm error -32602',
      'm error -32601',
      'm error -32603',
      'm error -32602',
    ]);
    // The internal error is logged once, with its cause, as without middleware.
    expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  it('short-circuits: a middleware that throws an McpError answers with it, and the handler never runs', async () => {
    let ran = 0;
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: () => {
          ran++;
          return { tools: [] };
        },
      },
    ).use(async () => {
      throw new McpError(-32029, 'Slow down', { retryAfterMs: 100 });
    });
    expect(errorOf(await server.handle(request('tools/list')))).toEqual({
      code: -32029,
      message: 'Slow down',
      data: { retryAfterMs: 100 },
    });
    expect(ran).toBe(0);
  });

  it('may replace the result; a non-McpError, a non-result or next() twice is -32603, logged', async () => {
    const logger = recordingLogger();
    const base = { onListTools: () => ({ tools: [] }), logger };
    const replaced = new Server({ name: 's', version: '1' }, base).use(async (_ctx, next) => {
      const result = await next();
      return { ...result, tools: [{ name: 'added', inputSchema: { type: 'object' } }] } as Result;
    });
    expect(resultOf(await replaced.handle(request('tools/list'))).tools).toEqual([
      { name: 'added', inputSchema: { type: 'object' } },
    ]);
    for (const mw of [
      (async () => {
        throw new Error('secret detail');
      }) as ServerMiddleware,
      (async () => 'nope') as unknown as ServerMiddleware,
      (async (_ctx, next) => {
        await next();
        return next();
      }) as ServerMiddleware,
    ]) {
      const server = new Server({ name: 's', version: '1' }, base).use(mw);
      expect(errorOf(await server.handle(request('tools/list')))).toEqual({
        code: -32603,
        message: 'Internal error',
      });
    }
    expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(3);
  });

  it('tells why a requestState did not open (never the wire), and the refusal is logged once', async () => {
    const logger = recordingLogger();
    const refusals: (string | undefined)[] = [];
    const server = new Server(
      { name: 's', version: '1' },
      { ...threeRounds, logger, requestState: sealed({ keys: [generateKey()] }) },
    ).use(async (ctx, next) => {
      refusals.push(ctx.stateRefusal);
      return next();
    });
    const first = resultOf(
      await server.handle(request('tools/call', { name: 'deploy', arguments: {} }, { caps: elicitation })),
    );
    const forged = `${(first.requestState as string).slice(0, -4)}AAAA`;
    const retry = (state: string, args: object) =>
      server.handle(
        request(
          'tools/call',
          { name: 'deploy', arguments: args, requestState: state },
          { caps: elicitation },
        ),
      );
    expect(errorOf(await retry(forged, {}))).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(errorOf(await retry(first.requestState as string, { env: 'other' })).code).toBe(-32602);
    expect(refusals).toEqual([undefined, 'forged', 'context']);
    expect(logger.lines.filter((line) => line.message.startsWith('requestState rejected'))).toHaveLength(2);
  });

  it('serves a cancelled request no response, as without middleware', async () => {
    const controller = new AbortController();
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => new Promise(() => {}) }).use(
      async (_ctx, next) => next(),
    );
    const pending = server.handle(request('tools/list'), { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
  });

  it('runs around a 2025-11-25 session’s requests too, its own methods included, saying so', async () => {
    const seen: string[] = [];
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) }).use(
      async (ctx, next) => {
        seen.push(`${ctx.method} ${String(ctx.protocolVersion)} round ${ctx.round}`);
        return next();
      },
    );
    const replies = await legacyExchange(server, [
      { id: 2, method: 'ping' },
      { id: 3, method: 'logging/setLevel', params: { level: 'error' } },
      { id: 4, method: 'tools/list', params: {} },
    ]);
    expect(replies.map((reply) => 'result' in reply)).toEqual([true, true, true, true]);
    expect(seen).toEqual([
      'initialize 2025-11-25 round 0',
      'ping 2025-11-25 round 0',
      'logging/setLevel 2025-11-25 round 0',
      'tools/list 2025-11-25 round 0',
    ]);
  });

  it('may refuse a 2025-11-25 initialize: no session opens, and the connection serves on', async () => {
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) }).use(
      async (ctx, next) => {
        if (ctx.method === 'initialize') throw new McpError(-32029, 'Too many requests');
        return next();
      },
    );
    const replies = await legacyExchange(server, [{ id: 2, method: 'ping' }]);
    expect(replies[0]).toMatchObject({ id: 1, error: { code: -32029, message: 'Too many requests' } });
    // No session: a ping outside one is a 2026-07-28 request without _meta.
    expect(replies[1]).toMatchObject({ id: 2, error: { code: -32601 } });
  });

  it('unseals a requestState only when needed: a middleware that refuses first spares it', async () => {
    const inner = sealed({ keys: [generateKey()] });
    let opens = 0;
    const counting = {
      synchronous: true,
      seal: inner.seal,
      open: (token: string, binding: Parameters<typeof inner.open>[1]) => {
        opens++;
        return inner.open(token, binding);
      },
    };
    let refuse = false;
    let rounds: number[] = [];
    const server = new Server({ name: 's', version: '1' }, { ...threeRounds, requestState: counting })
      .use(async (_ctx, next) => {
        if (refuse) throw new McpError(-32029, 'Too many requests');
        return next();
      })
      .use(async (ctx, next) => {
        rounds.push(ctx.round, ctx.round);
        return next();
      });
    const first = resultOf(
      await server.handle(request('tools/call', { name: 'deploy', arguments: {} }, { caps: elicitation })),
    );
    const retry = () =>
      server.handle(
        request(
          'tools/call',
          {
            name: 'deploy',
            arguments: {},
            inputResponses: { q0: { action: 'accept', content: { ok: true } } },
            requestState: first.requestState,
          },
          { caps: elicitation },
        ),
      );
    refuse = true;
    expect(errorOf(await retry()).code).toBe(-32029);
    expect(opens).toBe(0);
    refuse = false;
    rounds = [];
    expect(resultOf(await retry()).resultType).toBe('input_required');
    expect(rounds).toEqual([1, 1]);
    expect(opens).toBe(1); // read by a middleware, then by the handler: unsealed once
  });

  it('opens the state before the chain when the envelope opens asynchronously', async () => {
    const inner = sealed({ keys: [generateKey()] });
    const order: string[] = [];
    const asynchronous = {
      seal: inner.seal,
      open: async (token: string, binding: Parameters<typeof inner.open>[1]) => {
        order.push('open');
        return inner.open(token, binding);
      },
    };
    const server = new Server(
      { name: 's', version: '1' },
      { ...threeRounds, requestState: asynchronous },
    ).use(async (ctx, next) => {
      order.push(`middleware round ${ctx.round}`);
      return next();
    });
    const first = resultOf(
      await server.handle(request('tools/call', { name: 'deploy', arguments: {} }, { caps: elicitation })),
    );
    order.length = 0;
    const second = await server.handle(
      request(
        'tools/call',
        {
          name: 'deploy',
          arguments: {},
          inputResponses: { q0: { action: 'accept', content: { ok: true } } },
          requestState: first.requestState,
        },
        { caps: elicitation },
      ),
    );
    expect(resultOf(second).resultType).toBe('input_required');
    expect(order).toEqual(['open', 'middleware round 1']);
  });

  it('refuses what is not a function, and registration once the server serves', async () => {
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) });
    expect(() => server.use('nope' as never)).toThrow(
      new TypeError('"middleware" expected a function (ctx, next) => result, got string'),
    );
    await server.handle(request('tools/list'));
    expect(() => server.use(async (_ctx, next) => next())).toThrow(/after the server started serving/);
  });

  it('carry() takes strings up to MAX_CARRIED_BYTES in all', async () => {
    const outcomes: unknown[] = [];
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) }).use(
      async (ctx, next) => {
        ctx.carry('a', 'x'.repeat(MAX_CARRIED_BYTES - '{"a":""}'.length)); // exactly the budget, as JSON
        for (const attempt of [
          () => ctx.carry('b', 'y'),
          () => ctx.carry('', 'y'),
          () => ctx.carry('c', 3 as never),
        ]) {
          try {
            attempt();
            outcomes.push('ok');
          } catch (error) {
            outcomes.push((error as Error).name);
          }
        }
        return next();
      },
    );
    await server.handle(request('tools/list'));
    expect(outcomes).toEqual(['RangeError', 'TypeError', 'TypeError']);
  });

  it('carry() counts the bytes the sealed frame holds: JSON escapes and UTF-8, not UTF-16 units', async () => {
    const outcomes: unknown[] = [];
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) }).use(
      async (ctx, next) => {
        for (const attempt of [
          () => ctx.carry('ctl', '\u0001'.repeat(400)), // 400 units, 2,400 bytes as JSON (\\u0001 each)
          () => ctx.carry('euro', '€'.repeat(700)), // 700 units, 2,100 bytes in UTF-8
          () => ctx.carry('euro', '€'.repeat(600)), // 1,800 bytes: fits
        ]) {
          try {
            attempt();
            outcomes.push('ok');
          } catch (error) {
            outcomes.push((error as Error).name);
          }
        }
        return next();
      },
    );
    await server.handle(request('tools/list'));
    expect(outcomes).toEqual(['RangeError', 'RangeError', 'ok']);
  });

  it('a next() called after its middleware answered rejects and runs nothing', async () => {
    let late: (() => Promise<unknown>) | undefined;
    let handled = 0;
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: () => {
          handled++;
          return { tools: [] };
        },
      },
    ).use(async (_ctx, next) => {
      late = next;
      return { resultType: 'complete', tools: [] };
    });
    const response = (await server.handle(request('tools/list'))) as { result: object };
    expect(response.result).toMatchObject({ tools: [] });
    await expect(late?.()).rejects.toThrow(/after it answered/);
    expect(handled).toBe(0);
  });
});

/** Opens a 2025-11-25 session on a stream connection of `server` and sends `requests` in it: the replies in order. */
async function legacyExchange(
  server: Server,
  requests: readonly { id: number; method: string; params?: object }[],
): Promise<Record<string, unknown>[]> {
  const { createInMemoryPair } = await import('@boomerang/transport-memory');
  const [client, transport] = createInMemoryPair();
  await server.connect(transport);
  const replies: Record<string, unknown>[] = [];
  const reader = (async () => {
    for await (const message of client.messages) {
      replies.push(message as Record<string, unknown>);
      if (replies.length === requests.length + 1) break;
    }
  })();
  const clientInfo = { name: 'old', version: '1' };
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo };
  await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params } as never);
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
  for (const message of requests) await client.send({ jsonrpc: '2.0', ...message } as never);
  await reader;
  await client.close();
  return replies;
}
