import { readFileSync } from 'node:fs';
import { createDpopSession } from '@boomerang/auth';
import { generateDpopKey } from '@boomerang/auth/jwt';
import { type RedisServer, redisMissing, startRedis } from '@boomerang/test-kit/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetDpopVerifier } from './replay-cache.examples.js';
import { redisReplayCache } from './replay-cache.js';

const quiet = () => {};

describe('redisReplayCache', () => {
  it('README.md quotes the example verbatim', () => {
    const source = readFileSync(new URL('./replay-cache.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const region = /\/\/ #region replay\n([\s\S]*?)\n+\s*\/\/ #endregion replay/.exec(source)?.[1];
    expect(region).toBeDefined();
    expect(readme).toContain((region as string).replace(/^ {2}/gm, '').trim());
  });

  it('refuses what is not a node-redis client, and wrong options and arguments', async () => {
    expect(() => redisReplayCache({} as never)).toThrow(
      new TypeError(
        '"client" expected a node-redis client (createClient() of the `redis` package), got object',
      ),
    );
    expect(() => redisReplayCache(null as never)).toThrow(TypeError);
    const client = createClient();
    expect(() => redisReplayCache(client, { prefix: 5 as never })).toThrow(
      new TypeError('"prefix" expected a string, got number'),
    );
    expect(() => redisReplayCache(client, { now: 'soon' as never })).toThrow(TypeError);
    const cache = redisReplayCache(client);
    await expect(cache.remember(5 as never, 10)).rejects.toThrow(TypeError);
    await expect(cache.remember('k', Number.POSITIVE_INFINITY)).rejects.toThrow(TypeError);
    // An expired key is not written (the verifier refuses such a proof on `iat` before asking).
    expect(await cache.remember('k', Date.now() / 1000 - 1)).toBe('window');
  });
});

describe.skipIf(redisMissing !== undefined)(`redisReplayCache on Redis ${redisMissing ?? ''}`, () => {
  let server: RedisServer;
  const clients: { close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(quiet)));
    await server?.stop();
  });
  /** A connected client: one per instance of the fleet. */
  const client = async () => {
    const made = createClient({ url: server.url });
    made.on('error', quiet);
    await made.connect();
    clients.push(made);
    return made;
  };

  it('records a key once across instances, until it expires, under its prefix', async () => {
    const [a, b] = [await client(), await client()];
    const expiresAt = Date.now() / 1000 + 70;
    const one = redisReplayCache(a, { prefix: 'test:once:' });
    const other = redisReplayCache(b, { prefix: 'test:once:' });
    expect(await one.remember('jkt:jti-1', expiresAt)).toBe(true);
    expect(await other.remember('jkt:jti-1', expiresAt)).toBe(false);
    expect(await one.remember('jkt:jti-1', expiresAt)).toBe(false);
    // Redis holds the key for the proof's remaining life, no longer.
    const ttl = await a.pTTL('test:once:jkt:jti-1');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(70_000);
    // Another prefix is another fleet.
    expect(await redisReplayCache(b, { prefix: 'test:elsewhere:' }).remember('jkt:jti-1', expiresAt)).toBe(
      true,
    );
    // A key Redis has dropped (as it does when the proof expires) is new again.
    await a.del('test:once:jkt:jti-1');
    expect(await other.remember('jkt:jti-1', expiresAt)).toBe(true);
  });

  it('accepts each proof once when two instances (two verifiers, two clients) race on it', async () => {
    const fleet = [await fleetDpopVerifier(server.url), await fleetDpopVerifier(server.url)];
    clients.push(...fleet);
    const session = createDpopSession(await generateDpopKey());
    const url = 'https://mcp.example.com/mcp';
    const rounds = 50;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, async () => {
        const proof = await session.proof('POST', new URL(url));
        // Both instances at once, the same proof: Redis orders the two SET NX, and one of them wins.
        const both = await Promise.all(
          fleet.map(({ dpop }) =>
            dpop.verify(new Request(url, { method: 'POST', headers: { dpop: proof } })),
          ),
        );
        return both.map((outcome) => (outcome.valid ? 'valid' : outcome.reason)).sort();
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: rounds }, () => ['replay', 'valid']));
  });

  it('rejects, so the request fails closed, when Redis refuses the write', async () => {
    const mine = await client();
    const cache = redisReplayCache(mine, { prefix: 'test:closed:' });
    await mine.sendCommand(['CONFIG', 'SET', 'maxmemory', '1']); // noeviction (the default): writes are refused
    try {
      await expect(cache.remember('jkt:jti', Date.now() / 1000 + 70)).rejects.toThrow(/OOM/);
    } finally {
      await mine.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']);
    }
  });
});
