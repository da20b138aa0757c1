import type {
  JSONRPCNotification,
  PromptListChangedNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  SubscriptionFilter,
  ToolListChangedNotification,
} from '@boomerang/protocol';
import type { TaskStatusNotification } from '@boomerang/protocol/tasks';

/**
 * What a `subscriptions/listen` stream delivers after its acknowledgement: the list and resource changes, and
 * `notifications/tasks` for the tasks named in `taskIds` (the tasks extension).
 */
export type ListenNotification =
  | ToolListChangedNotification
  | PromptListChangedNotification
  | ResourceListChangedNotification
  | ResourceUpdatedNotification
  | TaskStatusNotification;

/** Options of `client.listen()`. */
export interface ListenOptions {
  /** Ends the subscription (the request is cancelled); the iteration then rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * An open `subscriptions/listen` stream: iterate it with `for await`. The request is sent when `listen()` is
 * called; notifications that arrive before you iterate are buffered. The iteration:
 *
 * - yields each `notifications/{tools,prompts,resources}/list_changed`, `notifications/resources/updated` and
 *   `notifications/tasks` of this subscription, in order (the acknowledgement is {@link Subscription.acknowledged}, not yielded;
 *   other kinds are ignored);
 * - ends (`done`) when the server ends the subscription gracefully (its result, or `notifications/cancelled`);
 * - ends when you `break` (or call `close()`): the request is cancelled, so the server stops sending
 *   (`notifications/cancelled` on stdio and in memory, the event stream closed over HTTP);
 * - rejects with the server's `McpError` (e.g. `-32601`: the server has no subscriptions), with
 *   a `closed` `ClientError` when the connection drops (an unexpected end: listen again to resume), or with
 *   `signal.reason` when the `signal` option aborts.
 *
 * It can be iterated once. Close it if you stop iterating without `break`, or its buffer keeps growing.
 */
export interface Subscription extends AsyncIterable<ListenNotification>, AsyncDisposable {
  /**
   * The filter the server agreed to honour (from `notifications/subscriptions/acknowledged`): compare it with
   * what you asked for. Rejects like the iteration when the subscription fails before its acknowledgement.
   */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Cancels the subscription (as `break` does) and ends the iteration. Idempotent. */
  close(): Promise<void>;
}

/** What a subscription needs from the client: send the listen request with this signal and notification sink. */
export type OpenListen = (
  signal: AbortSignal,
  onnotification: (notification: JSONRPCNotification) => void,
) => Promise<unknown>;

const LISTEN_KINDS: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/tasks',
]);

/** The reason the listen request is cancelled with when the consumer breaks out or closes. */
class SubscriptionClosed extends Error {
  override readonly name = 'SubscriptionClosed';
}

/**
 * Opens a subscription: calls `open` at once and turns what arrives into a {@link Subscription}. `seen` is told
 * about every notification as it arrives, iterated or not (the client's cache invalidates on it).
 */
export function createSubscription(
  open: OpenListen,
  options: ListenOptions,
  seen: (notification: ListenNotification) => void,
): Subscription {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const buffer: ListenNotification[] = [];
  let outcome: { done: true } | { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let iterated = false;
  let ack!: { resolve(filter: SubscriptionFilter): void; reject(error: unknown): void };
  const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
    ack = { resolve, reject };
  });
  acknowledged.catch(() => {});

  const finish = (end: { done: true } | { error: unknown }) => {
    if (outcome !== undefined) return;
    outcome = end;
    options.signal?.removeEventListener('abort', onAbort);
    ack.reject('error' in end ? end.error : new Error('the subscription ended before its acknowledgement'));
    wake?.();
  };

  const onnotification = (notification: JSONRPCNotification) => {
    if (outcome !== undefined) return;
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      const filter = (notification.params as { notifications?: SubscriptionFilter } | undefined)
        ?.notifications;
      ack.resolve(filter ?? {});
      return;
    }
    if (!LISTEN_KINDS.has(notification.method)) return;
    const change = notification as ListenNotification;
    seen(change);
    buffer.push(change);
    wake?.();
  };

  open(controller.signal, onnotification).then(
    () => finish({ done: true }),
    (error: unknown) =>
      finish(error instanceof SubscriptionClosed ? { done: true } : { error: error ?? new Error('aborted') }),
  );

  const close = async () => {
    if (outcome === undefined) controller.abort(new SubscriptionClosed('the client closed the subscription'));
    finish({ done: true });
    buffer.length = 0;
  };

  return {
    acknowledged,
    close,
    [Symbol.asyncDispose]: close,
    [Symbol.asyncIterator](): AsyncIterator<ListenNotification> {
      if (iterated) throw new TypeError('a Subscription can be iterated only once');
      iterated = true;
      return {
        async next(): Promise<IteratorResult<ListenNotification>> {
          for (;;) {
            const next = buffer.shift();
            if (next !== undefined) return { done: false, value: next };
            if (outcome !== undefined) {
              if ('error' in outcome) throw outcome.error;
              return { done: true, value: undefined };
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
          }
        },
        async return(): Promise<IteratorResult<ListenNotification>> {
          await close();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
