import { generateKey } from '@boomerang/seal';
import {
  type SharedSourceBackend,
  sharedNotificationSourceSuite,
} from '@boomerang/test-kit/notification-source';
import { type RedisServer, redisMissing, startRedis } from '@boomerang/test-kit/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisNotifications } from './notifications.js';

const quiet = () => {};
const keys = [generateKey()];

/** A connected client that keeps retrying quickly while Redis is down (and says nothing about it). */
async function connected(url: string) {
  const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', quiet);
  await client.connect();
  return client;
}

sharedNotificationSourceSuite(
  'Redis 7 pub/sub (one client per instance)',
  async (): Promise<SharedSourceBackend> => {
    const server = await startRedis();
    const clients: Awaited<ReturnType<typeof connected>>[] = [];
    return {
      async source() {
        const client = await connected(server.url);
        clients.push(client);
        return redisNotifications(client, { keys, warn: quiet });
      },
      restart: () => server.restart(200),
      async inject(text) {
        const client = await connected(server.url);
        clients.push(client);
        await client.publish('boomerang:notifications', text);
      },
      async close() {
        await Promise.all(clients.map((client) => client.close().catch(() => {})));
        await server.stop();
      },
    };
  },
  { skip: redisMissing },
);

describe('redisNotifications', () => {
  it('refuses what is not a node-redis client, and an empty channel', () => {
    expect(() => redisNotifications(createClient(), {} as never)).toThrow(/"keys" expected/);
    expect(() => redisNotifications({} as never, { keys })).toThrow(
      new TypeError(
        '"client" expected a node-redis client (createClient() of the `redis` package), got object',
      ),
    );
    const client = createClient();
    expect(() => redisNotifications(client, { keys, channel: '' })).toThrow(
      new TypeError('"channel" expected a non-empty string, got string'),
    );
  });
});

describe.skipIf(redisMissing !== undefined)(`redisNotifications on Redis ${redisMissing ?? ''}`, () => {
  let server: RedisServer;
  const clients: Awaited<ReturnType<typeof connected>>[] = [];
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await server?.stop();
  });
  const client = async () => {
    const made = await connected(server.url);
    clients.push(made);
    return made;
  };

  it('keeps channels apart, and ignores (and reports) foreign messages on its channel', async () => {
    const warned: string[] = [];
    const a = redisNotifications(await client(), { keys, channel: 'tenant-a', warn: (m) => warned.push(m) });
    const b = redisNotifications(await client(), { keys, channel: 'tenant-b' });
    const heard = { a: 0, b: 0 };
    await a.subscribe({ toolsListChanged: true }, () => heard.a++);
    await b.subscribe({ toolsListChanged: true }, () => heard.b++);
    const raw = await client();
    await raw.publish('tenant-a', 'not json');
    await a.publish({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(heard.a).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.b).toBe(0);
    expect(warned).toEqual([
      'messages on the notification bus were refused (not sealed with these keys, or not believable)',
    ]);
    await a.close();
    await b.close();
  });

  it('subscribe waits while Redis is down and rejects after connectTimeoutMs; the client stays yours', async () => {
    const mine = await client();
    const source = redisNotifications(mine, { keys, connectTimeoutMs: 300, warn: quiet });
    await source.subscribe({}, quiet);
    const restarting = server.restart(1500); // down for 1.5 s
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(source.subscribe({}, quiet)).rejects.toThrow(
      'the notification bus did not answer within 300 ms',
    );
    await restarting;
    // Subscribing works again once the subscriber connection is back.
    await vi.waitFor(() => source.subscribe({}, quiet), { timeout: 10_000, interval: 100 });
    await source.close();
    expect(mine.isOpen).toBe(true);
  }, 30_000);
});
