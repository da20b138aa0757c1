import {
  ErrorCode,
  isPlainObject,
  type JSONRPCNotification,
  McpError,
  MetaKey,
  type RequestId,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '@boomerang/protocol';
import type { HandleContext } from '@boomerang/protocol/transport';
import {
  type NotificationSource,
  notificationMatches,
  type SubscriptionNotification,
  type Unsubscribe,
} from './notifications.js';
import type { ExtensionSubscriptions, LogFn, RequestContext } from './types.js';

/** What serving one `subscriptions/listen` needs. */
export interface ListenInit {
  readonly source: NotificationSource;
  /** The capabilities in force now (with `listChanged` / `subscribe` filled in, see {@link withSubscriptions}). */
  readonly capabilities: ServerCapabilities;
  readonly requestId: RequestId;
  readonly filter: SubscriptionFilter;
  /** The extensions' filter members, and the request's context their `agree` reads (its principal). */
  readonly extensions: readonly ExtensionSubscriptions[];
  readonly ctx: RequestContext;
  /** The transport's notification channel for this request (HTTP: the SSE stream). */
  readonly notify: HandleContext['notify'];
  /** Aborted when the client cancels or goes away: the subscription ends without a response. */
  readonly signal: AbortSignal;
  /** Aborted when the server (or the connection) shuts down: the subscription ends with its result. */
  readonly ending: readonly AbortSignal[];
  readonly warn: LogFn;
}

/**
 * The capabilities a server with a notification source advertises: `listChanged: true` on `tools`, `prompts`
 * and `resources`, and `subscribe: true` on `resources`, for each feature that is present and where the author
 * did not set the member (an explicit `false` stays). Returns a new object; `caps` is not changed.
 */
export function withSubscriptions(caps: ServerCapabilities): ServerCapabilities {
  const out: ServerCapabilities = { ...caps };
  if (isPlainObject(caps.tools)) out.tools = { listChanged: true, ...caps.tools };
  if (isPlainObject(caps.prompts)) out.prompts = { listChanged: true, ...caps.prompts };
  if (isPlainObject(caps.resources))
    out.resources = { listChanged: true, subscribe: true, ...caps.resources };
  return out;
}

/**
 * The subset of `filter` this server honours, for the acknowledgement: each list kind the client asked for and
 * the server advertises with `listChanged: true`, and `resourceSubscriptions` when it advertises
 * `resources.subscribe: true`. Kinds it does not support (and members of later revisions) are left out.
 */
export function agreedFilter(filter: SubscriptionFilter, caps: ServerCapabilities): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  if (filter.toolsListChanged === true && caps.tools?.listChanged === true) agreed.toolsListChanged = true;
  if (filter.promptsListChanged === true && caps.prompts?.listChanged === true) {
    agreed.promptsListChanged = true;
  }
  if (filter.resourcesListChanged === true && caps.resources?.listChanged === true) {
    agreed.resourcesListChanged = true;
  }
  if (filter.resourceSubscriptions !== undefined && caps.resources?.subscribe === true) {
    agreed.resourceSubscriptions = [...filter.resourceSubscriptions];
  }
  return agreed;
}

/**
 * What the extensions agree to of `filter` for this request: each one that owns a member `filter` names is asked
 * (in registration order) and only the members it owns are kept. Rejects with what an `agree` throws.
 */
async function extensionsFilter(
  extensions: readonly ExtensionSubscriptions[],
  filter: SubscriptionFilter,
  ctx: RequestContext,
): Promise<SubscriptionFilter> {
  const agreed: Record<string, unknown> = {};
  for (const extension of extensions) {
    if (!extension.members.some((member) => Object.hasOwn(filter, member))) continue;
    const granted = await extension.agree(filter, ctx);
    for (const member of extension.members) {
      if (isPlainObject(granted) && granted[member] !== undefined) agreed[member] = granted[member];
    }
  }
  return agreed as SubscriptionFilter;
}

