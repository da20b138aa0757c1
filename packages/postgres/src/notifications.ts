// The notification bus on PostgreSQL: LISTEN/NOTIFY on one channel. On a server (`pg` Pool), one connection of the
// pool is held for LISTEN and replaced after a restart; on PGlite the bus is in-process (PGlite's own `listen`).
// NOTIFY payloads must stay under 8,000 bytes, so a larger message is stored in a table and its row id notified.
import { argumentError } from '@boomerang/protocol';
import {
  type BusNotificationOptions,
  busNotificationSource,
  type NotificationBus,
  type NotificationBusEvents,
  type SharedNotificationSource,
} from '@boomerang/server';
import { type PostgresDb, rowsOf } from './db.js';
import { migrateOnce } from './migrations.js';

/** Options of {@link postgresNotifications}. */
export interface PostgresNotificationsOptions extends Omit<BusNotificationOptions, 'keys' | 'audience'> {
  /**
   * The deployment's shared operator secrets, newest first: every message is sealed under them (see
   * `busNotificationSource`), so a database user who can `NOTIFY` the channel cannot make an instance deliver
   * anything. Required with a `pg` Pool; with PGlite (one process) a random per-process key is the default.
   */
  readonly keys?: readonly Uint8Array[] | undefined;
  /**
   * The NOTIFY channel (default `boomerang_notifications`): the instances that share a database and a channel
   * share their notifications. A lower-case SQL identifier (`[a-z_][a-z0-9_]*`, at most 63 characters).
   */
  readonly channel?: string | undefined;
  /**
   * How long the row of a large message (over {@link NOTIFY_INLINE_BYTES}) is kept for listeners to read, in
   * milliseconds (default 60,000). A listener that falls further behind misses it, and its subscribers are told.
   */
  readonly payloadRetentionMs?: number | undefined;
  /** First wait before the LISTEN connection is opened again after it dropped; doubles up to 2 s (default 100). */
  readonly reconnectDelayMs?: number | undefined;
}

/**
 * The largest message sent inline in a NOTIFY, in UTF-8 bytes: PostgreSQL refuses payloads of 8,000 bytes or
 * more, and a larger message goes through `boomerang_notification_payloads` (its NOTIFY carries `ref:<id>`).
 */
export const NOTIFY_INLINE_BYTES = 7_900;

/** A `pg` Pool, as far as this file uses it (the driver is never imported). */
interface PoolLike {
  connect(): Promise<PoolClientLike>;
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A client checked out of a `pg` Pool. */
interface PoolClientLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeAllListeners(event: string): unknown;
  release(destroy?: boolean | Error): void;
}

/** PGlite, as far as this file uses it. */
interface PGliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
/** How long closing waits for the LISTEN connection's `UNLISTEN` before it discards the connection instead. */
const UNLISTEN_TIMEOUT_MS = 1_000;
const REF = /^ref:(\d{1,19})$/;

/**
 * The shared `NotificationSource` of `@boomerang/server` on PostgreSQL: give every instance of a deployment one
 * over the same database (`new McpServer(info, { notifications: postgresNotifications(pool) })`) and a
 * `tools/list_changed`, `resources/updated` or `notifications/tasks` raised on any of them reaches the
 * `subscriptions/listen` streams of all of them, once each, in the order its instance published them (see
 * `busNotificationSource` for the guarantees and how subscribers are told of a loss).
 *
 * - **`pg` Pool**: publishing is `SELECT pg_notify(…)` on the pool; receiving holds one pooled connection for
 *   `LISTEN` (so size the pool one larger). When that connection drops (the server restarted, the network cut)
 *   the subscribers are told at once, and the connection is opened again in the background (100 ms, doubling to
 *   2 s); `subscribe` waits for it meanwhile. Attach a `pool.on('error', …)` handler as `pg` asks: a restart
 *   also breaks the pool's idle connections.
 * - **PGlite**: the bus is PGlite's in-process `listen`, for several servers in one process (tests, one-machine
 *   apps); it never drops.
 * - **Large notifications**: a message over {@link NOTIFY_INLINE_BYTES} is inserted into
 *   `boomerang_notification_payloads` and its id notified (`ref:<id>`); listeners read the row, in order. Rows
 *   older than `payloadRetentionMs` are deleted as new ones come.
 *
 * The schema's migrations are applied on first use. Throws `TypeError` for a `db` that is neither a PGlite
 * instance nor a `pg` Pool (a single `pg` Client cannot both LISTEN and be replaced after a restart) and for a
 * bad `channel`; `RangeError` for bad numbers.
 */
