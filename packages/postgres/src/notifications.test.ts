import { McpServer } from '@boomerang/mcp-server';
import { generateKey } from '@boomerang/seal';
import {
  type SharedSourceBackend,
  sharedNotificationSourceSuite,
} from '@boomerang/test-kit/notification-source';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTIFY_INLINE_BYTES, postgresNotifications } from './notifications.js';

const quiet = () => {};
const keys = [generateKey()];

/** Pools that survive a server restart: a broken idle connection is an 'error' on the pool, handled here. */
function newPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  return pool;
}

sharedNotificationSourceSuite(
  'PGlite (in-process)',
  async (): Promise<SharedSourceBackend> => {
    const db = new PGlite();
    return {
      source: () => postgresNotifications(db, { warn: quiet }),
      inject: async (text) =>
        void (await db.query('SELECT pg_notify($1, $2)', ['boomerang_notifications', text])),
      close: () => db.close(),
    };
  },
  { inProcess: true },
);

sharedNotificationSourceSuite(
  'PostgreSQL 15 (pg Pools, one per instance)',
  async (): Promise<SharedSourceBackend> => {
    const server = await startPostgres();
    const pools: pg.Pool[] = [];
    return {
      source() {
        const pool = newPool(server.url);
        pools.push(pool);
        return postgresNotifications(pool, { keys, warn: quiet, reconnectDelayMs: 50 });
      },
      restart: () => server.restart(200),
      async inject(text) {
        const pool = newPool(server.url);
        pools.push(pool);
        await pool.query('SELECT pg_notify($1, $2)', ['boomerang_notifications', text]);
      },
      async close() {
        // The test's own pools: ended, but never waited on for more than 10 s (a pg pool can wait forever on a
        // connection a restart broke); stopping the server then cuts whatever is left.
        const ended = Promise.all(pools.map((pool) => pool.end().catch(() => {})));
        await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
        await server.stop();
      },
    };
  },
  { skip: postgresMissing },
);

