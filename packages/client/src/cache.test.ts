import { ErrorCode, McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import {
  type CacheEntry,
  type CacheStore,
  cacheKey,
  createMemoryCacheStore,
  groupPrefix,
  ResultCache,
} from './cache.js';
import type { ClientOptions } from './options.js';
import {
  askFor,
  cacheable,
  deferred,
  harness,
  NO_REPLY,
  type ReceivedRequest,
} from './test-support/fake-server.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

/** A fake clock the cache reads. */
function clock(start = 1_000_000) {
  const c = { now: start, read: () => c.now };
  return c;
}

/** A server answering each request by method; counts what reached it. */
function byMethod(answers: Record<string, (request: ReceivedRequest) => unknown>) {
  return (request: ReceivedRequest) => {
    const answer = answers[request.method];
    if (answer === undefined) throw new McpError(ErrorCode.MethodNotFound, 'nope');
    return answer(request);
  };
}

async function setup(
  answers: Record<string, (request: ReceivedRequest) => unknown>,
  options: ClientOptions = {},
) {
  const time = clock();
  const h = await harness(byMethod(answers), { cache: { clock: time.read }, ...options });
  const sent = (method: string) => h.server.requests.filter((r) => r.method === method).length;
  return { h, time, sent };
}

describe('client cache', () => {
  it('serves a fresh result from the cache, re-fetches once ttlMs elapsed', async () => {
    const { h, time, sent } = await setup({
      'tools/list': () => cacheable({ tools: [tool('a')], ttlMs: 1000 }),
    });
    await using _ = h;
    const first = await h.client.listTools();
    time.now += 999;
    expect(await h.client.listTools()).toEqual(first);
    expect(sent('tools/list')).toBe(1);
    time.now += 1;
    await h.client.listTools();
    expect(sent('tools/list')).toBe(2);
  });

  it('keys by params: each cursor and each URI is its own entry', async () => {
    const { h, sent } = await setup({
      'prompts/list': () => cacheable({ prompts: [], ttlMs: 1000 }),
      'resources/read': (r) => cacheable({ contents: [{ uri: r.params.uri, text: 'x' }], ttlMs: 1000 }),
    });
    await using _ = h;
    await h.client.listPrompts();
    await h.client.listPrompts({ cursor: 'p2' });
    await h.client.listPrompts({ cursor: 'p2' });
    await h.client.listPrompts();
    expect(sent('prompts/list')).toBe(2);
    const a = await h.client.readResource('file:///a');
    const b = await h.client.readResource('file:///b');
    expect(a.contents[0]?.uri).toBe('file:///a');
    expect(b.contents[0]?.uri).toBe('file:///b');
    expect((await h.client.readResource('file:///a')).contents[0]?.uri).toBe('file:///a');
    expect(sent('resources/read')).toBe(2);
  });

  it('never caches ttlMs 0 (immediately stale)', async () => {
    const { h, sent } = await setup({ 'resources/list': () => cacheable({ resources: [], ttlMs: 0 }) });
    await using _ = h;
    await h.client.listResources();
    await h.client.listResources();
    expect(sent('resources/list')).toBe(2);
  });

  it('stores only positive ttlMs (absent or negative: stale, whatever a lenient parser lets through)', async () => {
    const time = clock();
    const cache = new ResultCache({ clock: time.read });
    for (const [i, ttlMs] of [undefined, -5, 0, Number.NaN].entries()) {
      await cache.set('tools/list', `c${i}`, { tools: [], ttlMs }, 0);
      expect(await cache.get('tools/list', `c${i}`)).toBeUndefined();
    }
    await cache.set('tools/list', null, { tools: [], ttlMs: 10 }, 0);
    expect(await cache.get('tools/list', null)).toEqual({ tools: [], ttlMs: 10 });
  });

  it('opts out per call ({ cache: false }: no read, no write), reloads, and opts out globally', async () => {
    const { h, sent } = await setup({
      'resources/templates/list': () => cacheable({ resourceTemplates: [], ttlMs: 1000 }),
    });
    await using _ = h;
    await h.client.listResourceTemplates({}, { cache: false });
    await h.client.listResourceTemplates();
    await h.client.listResourceTemplates({}, { cache: false });
    await h.client.listResourceTemplates();
    expect(sent('resources/templates/list')).toBe(3);

    await h.client.listResourceTemplates({}, { cache: 'reload' });
    await h.client.listResourceTemplates();
    expect(sent('resources/templates/list')).toBe(4);

    await using off = await harness(() => cacheable({ tools: [], ttlMs: 1000 }), { cache: false });
    await off.client.listTools();
    await off.client.listTools();
    expect(off.server.requests).toHaveLength(2);
  });

  it('never caches a result reached through input_required rounds, nor a resumed flow', async () => {
    const { h, sent } = await setup(
      {
        'resources/read': (r) =>
          r.params.inputResponses === undefined
            ? { resultType: 'input_required', inputRequests: { who: askFor('who') } }
            : cacheable({ contents: [], ttlMs: 60_000, cacheScope: 'public' }),
      },
      { elicitation: async () => ({ action: 'accept', content: { who: 'me' } }) },
    );
    await using _ = h;
    await h.client.readResource('file:///secret');
    await h.client.readResource('file:///secret');
    expect(sent('resources/read')).toBe(4);
    const step = await h.client.start('resources/read', { uri: 'file:///secret' });
    const resumed = await h.client.resume(step.continuation!, {
      who: { action: 'accept', content: { who: 'me' } },
    });
    expect(resumed.result?.contents).toEqual([]);
    await h.client.readResource('file:///secret');
    expect(sent('resources/read')).toBe(8); // start and resume neither read nor fill the cache
  });

  it('drops a method cached pages when the server refuses a cursor', async () => {
    let refuse = false;
    const { h, sent } = await setup({
      'tools/list': (r) => {
        if (refuse && r.params.cursor) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
        return cacheable({ tools: [], ttlMs: 1000 });
      },
    });
    await using _ = h;
    await h.client.listTools();
    refuse = true;
    await expect(h.client.listTools({ cursor: 'stale' })).rejects.toBeInstanceOf(McpError);
    await h.client.listTools();
    expect(sent('tools/list')).toBe(3);
  });
});

describe('invalidation by listen notifications', () => {
  it('list_changed drops that list; resources/updated drops that URI only', async () => {
    const { h, sent } = await setup({
      'tools/list': () => cacheable({ tools: [], ttlMs: 60_000 }),
      'prompts/list': () => cacheable({ prompts: [], ttlMs: 60_000 }),
      'resources/read': (r) => cacheable({ contents: [{ uri: r.params.uri, text: '' }], ttlMs: 60_000 }),
      'subscriptions/listen': () => NO_REPLY,
    });
    await using _ = h;
    await h.client.listTools();
    await h.client.listPrompts();
    await h.client.readResource('file:///a');
    await h.client.readResource('file:///b');
    const sub = h.client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    await h.server.waitForRequests(5);
    const tag = { _meta: { [SUB]: h.server.requests[4]?.id } };
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: tag });
    await h.server.send({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///a', ...tag },
    });
    const it = sub[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    await h.client.listTools();
    await h.client.listPrompts();
    await h.client.readResource('file:///a');
    await h.client.readResource('file:///b');
    expect([sent('tools/list'), sent('prompts/list'), sent('resources/read')]).toEqual([2, 1, 3]);
    await sub.close();
  });

  it('a result in flight when its entry is invalidated is not stored', async () => {
    const gate = deferred();
    const { h, sent } = await setup({
      'tools/list': async () => {
        await gate.promise;
        return cacheable({ tools: [], ttlMs: 60_000 });
      },
      'subscriptions/listen': () => NO_REPLY,
    });
    await using _ = h;
    const sub = h.client.listen({ toolsListChanged: true });
    const listing = h.client.listTools();
    await h.server.waitForRequests(2);
    const id = h.server.requests.find((r) => r.method === 'subscriptions/listen')?.id;
    const params = { _meta: { [SUB]: id } };
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params });
    await sub[Symbol.asyncIterator]().next();
    gate.resolve();
    await listing;
    await h.client.listTools();
    expect(sent('tools/list')).toBe(2);
    await sub.close();
  });
});

