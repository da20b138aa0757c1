import { readFileSync } from 'node:fs';
import { Client } from '@boomerang/client';
import { generateKey } from '@boomerang/seal';
import { type RedisServer, redisMissing, startRedis } from '@boomerang/test-kit/redis';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetInstance } from './redis.examples.js';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./redis.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\s*\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['instance', 'close']);
    for (const [, , body] of regions) {
      const dedented = (body as string).replace(/^ {6}|^ {2}/gm, '').trim();
      expect(readme).toContain(dedented);
    }
  });
});

describe.skipIf(redisMissing !== undefined)(`two instances over one Redis ${redisMissing ?? ''}`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(() => redis?.stop());

  it('a tool added on one instance reaches a client listening through the other', async () => {
    const keys = [generateKey()];
    const [one, two] = await Promise.all([fleetInstance(redis.url, keys), fleetInstance(redis.url, keys)]);
    one.mcp.tool('check_stock', {}, () => ({ content: [{ type: 'text', text: '3 in stock' }] }));
    two.mcp.tool('check_stock', {}, () => ({ content: [{ type: 'text', text: '3 in stock' }] }));
    const endpoint = await listen(two.mcp, { port: 0 });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(endpoint.url));
    try {
      const subscription = client.listen({ toolsListChanged: true });
      expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
      // What the registrations above announced may still be on its way: wait for quiet, then add a tool.
      const seen: string[] = [];
      const reading = (async () => {
        for await (const notification of subscription) seen.push(notification.method);
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = seen.length;
      one.mcp.tool('order_book', {}, () => ({ content: [] }));
      const deadline = Date.now() + 10_000;
      while (seen.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(seen.slice(before)).toEqual(['notifications/tools/list_changed']);
      await subscription.close();
      await reading;
    } finally {
      await client.close();
      await endpoint.close();
      await one.close();
      await two.close();
    }
  }, 30_000);
});
