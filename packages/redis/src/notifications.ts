// The notification bus on Redis pub/sub: PUBLISH through the user's client, SUBSCRIBE on a connection of our own
// (a duplicate of it: a subscribed connection can do nothing else). node-redis reconnects and resubscribes by
// itself; this file turns its events into the bus's `lost` / `restored`, so subscribers are told of the gap.
import { argumentError } from '@boomerang/protocol';
import {
  type BusNotificationOptions,
  busNotificationSource,
  type NotificationBus,
  type SharedNotificationSource,
} from '@boomerang/server';

/**
 * A connected node-redis client (`createClient()` of `redis` v5 or v6, after `await client.connect()`), as far as
 * {@link redisNotifications} uses it: `publish`, and `duplicate()` for the subscribing connection.
 */
export interface RedisClientLike {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisSubscriberLike;
}

/** The connection `duplicate()` returns, as far as the bus uses it. */
export interface RedisSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's own listener type, so node-redis clients fit.
  on(event: string, listener: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  off(event: string, listener: (...args: any[]) => void): unknown;
  /** v5 and v6: waits for pending replies, then closes. */
  close?(): Promise<unknown>;
  /** Older clients' graceful close. */
  quit?(): Promise<unknown>;
}

/** Options of {@link redisNotifications}. */
export interface RedisNotificationsOptions extends BusNotificationOptions {
  /**
   * The pub/sub channel (default `boomerang:notifications`): the instances that share a Redis and a channel share
   * their notifications. Name one per tenant or environment to keep them apart.
   */
  readonly channel?: string | undefined;
}

/**
 * The shared `NotificationSource` of `@boomerang/server` on Redis pub/sub: give every instance of a deployment one
 * over the same Redis (`new McpServer(info, { notifications: redisNotifications(client) })`) and a
 * `tools/list_changed`, `resources/updated` or `notifications/tasks` raised on any of them reaches the
 * `subscriptions/listen` streams of all of them, once each, in the order its instance published them (see
 * `busNotificationSource` for the guarantees).
 *
 * - `client` is yours, connected (`await createClient({ url }).connect()`), with your `'error'` handler: the
 *   source publishes through it and never closes it. It subscribes on `client.duplicate()`, a connection of its
 *   own opened on the first `subscribe` and closed by `close()`.
 * - Redis pub/sub forgets what it could not deliver: when the subscribing connection drops (Redis restarted, the
 *   network cut), every subscriber is told at once (the server ends its listen streams with an error; clients
 *   listen again) while node-redis reconnects and resubscribes with its reconnect strategy; `subscribe` waits for
 *   that meanwhile. A message lost any other way shows as a gap in its instance's sequence, and is told the same.
 * - Messages have no size limit worth naming (512 MB), so nothing is stored aside.
 *
 * Throws `TypeError` for a `client` without `publish` and `duplicate`, or an empty `channel`.
 */
export function redisNotifications(
  client: RedisClientLike,
  options: RedisNotificationsOptions,
): SharedNotificationSource {
  if (
    typeof client !== 'object' ||
    client === null ||
    typeof client.publish !== 'function' ||
    typeof client.duplicate !== 'function'
  ) {
    throw argumentError('client', 'a node-redis client (createClient() of the `redis` package)', client);
  }
  const { channel = 'boomerang:notifications' } = options ?? {};
  if (typeof channel !== 'string' || channel.length === 0) {
    throw argumentError('channel', 'a non-empty string', channel);
  }
  return busNotificationSource(redisBus(client, channel), { ...options, audience: `redis:${channel}` });
}

/** The bus: PUBLISH on `client`, SUBSCRIBE on a duplicate that reports its drops and recoveries. */
function redisBus(client: RedisClientLike, channel: string): NotificationBus {
  let subscriber: RedisSubscriberLike | undefined;
  let detach: (() => void) | undefined;
  return {
    async send(message) {
      await client.publish(channel, message);
    },
    async open(events) {
      const connection = client.duplicate();
      let live = false;
      const onError = (error: unknown) => {
        if (!live) return;
        live = false;
        events.lost(error instanceof Error ? error : new Error(String(error)));
      };
      const onReconnecting = () => onError(new Error('the Redis subscriber connection is reconnecting'));
      const onEnd = () => onError(new Error('the Redis subscriber connection ended'));
      // node-redis resubscribes before it says 'ready' again.
      const onReady = () => {
        if (live || subscriber !== connection) return;
        live = true;
        events.restored();
      };
      connection.on('error', onError);
      connection.on('reconnecting', onReconnecting);
      connection.on('end', onEnd);
      detach = () => {
        connection.off('reconnecting', onReconnecting);
        connection.off('end', onEnd);
        connection.off('ready', onReady);
        connection.off('error', onError);
        // A late error of a closed connection must not become an unhandled 'error' event.
        connection.on('error', () => {});
      };
      try {
        await connection.connect();
        await connection.subscribe(channel, (message) => events.message(message));
      } catch (error) {
        detach();
        detach = undefined;
        await closeConnection(connection);
        throw error;
      }
      subscriber = connection;
      live = true;
      connection.on('ready', onReady);
    },
    async close() {
      const connection = subscriber;
      subscriber = undefined;
      detach?.();
      detach = undefined;
      if (connection !== undefined) await closeConnection(connection);
    },
  };
}

async function closeConnection(connection: RedisSubscriberLike): Promise<void> {
  try {
    if (typeof connection.close === 'function') await connection.close();
    else await connection.quit?.();
  } catch {
    // Already closed, or never connected: nothing left to release.
  }
}
