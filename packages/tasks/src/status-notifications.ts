// `notifications/tasks` on `subscriptions/listen` streams: which task ids a stream may have (its principal's own
// live tasks), and the notification published through the server's NotificationSource whenever what a client
// sees of a task changes. A shared source carries it to the streams of every instance.
import { ErrorCode, McpError, type SubscriptionFilter } from '@boomerang/protocol';
import type { TaskStatusNotification } from '@boomerang/protocol/tasks';
import type { ExtensionSubscriptions, LogFn, NotificationSource, RequestContext } from '@boomerang/server';
import type { TaskRecord } from './store.js';
import { detailedTask } from './wire.js';

/** Most task ids one `subscriptions/listen` may name (each is read from the store when the stream is agreed). */
export const MAX_LISTEN_TASK_IDS = 100;

/** What the runtime needs to agree to streams and to publish. */
export interface StatusNotificationsInit {
  /** Throws `-32021` when the request did not declare the extension. */
  readonly requireExtension: (ctx: RequestContext) => void;
  /** True when the request's principal owns the live (unexpired) task `taskId`. */
  readonly visible: (taskId: string, ctx: RequestContext) => Promise<boolean>;
  readonly warn: LogFn;
}

/** The extension's `subscriptions` member, and the hook every successful write calls. */
export interface StatusNotifications {
  readonly subscriptions: ExtensionSubscriptions;
  /** Publishes `after` as `notifications/tasks` when what `tasks/get` shows of it differs from `before`. */
  changed(before: TaskRecord, after: TaskRecord): void;
}

/**
 * `taskIds` agreed per request: `-32021` without the extension, `-32602` for a member that is not an array of
 * at most {@link MAX_LISTEN_TASK_IDS} strings; ids of unknown, expired and foreign tasks are left out of the
 * acknowledgement alike (as `tasks/get` answers them alike), so a stream only ever hears about its principal's
 * own tasks. Publishing goes to every source of every server the extension is attached to.
 */
export function statusNotifications(init: StatusNotificationsInit): StatusNotifications {
  const sources = new Set<NotificationSource>();

  const agree = async (filter: SubscriptionFilter, ctx: RequestContext): Promise<SubscriptionFilter> => {
    init.requireExtension(ctx);
    const { taskIds } = filter;
    if (!Array.isArray(taskIds) || taskIds.some((id) => typeof id !== 'string')) {
      throw new McpError(
        ErrorCode.InvalidParams,
        'Invalid params: notifications.taskIds expected an array of strings',
      );
    }
    const wanted = [...new Set(taskIds as string[])];
    if (wanted.length > MAX_LISTEN_TASK_IDS) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: notifications.taskIds names ${wanted.length} tasks, over this server's ${MAX_LISTEN_TASK_IDS}`,
      );
    }
    const seen = await Promise.all(wanted.map((taskId) => init.visible(taskId, ctx)));
    const agreed = wanted.filter((_, i) => seen[i]);
    return agreed.length === 0 ? {} : { taskIds: agreed };
  };

  const subscriptions: ExtensionSubscriptions = {
    members: ['taskIds'],
    agree,
    attach(source) {
      sources.add(source);
      return () => {
        sources.delete(source);
      };
    },
  };

  const changed = (before: TaskRecord, after: TaskRecord): void => {
    if (sources.size === 0 || !observablyDifferent(before, after)) return;
    const notification: TaskStatusNotification = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: detailedTask(after),
    };
    for (const source of sources) {
      Promise.resolve()
        .then(() => source.publish(notification))
        .catch((failure: unknown) =>
          init.warn(`task ${after.taskId}: the notification source failed to publish its status`, {
            failure,
          }),
        );
    }
  };

  return { subscriptions, changed };
}

/** True when `tasks/get` would answer differently (beyond `lastUpdatedAt`): status, message or questions. */
function observablyDifferent(before: TaskRecord, after: TaskRecord): boolean {
  return (
    before.status !== after.status ||
    before.statusMessage !== after.statusMessage ||
    JSON.stringify(before.inputRequests ?? null) !== JSON.stringify(after.inputRequests ?? null)
  );
}
