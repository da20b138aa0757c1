import { rateLimit, Server } from '@boomerang/server';
import { type RedisServer, redisMissing, startRedis } from '@boomerang/test-kit/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitedInstance } from './rate-limit-store.examples.js';
import { redisRateLimitStore } from './rate-limit-store.js';

describe('redisRateLimitStore', () => {
  it('refuses what is not a node-redis client, and a bad prefix', () => {
    expect(() => redisRateLimitStore({} as never)).toThrow(TypeError);
    expect(() => redisRateLimitStore(createClient(), { prefix: 3 as never })).toThrow(TypeError);
  });
});

describe.skipIf(redisMissing !== undefined)(`redisRateLimitStore on Redis ${redisMissing ?? ''}`, () => {
  let redis: RedisServer;
  const clients: { close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await redis?.stop();
  });
  const client = async () => {
    const made = createClient({ url: redis.url });
    made.on('error', () => {});
    await made.connect();
    clients.push(made);
    return made;
  };

  it('two instances racing on one bucket take exactly its tokens, then say when the next comes back', async () => {
    const [a, b] = [redisRateLimitStore(await client()), redisRateLimitStore(await client())];
    const rule = { capacity: 5, perMs: 60_000 };
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('race', rule)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused.every((d) => d.retryAfterMs > 0 && d.retryAfterMs <= 12_000)).toBe(true);
    // Another key has its own bucket; after a refill the bucket gives again.
    expect((await a.take('other', rule)).allowed).toBe(true);
    const quick = { capacity: 1, perMs: 100 };
    expect((await a.take('quick', quick)).allowed).toBe(true);
    expect((await b.take('quick', quick)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await b.take('quick', quick)).allowed).toBe(true);
  });

  it('limits a principal across two servers sharing it; the script is loaded again after SCRIPT FLUSH', async () => {
    const shared = await client();
    const serve = () =>
      new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) }).use(
        rateLimit({
          requests: 3,
          perMs: 60_000,
          store: redisRateLimitStore(shared, { prefix: 'test:fleet:' }),
        }),
      );
    const [one, two] = [serve(), serve()];
    const call = (server: Server) =>
      server.handle(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { auth: { clientId: 'c', issuer: 'https://as', subject: 'ada' } },
      );
    const outcomes = [await call(one), await call(two), await call(one)];
    expect(outcomes.every((o) => o !== undefined && 'result' in o)).toBe(true);
    await shared.sendCommand(['SCRIPT', 'FLUSH']);
    expect(await call(two)).toMatchObject({
      error: { code: -32029, data: { retryAfterMs: expect.any(Number) } },
    });
  });

  it('the guide’s example: an McpServer limited through the shared Redis', async () => {
    const mcp = limitedInstance(await client());
    mcp.tool('ping', {}, () => ({ content: [] }));
    const response = await mcp.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    expect(response).toMatchObject({ result: { tools: [{ name: 'ping' }] } });
  });
});
