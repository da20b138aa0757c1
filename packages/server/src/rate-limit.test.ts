// rateLimit on the wire: a token bucket per principal, the -32029 answer with data.retryAfterMs, refill, keys,
// method filters, the bounded memory store, bad options.
import { ErrorCode } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { memoryRateLimitStore, principalKey, rateLimit, rateLimited } from './rate-limit.js';
import { Server } from './server.js';
import { errorOf, meta, request, resultOf } from './test-support/wire.js';

function limited(options: Parameters<typeof rateLimit>[0]) {
  let handled = 0;
  const server = new Server(
    { name: 's', version: '1' },
    {
      onListTools: () => {
        handled++;
        return { tools: [] };
      },
      onListPrompts: () => ({ prompts: [] }),
    },
  ).use(rateLimit(options));
  return { server, handled: () => handled };
}

describe('rateLimit', () => {
  it('lets `requests` through per `perMs`, then answers -32029 with data.retryAfterMs without running the handler', async () => {
    let now = 1_000_000;
    const { server, handled } = limited({
      requests: 5,
      perMs: 1_000,
      store: memoryRateLimitStore({ clock: () => now }),
    });
    for (let i = 0; i < 5; i++)
      expect(resultOf(await server.handle(request('tools/list'))).tools).toEqual([]);
    const refused = errorOf(await server.handle(request('tools/list')));
    expect(refused).toEqual({
      code: ErrorCode.RateLimited,
      message: 'Rate limit exceeded: retry in 200 ms',
      data: { retryAfterMs: 200 },
    });
    expect(handled()).toBe(5);
    now += 199;
    expect(errorOf(await server.handle(request('tools/list'))).data).toEqual({ retryAfterMs: 1 });
    now += 1;
    expect(resultOf(await server.handle(request('tools/list'))).tools).toEqual([]);
    // A burst never exceeds the bucket, however long the caller was quiet.
    now += 60_000;
    let allowed = 0;
    for (let i = 0; i < 10; i++)
      if ('result' in ((await server.handle(request('tools/list'))) ?? {})) allowed++;
    expect(allowed).toBe(5);
  });

  it('keeps a bucket per principal; anonymous callers by their declared name', async () => {
    const { server } = limited({ requests: 1, perMs: 60_000 });
    const alice = { clientId: 'app', issuer: 'https://as', subject: 'alice' };
    const bob = { clientId: 'app', issuer: 'https://as', subject: 'bob' };
    expect(resultOf(await server.handle(request('tools/list'), { auth: alice })).tools).toEqual([]);
    expect(errorOf(await server.handle(request('tools/list'), { auth: alice })).code).toBe(-32029);
    expect(resultOf(await server.handle(request('tools/list'), { auth: bob })).tools).toEqual([]);
    // A scope step-up is the same principal.
    expect(
      errorOf(await server.handle(request('tools/list'), { auth: { ...alice, scopes: ['x'] } })).code,
    ).toBe(-32029);
    const named = (name: string) => {
      const r = request('tools/list');
      (r.params as { _meta: unknown })._meta = meta(
        {},
        { 'io.modelcontextprotocol/clientInfo': { name, version: '1' } },
      );
      return r;
    };
    expect(resultOf(await server.handle(named('one'))).tools).toEqual([]);
    expect(errorOf(await server.handle(named('one'))).code).toBe(-32029);
    expect(resultOf(await server.handle(named('two'))).tools).toEqual([]);
  });

  it('counts only `methods` when given, and nothing a `key` of undefined names', async () => {
    const only = limited({ requests: 1, perMs: 60_000, methods: ['tools/list'] });
    await only.server.handle(request('tools/list'));
    expect(errorOf(await only.server.handle(request('tools/list'))).code).toBe(-32029);
    expect(resultOf(await only.server.handle(request('prompts/list'))).prompts).toEqual([]);
    const uncounted = limited({ requests: 1, perMs: 60_000, key: () => undefined });
    for (let i = 0; i < 3; i++)
      expect(resultOf(await uncounted.server.handle(request('tools/list'))).tools).toEqual([]);
  });

  it('shares a store between servers (one fleet-wide bucket), taking tokens atomically per call', async () => {
    const store = memoryRateLimitStore();
    const a = limited({ requests: 2, perMs: 60_000, store });
    const b = limited({ requests: 2, perMs: 60_000, store });
    const outcomes = await Promise.all(
      [a, b, a, b].map(
        async ({ server }) => 'result' in ((await server.handle(request('tools/list'))) ?? {}),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(2);
  });

  it('the memory store keeps at most maxKeys buckets, dropping the least recently used', () => {
    const store = memoryRateLimitStore({ maxKeys: 2, clock: () => 0 });
    const rule = { capacity: 1, perMs: 1_000 };
    expect(store.take('a', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(store.take('a', rule)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    store.take('b', rule);
    store.take('c', rule); // 'a' is dropped: its bucket starts full again
    expect(store.take('a', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
  });

  it('principalKey: the principal, a token-only caller by token, nobody uncounted', () => {
    const ctx = (auth: object | undefined, clientInfo?: object) =>
      ({
        principal: auth === undefined ? null : (auth as { named?: unknown }).named,
        meta: clientInfo === undefined ? {} : { 'io.modelcontextprotocol/clientInfo': clientInfo },
      }) as never;
    expect(principalKey(ctx({ named: ['c', 'i', 's'] }))).toBe('principal:["c","i","s"]');
    expect(principalKey(ctx({ named: { token: 't' } }))).toBe('principal:{"token":"t"}');
    expect(principalKey(ctx({ named: undefined }))).toBeUndefined();
    expect(principalKey(ctx(undefined, { name: 'host' }))).toBe('anonymous:host');
    expect(principalKey(ctx(undefined))).toBe('anonymous:');
  });

  it('refuses bad options, and rateLimited() builds the same error', () => {
    expect(() => rateLimit({ requests: 0, perMs: 1 })).toThrow(RangeError);
    expect(() => rateLimit({ requests: 1, perMs: 1.5 })).toThrow(RangeError);
    expect(() => rateLimit({ requests: '1' as never, perMs: 1 })).toThrow(TypeError);
    expect(() => rateLimit(undefined as never)).toThrow(TypeError);
    expect(() => rateLimit({ requests: 1, perMs: 1, store: {} as never })).toThrow(TypeError);
    expect(() => rateLimit({ requests: 1, perMs: 1, key: 'ip' as never })).toThrow(TypeError);
    expect(rateLimited(0.2).toJSON()).toEqual({
      code: -32029,
      message: 'Rate limit exceeded: retry in 1 ms',
      data: { retryAfterMs: 1 },
    });
  });
});
