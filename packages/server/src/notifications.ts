import type {
  PromptListChangedNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  SubscriptionFilter,
  ToolListChangedNotification,
} from '@boomerang/protocol';
import { argumentError } from '@boomerang/protocol';
import { consoleLogger } from '@boomerang/protocol/internal';
import type { TaskStatusNotification } from '@boomerang/protocol/tasks';

/**
 * A change a server announces to `subscriptions/listen` streams: one of the lists changed, one resource was
 * updated, or one task changed. It is the JSON-RPC notification as the protocol (or the tasks extension) defines
 * it, without the subscription's `_meta` (each stream adds its own `io.modelcontextprotocol/subscriptionId`).
 * Plain JSON, so a shared source can carry it between processes.
 */
export type SubscriptionNotification =
  | ToolListChangedNotification
  | PromptListChangedNotification
  | ResourceListChangedNotification
  | ResourceUpdatedNotification
  | TaskStatusNotification;

/** Receives the notifications of one subscription. */
export type SubscriptionListener = (notification: SubscriptionNotification) => void;

/** Stops a subscription; calling it again does nothing. */
export type Unsubscribe = () => void;

/** Options of {@link NotificationSource.subscribe}. */
export interface SubscribeOptions {
  /**
   * Called at most once when the source can no longer promise this subscription every notification: its bus
   * connection dropped (a restart, a network cut) or it saw that a message was lost. The subscription is over
   * then (nothing more is delivered to its listener; calling the `Unsubscribe` is still fine): the subscriber
   * re-reads what it follows and subscribes again. An in-process source never calls it.
   */
  readonly onInterrupted?: ((reason: Error) => void) | undefined;
}

/**
 * Where a {@link Server}'s `subscriptions/listen` streams get their notifications from, and where
 * `server.notifyListChanged()` / `server.notifyResourceUpdated()` put them. Give the same source to several
 * `Server` instances (replicas behind a load balancer, one per process) and a change published on any of them
 * reaches the listeners of all of them: the in-process default is {@link createNotificationHub}; a shared one
 * (Redis pub/sub, Postgres `LISTEN`, a message bus) implements these two methods.
 *
 * Contract:
 * - `publish` delivers `notification` to every current subscriber whose filter it matches (see
 *   {@link notificationMatches}); it may resolve before delivery (fire and forget), and it may reject when the
 *   backend is down (the server logs that; the caller of `notifyListChanged` is not failed).
 * - `subscribe` starts delivering to `listener` and resolves to the function that stops it; the server sends
 *   the acknowledgement only after it resolved, so nothing published after the acknowledgement is missed.
 *   Filtering by `filter` is an optimisation (a backend may subscribe to fewer channels): the server filters
 *   again and never sends a kind the client did not ask for. `listener` never throws.
 * - A shared source delivers each notification once to each subscriber, in the order it was published on the
 *   instance that published it; when it cannot (its bus connection dropped, a message was lost), it calls the
 *   subscription's `onInterrupted` and ends it, so that nobody waits silently for what will never come. The
 *   server then ends the `subscriptions/listen` stream with an error, and the client listens again.
 * - Nothing here knows users: a `notifications/resources/updated` for a URI reaches every subscriber of that
 *   URI. Keep URIs that reveal private data out of it, or scope the source per tenant. Who may subscribe to a
 *   task id is decided when the stream is agreed (the tasks extension agrees only to the caller's own tasks);
 *   a `notifications/tasks` carries the task's result, so a shared source must be a trusted backend.
 */
export interface NotificationSource {
  /** Announces one change to every matching subscriber (on every server sharing this source). */
  publish(notification: SubscriptionNotification): void | Promise<void>;
  /**
   * Starts delivering matching notifications to `listener`; resolves to the function that stops it. A shared
   * source tells `options.onInterrupted` when it lost its bus (see {@link SubscribeOptions}); it may reject when
   * the bus stays unreachable.
   */
  subscribe(
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    options?: SubscribeOptions,
  ): Unsubscribe | Promise<Unsubscribe>;
}

/**
 * True when `notification` is of a kind `filter` asked for: `toolsListChanged`, `promptsListChanged`,
 * `resourcesListChanged`, a `notifications/resources/updated` whose `uri` is one of `resourceSubscriptions`, or a
 * `notifications/tasks` whose `taskId` is one of `taskIds` (the tasks extension's member; ids and URIs compared
 * as exact strings). For shared sources that filter on their side.
 */
export function notificationMatches(
  filter: SubscriptionFilter,
  notification: SubscriptionNotification,
): boolean {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated': {
      const uri: unknown = notification.params?.uri;
      return typeof uri === 'string' && (filter.resourceSubscriptions?.includes(uri) ?? false);
    }
    case 'notifications/tasks': {
      const taskId: unknown = notification.params?.taskId;
      return typeof taskId === 'string' && Array.isArray(filter.taskIds) && filter.taskIds.includes(taskId);
    }
    default:
      return false;
  }
}

/**
 * The in-process {@link NotificationSource}: subscribers live in a `Set`, `publish` calls the matching ones
 * synchronously, in subscription order. Share one hub between the `Server`s of one process; for several
 * processes use a shared source. A listener that throws is reported to `console.warn` and skipped; the others
 * still run.
 */
export function createNotificationHub(): NotificationSource {
  const subscribers = new Set<{ filter: SubscriptionFilter; listener: SubscriptionListener }>();
  return {
    publish(notification) {
      for (const subscriber of [...subscribers]) {
        if (!notificationMatches(subscriber.filter, notification)) continue;
        try {
          subscriber.listener(notification);
        } catch (error) {
          consoleLogger.warn('a subscription listener threw', { error });
        }
      }
    },
    subscribe(filter, listener) {
      if (typeof listener !== 'function') {
        throw argumentError('listener', 'a function', listener);
      }
      const subscriber = { filter, listener };
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },
  };
}
