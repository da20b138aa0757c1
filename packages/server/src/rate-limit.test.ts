// rateLimit on the wire: a token bucket per principal, the -32029 answer with data.retryAfterMs, refill, keys,
// method filters, the bounded memory store, bad options.
import { ErrorCode } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import {
  memoryRateLimitStore,
  principalKey,
  type RateLimitDecision,
  rateLimit,
  rateLimited,
} from './rate-limit.js';
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

  it('the memory store keeps at most maxKeys buckets, dropping only refilled ones', () => {
    let now = 0;
    const store = memoryRateLimitStore({ maxKeys: 2, clock: () => now });
    const rule = { capacity: 1, perMs: 1_000 };
    expect(store.take('a', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(store.take('a', rule)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    store.take('b', rule);
    // Full, and 'a' (the oldest) is still draining: the new key waits rather than reset 'a'.
    expect(store.take('c', rule)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect((store.take('a', rule) as RateLimitDecision).allowed).toBe(false);
    now = 1_000; // 'b' has refilled by now; 'a' was touched at 0 and refilled too
    expect(store.take('c', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
  });

  it('a flood of new names cannot reset a drained caller (defect: 10,000 names gave alice a full bucket)', () => {
    const store = memoryRateLimitStore({ maxKeys: 100, clock: () => 0 });
    const rule = { capacity: 3, perMs: 60_000 };
    const allowed = (key: string) => (store.take(key, rule) as RateLimitDecision).allowed;
    for (let i = 0; i < 3; i++) expect(allowed('alice')).toBe(true);
    expect(allowed('alice')).toBe(false);
    let refused = 0;
    for (let i = 0; i < 10_000; i++) if (!allowed(`mallory-${i}`)) refused++;
    expect(refused).toBe(10_000 - 99);
    expect(allowed('alice')).toBe(false);
  });

  it('principalKey: the principal, a token-only caller by its digest, nobody in one bucket', () => {
    const ctx = (auth: object | undefined, clientInfo?: object) =>
      ({
        principal: auth === undefined ? null : (auth as { named?: unknown }).named,
        meta: clientInfo === undefined ? {} : { 'io.modelcontextprotocol/clientInfo': clientInfo },
      }) as never;
    expect(principalKey(ctx({ named: ['c', 'i', 's'] }))).toBe('principal:["c","i","s"]');
    const tokenKey = principalKey(ctx({ named: { token: 'SECRET-ACCESS-TOKEN' } }));
    expect(tokenKey).toMatch(/^principal:token-sha256:[0-9a-f]{64}$/);
    expect(tokenKey).not.toContain('SECRET');
    expect(principalKey(ctx({ named: { token: 'other' } }))).not.toBe(tokenKey);
    expect(principalKey(ctx({ named: undefined }))).toBe('unidentified');
    expect(principalKey(ctx(undefined, { name: 'host' }))).toBe('anonymous:host');
    expect(principalKey(ctx(undefined, { name: 'h'.repeat(10_000) }))).toHaveLength(
      'anonymous:'.length + 256,
    );
    expect(principalKey(ctx(undefined))).toBe('anonymous:');
  });

  it('counts callers whose auth names nobody in one bucket instead of letting them through', async () => {
    const mw = rateLimit({ requests: 1, perMs: 3_600_000 });
    const ctx = { method: 'ping', principal: undefined, meta: {} } as never;
    const next = async () => ({ resultType: 'complete' });
    await expect(mw(ctx, next)).resolves.toEqual({ resultType: 'complete' });
    await expect(mw(ctx, next)).rejects.toMatchObject({ code: -32029 });
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