export function postgresNotifications(
  db: PostgresDb,
  options: PostgresNotificationsOptions = {},
): SharedNotificationSource {
  const { channel = 'boomerang_notifications' } = options;
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) {
    throw argumentError(
      'channel',
      'a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters)',
      channel,
    );
  }
  const retentionMs = positive(options.payloadRetentionMs ?? 60_000, 'payloadRetentionMs');
  const reconnectMs = positive(options.reconnectDelayMs ?? 100, 'reconnectDelayMs');
  const driver = driverOf(db);
  const migrated = migrateOnce(db);
  const payloads = payloadTable(db, retentionMs);
  const send = async (message: string): Promise<void> => {
    if (utf8Bytes(message) <= NOTIFY_INLINE_BYTES) {
      await db.query('SELECT pg_notify($1, $2)', [channel, message]);
      return;
    }
    await migrated();
    await payloads.store(channel, message);
  };
  const receiver = (events: NotificationBusEvents) =>
    inOrder(async (payload: string) => {
      const ref = REF.exec(payload);
      if (ref === null) {
        events.message(payload);
        return;
      }
      const text = await payloads.read(ref[1] as string).catch(() => undefined);
      // Read too late (pruned) or not at all: dropped here. A reference anyone can NOTIFY proves nothing, so it
      // never interrupts the subscribers itself; a real loss shows as a gap at its instance's next message.
      if (text !== undefined) events.message(text);
    });
  const bus =
    driver.kind === 'pglite'
      ? pgliteBus(driver.db, channel, send, receiver)
      : poolBus(driver.pool, channel, send, receiver, reconnectMs);
  const keys = options.keys ?? (driver.kind === 'pglite' ? [processKeyOf(db)] : undefined);
  if (keys === undefined) {
    throw argumentError(
      'keys',
      "the deployment's shared operator secrets (Uint8Array[], e.g. parseKeys(process.env.SEAL_KEYS)): with a pg Pool, bus messages are sealed so that only the instances can send them",
      options.keys,
    );
  }
  return busNotificationSource(bus, { ...options, keys, audience: `postgres:${channel}` });
}

