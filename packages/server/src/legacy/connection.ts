// The seam between a stream connection and the two eras. A connection starts in the 2026-07-28 era (every
// request served statelessly by the core); an `initialize` turns it into one 2025-11-25 session for its
// lifetime. The transport is wrapped so that the client's responses to server→client requests reach the
// session instead of the core (which never expects responses).
import type { JSONRPCMessage, JSONRPCResponse, SubscriptionFilter } from '@boomerang/protocol';
import { isPlainObject } from '@boomerang/protocol';
import { LEGACY_PROTOCOL_VERSION } from '@boomerang/protocol/2025-11-25';
import type { Transport } from '@boomerang/protocol/transport';
import type { ServeRequest } from '../connect.js';
import type { ServerCore } from '../core.js';
import { serveOwnRequest, serveRequest } from '../dispatch.js';
import type { Unsubscribe } from '../notifications.js';
import type { ServerOptions } from '../types.js';
import { initializeSession, type LegacySettings, legacyCapabilities, serveLegacyRequest } from './serve.js';
import type { LegacySession } from './session.js';

export type { LegacySettings };

/** A stream connection that serves both eras: hand `transport` and `serve` to `serveTransport`. */
export interface DualEraConnection {
  readonly transport: Transport;
  readonly serve: ServeRequest;
}

/**
 * Wraps `transport` for one connection that serves both eras (see the file comment). When the transport's
 * messages end, the session (if any) closes: its server→client requests reject, its subscriptions stop.
 */
export function dualEraConnection(
  core: ServerCore,
  transport: Transport,
  options: LegacySettings,
): DualEraConnection {
  let session: LegacySession | undefined;
  let stopListChanges: Unsubscribe | undefined;
  let ended = false;
  const send = (message: JSONRPCMessage, relatedRequestId?: JSONRPCResponse['id']) =>
    transport.send(message, relatedRequestId === undefined ? {} : { relatedRequestId });

  const end = () => {
    ended = true;
    session?.close();
    stopListChanges?.();
  };

  const messages: AsyncIterable<JSONRPCMessage> = {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const message of transport.messages) {
          if (session !== undefined && isResponse(message) && session.receive(message)) continue;
          yield message;
        }
      } finally {
        end();
      }
    },
  };

  const serve: ServeRequest = async (request, ctx, ending) => {
    if (session !== undefined) return serveLegacyRequest(core, session, request, ctx, options, ending);
    if (request.method !== 'initialize') return serveRequest(core, request, ctx, { ending });
    const era = { ending, protocolVersion: LEGACY_PROTOCOL_VERSION };
    return serveOwnRequest(core, request, ctx, era, async () => {
      // A second `initialize` racing this one through slow middleware: the session is already open.
      if (session !== undefined) return serveLegacyRequest(core, session, request, ctx, options, ending);
      const started = initializeSession(core, request, send, options);
      if (started.session !== undefined) {
        session = started.session;
        stopListChanges = await forwardListChanges(core, session);
        if (ended) stopListChanges?.(); // the connection ended while subscribing
      }
      return started.response;
    });
  };

  const wrapped: Transport = {
    send: (message, sendOptions) => transport.send(message, sendOptions),
    messages,
    close: () => transport.close(),
    [Symbol.asyncDispose]: () => transport.close(),
  };
  return { transport: wrapped, serve };
}

/** The legacy settings, checked; `undefined` when 2025-11-25 sessions are off (`legacy: false`). */
export function legacySettings(legacy: ServerOptions['legacy']): LegacySettings | undefined {
  if (legacy === false) return undefined;
  if (legacy !== undefined && legacy !== true && !isPlainObject(legacy)) {
    throw new TypeError('"legacy" expected a boolean or { shim?, requestTimeoutMs? }');
  }
  const { shim = false, requestTimeoutMs = 60_000 } = legacy === undefined || legacy === true ? {} : legacy;
  for (const name of Object.keys(legacy === true || legacy === undefined ? {} : legacy)) {
    if (name !== 'shim' && name !== 'requestTimeoutMs')
      throw new TypeError(`unknown option "legacy.${name}"`);
  }
  if (typeof shim !== 'boolean') throw new TypeError(`"legacy.shim" expected a boolean, got ${typeof shim}`);
  if (
    typeof requestTimeoutMs !== 'number' ||
    !Number.isSafeInteger(requestTimeoutMs) ||
    requestTimeoutMs < 1
  ) {
    throw new RangeError(
      `"legacy.requestTimeoutMs" expected a positive integer, got ${String(requestTimeoutMs)}`,
    );
  }
  return { shim, timeoutMs: requestTimeoutMs };
}

/** Forwards the list changes the session's capabilities promise (`listChanged: true`) from the source. */
async function forwardListChanges(
  core: ServerCore,
  session: LegacySession,
): Promise<Unsubscribe | undefined> {
  const source = core.notifications;
  if (source === undefined) return undefined;
  const caps = legacyCapabilities(core) as Record<string, { listChanged?: boolean } | undefined>;
  const filter: SubscriptionFilter = {
    toolsListChanged: caps.tools?.listChanged === true,
    promptsListChanged: caps.prompts?.listChanged === true,
    resourcesListChanged: caps.resources?.listChanged === true,
  };
  if (!filter.toolsListChanged && !filter.promptsListChanged && !filter.resourcesListChanged)
    return undefined;
  try {
    return await source.subscribe(filter, (notification) => {
      if (notification.method === 'notifications/resources/updated') return;
      const key = `${notification.method.split('/')[1]}ListChanged` as keyof SubscriptionFilter;
      if (filter[key] === true) void session.notify(notification.method).catch(() => {});
    });
  } catch (error) {
    core.log.warn('could not subscribe a 2025-11-25 session to list changes', { error });
    return undefined;
  }
}

function isResponse(message: unknown): message is JSONRPCResponse {
  return isPlainObject(message) && !('method' in message) && ('result' in message || 'error' in message);
}