describe('postgresNotifications', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = new PGlite();
    await db.waitReady;
  }, 60_000);
  afterAll(() => db.close());

  it('refuses what is neither PGlite nor a pg Pool, and bad options', () => {
    expect(() => postgresNotifications({} as never)).toThrow(
      new TypeError('"db" expected a PGlite instance or a pg Pool, got object'),
    );
    const client = new pg.Client({ connectionString: 'postgres://127.0.0.1:1/x' });
    expect(() =>
      postgresNotifications(new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/x' })),
    ).toThrow(/"keys" expected the deployment's shared operator secrets/);
    expect(() => postgresNotifications(client)).toThrow(
      /a single pg Client cannot hold LISTEN and be replaced after a restart/,
    );
    const fake = { query: async () => ({ rows: [] }), listen: async () => async () => {} };
    expect(() => postgresNotifications(fake, { channel: 'Bad-Name; DROP TABLE x' })).toThrow(
      new TypeError(
        '"channel" expected a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), got string',
      ),
    );
    expect(() => postgresNotifications(fake, { payloadRetentionMs: 0 })).toThrow(
      new RangeError('"payloadRetentionMs" expected a positive integer, got 0'),
    );
    expect(() => postgresNotifications(fake, { reconnectDelayMs: 1.5 })).toThrow(
      new RangeError('"reconnectDelayMs" expected a positive integer, got 1.5'),
    );
  });

  it('closes without waiting on a LISTEN connection that does not answer UNLISTEN: the connection is discarded', async () => {
    /** A pg Pool stand-in whose one connection answers LISTEN, and UNLISTEN only if `answers`. */
    const poolOf = (answers: boolean) => {
      const released: unknown[] = [];
      const client = {
        query: (text: string) =>
          text.startsWith('UNLISTEN') && !answers ? new Promise(() => {}) : Promise.resolve({ rows: [] }),
        on: () => client,
        removeAllListeners: () => client,
        release: (destroy?: boolean | Error) => {
          released.push(destroy);
        },
      };
      const pool = { idleCount: 0, query: async () => ({ rows: [] }), connect: async () => client };
      return { pool, released };
    };

    const wedged = poolOf(false);
    const source = postgresNotifications(wedged.pool, { keys, warn: quiet });
    await source.subscribe({ toolsListChanged: true }, () => {});
    const started = Date.now();
    await source.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(wedged.released).toEqual([true]); // destroyed, not handed back to the pool

    const healthy = poolOf(true);
    const other = postgresNotifications(healthy.pool, { keys, warn: quiet });
    await other.subscribe({ toolsListChanged: true }, () => {});
    await other.close();
    expect(healthy.released).toEqual([undefined]); // UNLISTENed, back to the pool
  });

  it('keeps channels apart on one database', async () => {
    const a = postgresNotifications(db, { channel: 'tenant_a' });
    const b = postgresNotifications(db, { channel: 'tenant_b' });
    const heard = { a: 0, b: 0 };
    await a.subscribe({ toolsListChanged: true }, () => heard.a++);
    await b.subscribe({ toolsListChanged: true }, () => heard.b++);
    await a.publish({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(heard.a).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.b).toBe(0);
    await a.close();
    await b.close();
  });

  it('stores a message over NOTIFY_INLINE_BYTES in the payload table and notifies its id', async () => {
    const source = postgresNotifications(db);
    const raw: string[] = [];
    const unlisten = await db.listen('boomerang_notifications', (payload) => raw.push(payload));
    const got: unknown[] = [];
    await source.subscribe(
      { resourceSubscriptions: ['x:small', `x:${'b'.repeat(NOTIFY_INLINE_BYTES)}`] },
      (n) => got.push(n),
    );
    await source.publish({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'x:small' },
    });
    await source.publish({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: `x:${'b'.repeat(NOTIFY_INLINE_BYTES)}` },
    });
    await vi.waitFor(() => expect(got).toHaveLength(2));
    expect(raw[0]).toMatch(/^[A-Za-z0-9_-]+$/); // sealed: nothing readable on the channel
    expect(raw[1]).toMatch(/^ref:\d+$/);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM boomerang_notification_payloads',
    );
    expect(rows[0]?.n).toBe(1);
    await unlisten();
    await source.close();
  });

  it('drops a reference to a row that is gone (anyone can NOTIFY one) without interrupting anybody', async () => {
    const source = postgresNotifications(db, { warn: quiet });
    const interrupted = vi.fn();
    const heard = vi.fn();
    await source.subscribe({ toolsListChanged: true }, heard, { onInterrupted: interrupted });
    await db.query(`SELECT pg_notify('boomerang_notifications', 'ref:999999')`);
    await source.publish({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(1));
    expect(interrupted).not.toHaveBeenCalled();
    await source.close();
  });
});

describe.skipIf(postgresMissing !== undefined)(
  `McpServer instances on one PostgreSQL ${postgresMissing ?? ''}`,
  () => {
    let server: PostgresServer;
    const pools: pg.Pool[] = [];
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
      await server?.stop();
    }, 60_000);

    it('a tool added on one instance reaches the listen streams of the other; a restart ends them with -32603', async () => {
      const sources = [0, 1].map(() => {
        const pool = newPool(server.url);
        pools.push(pool);
        return postgresNotifications(pool, { keys, warn: quiet, reconnectDelayMs: 50 });
      });
      const instances = sources.map((notifications) => {
        return new McpServer(
          { name: 'shop', version: '1.0.0' },
          { notifications, logger: { warn: quiet, error: quiet } },
        );
      });
      const [first, second] = instances as [McpServer, McpServer];
      first.tool('ping', {}, () => ({ content: [] }));
      second.tool('ping', {}, () => ({ content: [] }));
      const sent: { method: string }[] = [];
      const response = second.handle(
        {
          jsonrpc: '2.0',
          id: 'L',
          method: 'subscriptions/listen',
          params: {
            notifications: { toolsListChanged: true },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { notify: (n) => void sent.push(n) },
      );
      await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 10_000 });
      // The registrations above publish too, on their way through the database: let them arrive first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = sent.length;
      first.tool('added', {}, () => ({ content: [] }));
      await vi.waitFor(() => expect(sent).toHaveLength(before + 1), { timeout: 10_000 });
      expect(sent[0]?.method).toBe('notifications/subscriptions/acknowledged');
      expect(sent[before]?.method).toBe('notifications/tools/list_changed');
      await server.restart(100);
      const answer = (await response) as { error?: { code: number; message: string } };
      expect(answer.error?.code).toBe(-32603);
      expect(answer.error?.message).toMatch(/^Notifications were interrupted/);
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(sources.map((source) => source.close()));
    }, 60_000);
  },
);