/** One random key per PGlite database of this process: every source on it shares it, nothing outside has it. */
const pgliteKeys = new WeakMap<object, Uint8Array>();
function processKeyOf(db: object): Uint8Array {
  let key = pgliteKeys.get(db);
  if (key === undefined) {
    key = crypto.getRandomValues(new Uint8Array(32));
    pgliteKeys.set(db, key);
  }
  return key;
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/** `db` as the driver it is. */
type Driver =
  | { readonly kind: 'pglite'; readonly db: PGliteLike }
  | { readonly kind: 'pool'; readonly pool: PoolLike };

/** Which driver `db` is; throws `TypeError` for anything else (a single `pg` Client included). */
function driverOf(db: unknown): Driver {
  if (typeof db !== 'object' || db === null || !('query' in db) || typeof db.query !== 'function') {
    throw argumentError('db', 'a PGlite instance or a pg Pool', db);
  }
  if (isPGliteLike(db)) return { kind: 'pglite', db };
  if (isPoolLike(db)) return { kind: 'pool', pool: db };
  throw argumentError(
    'db',
    'a PGlite instance or a pg Pool (a single pg Client cannot hold LISTEN and be replaced after a restart)',
    db,
  );
}

/** PGlite: it can LISTEN itself. */
const isPGliteLike = (db: object): db is PGliteLike => 'listen' in db && typeof db.listen === 'function';

/** A `pg` Pool (a single Client has no `idleCount`). */
const isPoolLike = (db: object): db is PoolLike =>
  'connect' in db &&
  typeof db.connect === 'function' &&
  'idleCount' in db &&
  typeof db.idleCount === 'number';

/** Runs `handle` on each payload one at a time, in arrival order (a `ref:` read must not overtake). */
function inOrder(handle: (payload: string) => Promise<void>): (payload: string) => void {
  let chain = Promise.resolve();
  return (payload) => {
    chain = chain.then(() => handle(payload)).catch(() => {});
  };
}

/** The table of large messages: store one and notify its id, read one back, prune old rows now and then. */
function payloadTable(db: PostgresDb, retentionMs: number) {
  let stored = 0;
  return {
    async store(channel: string, message: string): Promise<void> {
      await rowsOf(
        db,
        `WITH stored AS (INSERT INTO boomerang_notification_payloads (payload) VALUES ($2) RETURNING id)
         SELECT pg_notify($1, 'ref:' || id) FROM stored`,
        [channel, message],
      );
      stored += 1;
      if (stored % 32 === 1) {
        await rowsOf(
          db,
          `DELETE FROM boomerang_notification_payloads WHERE created_at < now() - make_interval(secs => $1)`,
          [retentionMs / 1000],
        ).catch(() => {});
      }
    },
    async read(id: string): Promise<string | undefined> {
      const rows = await rowsOf(db, 'SELECT payload FROM boomerang_notification_payloads WHERE id = $1', [
        id,
      ]);
      const payload = rows[0]?.payload;
      return typeof payload === 'string' ? payload : undefined;
    },
  };
}

type Receiver = (events: NotificationBusEvents) => (payload: string) => void;

/** The bus on PGlite: its in-process `listen`. */
function pgliteBus(
  db: PGliteLike,
  channel: string,
  send: (message: string) => Promise<void>,
  receiver: Receiver,
): NotificationBus {
  let unlisten: (() => Promise<void>) | undefined;
  return {
    send,
    async open(events) {
      unlisten = await db.listen(channel, receiver(events));
    },
    async close() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

/** The bus on a `pg` Pool: one pooled connection holds LISTEN, and is replaced whenever it drops. */
function poolBus(
  pool: PoolLike,
  channel: string,
  send: (message: string) => Promise<void>,
  receiver: Receiver,
  reconnectMs: number,
): NotificationBus {
  let closed = false;
  let current: PoolClientLike | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  /** Checks out a connection and LISTENs on it; `onDrop` runs once when it breaks. */
  const listenOn = async (deliver: (payload: string) => void, onDrop: (reason: Error) => void) => {
    const client = await pool.connect();
    let dropped = false;
    const drop = (reason: Error) => {
      if (dropped) return;
      dropped = true;
      client.removeAllListeners('notification');
      if (current === client) current = undefined;
      client.release(reason);
      onDrop(reason);
    };
    client.on('notification', (message: { channel: string; payload?: string }) => {
      if (message.channel === channel && typeof message.payload === 'string') deliver(message.payload);
    });
    client.on('error', (error: Error) => drop(error));
    client.on('end', () => drop(new Error('the LISTEN connection ended')));
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      drop(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    if (closed) {
      dropped = true;
      client.removeAllListeners('notification');
      client.release(true);
      return;
    }
    current = client;
  };

  return {
    send,
    async open(events) {
      const deliver = receiver(events);
      const onDrop = (reason: Error) => {
        if (closed) return;
        events.lost(reason);
        let delay = reconnectMs;
        const attempt = () => {
          retry = undefined;
          if (closed) return;
          listenOn(deliver, onDrop).then(
            () => {
              if (closed) return;
              events.restored();
            },
            () => {
              delay = Math.min(delay * 2, 2000);
              if (!closed) retry = setTimeout(attempt, delay);
            },
          );
        };
        retry = setTimeout(attempt, delay);
      };
      await listenOn(deliver, onDrop);
    },
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      const client = current;
      current = undefined;
      if (client === undefined) return;
      client.removeAllListeners('notification');
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => {});
      // UNLISTEN, then the connection goes back to the pool. One that fails or does not answer within
      // UNLISTEN_TIMEOUT_MS is discarded instead (the server forgets its LISTEN with it): closing never waits on
      // a wedged connection, and a pool's `end()` is not left waiting for a connection never handed back.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const unlistened = await Promise.race([
        client.query(`UNLISTEN ${channel}`).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(resolve, UNLISTEN_TIMEOUT_MS, false);
        }),
      ]);
      clearTimeout(timer);
      client.release(unlistened ? undefined : true);
    },
  };
}

function utf8Bytes(text: string): number {
  // Fast path: every UTF-16 unit is at most 3 UTF-8 bytes.
  if (text.length * 3 <= NOTIFY_INLINE_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}