describe('cache scope and shared stores', () => {
  it('shares public entries through a shared store, private ones only within one authContext', async () => {
    const store = createMemoryCacheStore();
    const answers = {
      'tools/list': () => cacheable({ tools: [tool('pub')], ttlMs: 60_000, cacheScope: 'public' }),
      'resources/read': () => cacheable({ contents: [], ttlMs: 60_000, cacheScope: 'private' }),
    };
    const alice = await harness(byMethod(answers), { cache: { store, authContext: 'alice' } });
    const bob = await harness(byMethod(answers), { cache: { store, authContext: 'bob' } });
    const alice2 = await harness(byMethod(answers), { cache: { store, authContext: 'alice' } });
    const anon = await harness(byMethod(answers), { cache: { store } });
    await alice.client.listTools();
    await alice.client.readResource('me://profile');
    for (const other of [bob, alice2, anon]) await other.client.listTools();
    for (const other of [bob, alice2, anon]) await other.client.readResource('me://profile');
    expect(bob.server.requests.map((r) => r.method)).toEqual(['resources/read']);
    expect(alice2.server.requests).toEqual([]);
    expect(anon.server.requests.map((r) => r.method)).toEqual(['resources/read']);
    for (const each of [alice, bob, alice2, anon]) await each[Symbol.asyncDispose]();
  });

  it('a failing store never fails a call', async () => {
    const broken: CacheStore = {
      get: () => Promise.reject(new Error('down')),
      set: () => {
        throw new Error('down');
      },
      deletePrefix: () => Promise.reject(new Error('down')),
    };
    await using h = await harness(() => cacheable({ tools: [], ttlMs: 1000 }), { cache: { store: broken } });
    expect((await h.client.listTools()).tools).toEqual([]);
    expect((await h.client.listTools()).tools).toEqual([]);
  });

  it('checks its options', () => {
    expect(() => new ResultCache({ store: {} as never })).toThrow(TypeError);
    expect(() => new ResultCache({ authContext: 1 as never })).toThrow(TypeError);
    expect(() => createMemoryCacheStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe('createMemoryCacheStore and keys', () => {
  const entry = (result: unknown): CacheEntry => ({ result, expiresAt: 1 });

  it('copies in and out, evicts the oldest, deletes by prefix', () => {
    const store = createMemoryCacheStore({ maxEntries: 2 });
    const value = { tools: [1] };
    store.set('a', entry(value));
    value.tools.push(2);
    const read = store.get('a') as CacheEntry;
    expect(read.result).toEqual({ tools: [1] });
    (read.result as { tools: number[] }).tools.push(3);
    expect((store.get('a') as CacheEntry).result).toEqual({ tools: [1] });
    store.set('b', entry(2));
    store.set('c', entry(3));
    expect(store.get('a')).toBeUndefined();
    store.deletePrefix('b');
    expect(store.get('b')).toBeUndefined();
    expect(store.get('c')).toBeDefined();
  });

  it('keys start with their group, so a prefix drops exactly one method or one URI', () => {
    const read = cacheKey('resources/read', 'file:///a', 'public');
    expect(read.startsWith(groupPrefix('resources/read'))).toBe(true);
    expect(read.startsWith(groupPrefix('resources/read', 'file:///a'))).toBe(true);
    expect(
      cacheKey('resources/read', 'file:///ab', 'public').startsWith(
        groupPrefix('resources/read', 'file:///a'),
      ),
    ).toBe(false);
    expect(cacheKey('tools/list', null, 'private:x').startsWith(groupPrefix('tools/list'))).toBe(true);
  });
});