/** `notification` as sent on subscription `id`: its params with `_meta["io.modelcontextprotocol/subscriptionId"]`. */
export function tagged(
  notification: { readonly method: string; readonly params?: unknown },
  id: RequestId,
): JSONRPCNotification {
  const params = isPlainObject(notification.params) ? notification.params : {};
  const meta = isPlainObject(params._meta) ? params._meta : {};
  return {
    jsonrpc: '2.0',
    method: notification.method,
    params: { ...params, _meta: { ...meta, [MetaKey.subscriptionId]: id } },
  } as JSONRPCNotification;
}

/**
 * Serves one `subscriptions/listen` request:
 *
 * 1. agrees on a filter (the server's members, then the extensions', see {@link extensionsFilter}: what an
 *    extension's `agree` throws is the request's error), and subscribes to the source with it (notifications
 *    published meanwhile are held back);
 * 2. sends `notifications/subscriptions/acknowledged` with the agreed filter, the first message of the stream;
 * 3. forwards every matching notification, in order, tagged with the subscription id (the request's id);
 * 4. when `signal` aborts (the client cancelled or went away), unsubscribes; the caller sends no response;
 * 5. when one of `ending` aborts (server or connection shutdown), unsubscribes, waits for the notifications
 *    already handed to the transport, and resolves to the `SubscriptionsListenResult` (the graceful end).
 *
 * Throws `-32600` when the transport cannot carry notifications (no `notify`).
 */
export async function serveListen(init: ListenInit): Promise<Record<string, unknown>> {
  const { notify, requestId, signal, warn } = init;
  if (notify === undefined) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      'subscriptions/listen needs a transport that streams notifications',
    );
  }
  const stops = [signal, ...init.ending];
  const agreed: SubscriptionFilter = {
    ...agreedFilter(init.filter, init.capabilities),
    ...(await extensionsFilter(init.extensions, init.filter, init.ctx)),
  };
  let acknowledged = false;
  const held: SubscriptionNotification[] = [];
  let chain: Promise<void> = Promise.resolve();
  const deliver = (message: JSONRPCNotification) => {
    chain = chain
      .then(() => notify(message))
      .catch((error: unknown) =>
        warn(`could not deliver ${message.method} on subscription ${String(requestId)}`, { error }),
      );
  };
  const listener = (notification: SubscriptionNotification) => {
    if (signal.aborted || !notificationMatches(agreed, notification)) return;
    if (acknowledged) deliver(tagged(notification, requestId));
    else held.push(notification);
  };

  // A stop while a (slow) source subscribes ends the wait without an ack; a shutdown already in force when the
  // subscription is live still acknowledges, then ends at once.
  const unsubscribe = await untilStopped(init.source.subscribe(agreed, listener), stops);
  try {
    if (signal.aborted || unsubscribe === undefined) return endResult(requestId);
    deliver(
      tagged(
        { method: 'notifications/subscriptions/acknowledged', params: { notifications: agreed } },
        requestId,
      ),
    );
    acknowledged = true;
    for (const notification of held.splice(0)) deliver(tagged(notification, requestId));
    await firstAbort(stops);
    await chain;
    return endResult(requestId);
  } finally {
    unsubscribe?.();
  }
}

function endResult(requestId: RequestId): Record<string, unknown> {
  return { _meta: { [MetaKey.subscriptionId]: requestId } };
}

/** Resolves once any of `signals` has aborted. */
function firstAbort(signals: readonly AbortSignal[]): Promise<void> {
  if (signals.some((s) => s.aborted)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
}

/**
 * Awaits the source's `subscribe`, unless a stop signal aborts first: then resolves to `undefined` at once and
 * unsubscribes whenever the subscription does come through (a shared source may take a while, or hang).
 */
async function untilStopped(
  pending: Unsubscribe | Promise<Unsubscribe>,
  stops: readonly AbortSignal[],
): Promise<Unsubscribe | undefined> {
  if (typeof pending === 'function') return pending;
  const stopped = Symbol('stopped');
  const outcome = await Promise.race([pending, firstAbort(stops).then(() => stopped)]);
  if (outcome !== stopped) return outcome as Unsubscribe;
  pending.then(
    (unsubscribe) => unsubscribe(),
    () => {},
  );
  return undefined;
}
