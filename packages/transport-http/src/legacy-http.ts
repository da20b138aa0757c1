// Which HTTP traffic is 2025-11-25, and how it is served: in sessions (the default: `initialize` mints an
// `Mcp-Session-Id`, see sessions.ts) or statelessly (`legacy: { sessions: false }`: every request on its own, no
// back-channel). A message whose `_meta` names its protocol version is always 2026-07-28 and never comes here.
import {
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageHandler,
  MetaKey,
  messageKind,
} from '@boomerang/protocol';
import type { Exchange } from './handler.js';
import { HeaderName } from './headers.js';
import { acceptsEventStream } from './negotiation.js';
import { type PlainReply, type Reply, refuse, statusOf } from './replies.js';
import {
  createSessionTable,
  HttpSession,
  LEGACY_VERSIONS,
  type LegacySessionOptions,
  type SessionTable,
  withStatus,
} from './sessions.js';

/** The 2025-11-25 side of an endpoint. */
export interface LegacyServing {
  /** True when a GET or DELETE is the legacy side's (it names a session). */
  takesStream(exchange: Exchange): boolean;
  /** Serves a GET (the session's stream) or a DELETE (its end). */
  stream(exchange: Exchange, auth: AuthInfo | undefined): Promise<Reply>;
  /** Serves a POSTed 2025-11-25 message; `undefined` when `message` is not one (the modern path serves it). */
  post(message: JSONRPCMessage, exchange: Exchange, auth: AuthInfo | undefined): Promise<Reply> | undefined;
  /** Ends every session. */
  close(): Promise<void>;
}

/** Settings of `HttpHandlerOptions.legacy`. */
export type LegacySetting = boolean | LegacySessionOptions | undefined;

/**
 * The legacy side for `setting`, or `undefined` (2026-07-28 only: `false`, or a handler without `connect`).
 * Throws `TypeError` for a setting of the wrong type, `RangeError` for bad numbers.
 */
export function legacyServing(
  handler: MessageHandler,
  setting: LegacySetting,
  onError: (error: unknown) => void,
): LegacyServing | undefined {
  if (setting === false || typeof handler.connect !== 'function') return undefined;
  if (setting !== undefined && setting !== true && (typeof setting !== 'object' || setting === null)) {
    throw new TypeError('"legacy" expected a boolean or { sessions?, maxSessions?, idleTimeoutMs? }');
  }
  const options = setting === undefined || setting === true ? {} : setting;
  if (options.sessions !== undefined && typeof options.sessions !== 'boolean') {
    throw new TypeError(`"legacy.sessions" expected a boolean, got ${typeof options.sessions}`);
  }
  const connectable = handler as Connectable;
  if (options.sessions === false) return statelessServing(connectable, onError);
  return sessionServing(createSessionTable(connectable, options, onError));
}

type Connectable = MessageHandler & Required<Pick<MessageHandler, 'connect'>>;

function sessionServing(sessions: SessionTable): LegacyServing {
  return {
    takesStream: (exchange) =>
      (exchange.method === 'GET' || exchange.method === 'DELETE') &&
      exchange.headers.get(HeaderName.session) !== null,
    async stream(exchange, auth) {
      const session = sessions.find(exchange.headers.get(HeaderName.session) ?? '', auth);
      // No such session: the modern answer (a 2025-11-25 client learns of the end from its next POST's 404).
      if (session === undefined) return refuse(405, 'Method not allowed: use POST', { allow: 'POST' });
      if (exchange.method === 'DELETE') {
        await session.end();
        return { status: 200, headers: {}, body: null };
      }
      if (!acceptsEventStream(exchange.headers.get('accept'))) {
        return refuse(406, 'Not Acceptable: Accept must allow text/event-stream');
      }
      return session.listen(exchange);
    },
    post(message, exchange, auth) {
      if (isModern(message)) return undefined;
      const id = exchange.headers.get(HeaderName.session);
      if (id !== null) {
        const session = sessions.find(id, auth);
        return Promise.resolve(
          session === undefined ? sessionNotFound() : session.post(message, exchange, auth),
        );
      }
      return isInitialize(message) ? sessions.open(message, exchange, auth) : undefined;
    },
    close: () => sessions.close(),
  };
}

/** 404 for a session id that names no open session of this principal: the client must `initialize` again. */
function sessionNotFound(): PlainReply {
  return refuse(404, 'Not Found: no such session (it ended, or never existed); send initialize again');
}

/**
 * Stateless 2025-11-25: `initialize` is answered without a session id; a later request (known by its
 * 2025-11-25-era `MCP-Protocol-Version`, or by having none, which the spec reads as 2025-03-26) is served on a
 * connection of its own, opened with an `initialize` in the client's place; notifications and responses are
 * accepted (202) and dropped. The server has nobody to ask: a server→client request fails at once with
 * `NO_BACK_CHANNEL`, and session state (log level, subscriptions) ends with each request.
 */
function statelessServing(handler: Connectable, onError: (error: unknown) => void): LegacyServing {
  return {
    takesStream: () => false,
    stream: () => Promise.resolve(refuse(405, 'Method not allowed: use POST', { allow: 'POST' })),
    post(message, exchange, auth) {
      if (isModern(message) || exchange.headers.get(HeaderName.session) !== null) return undefined;
      const version = exchange.headers.get(HeaderName.protocolVersion);
      if (!isInitialize(message) && version !== null && !LEGACY_VERSIONS.has(version)) return undefined;
      if (messageKind(message) !== 'request') {
        return Promise.resolve({ status: 202, headers: {}, body: null });
      }
      return serveAlone(handler, message as JSONRPCRequest, exchange, auth, onError);
    },
    close: async () => {},
  };
}

/** Everything a client may declare: the stateless server cannot know what it did, and cannot ask anyway. */
const ANY_CLIENT = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };

/** One stateless request on a connection of its own (see {@link statelessServing}). */
async function serveAlone(
  handler: Connectable,
  message: JSONRPCRequest,
  exchange: Exchange,
  auth: AuthInfo | undefined,
  onError: (error: unknown) => void,
): Promise<Reply> {
  const init = { id: '', auth, idleMs: 60_000, forget: () => {}, onError, backChannel: false };
  const session = new HttpSession(init);
  try {
    await session.start(handler, auth);
  } catch (error) {
    onError(error);
    await session.end();
    return refuse(500, 'Internal error');
  }
  if (!isInitialize(message)) {
    const hello = {
      jsonrpc: '2.0' as const,
      id: 'stateless-initialize',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: ANY_CLIENT,
        clientInfo: { name: 'stateless 2025-11-25 client', version: '0' },
      },
    };
    const { reply, response } = await session.initialize(hello, exchange, auth);
    if (response === undefined || !('result' in response)) {
      await session.end(); // the handler refuses 2025-11-25 (legacy: false on the server)
      return response === undefined ? reply : withStatus(reply, statusOf(response));
    }
  }
  const pending = session.request(message, exchange, auth);
  void pending.done.then(() => session.end());
  const reply = await pending.reply;
  const { response } = pending;
  return isInitialize(message) && response !== undefined && !('result' in response)
    ? withStatus(reply, statusOf(response))
    : reply;
}

/** True for a message whose `_meta` names its protocol version: 2026-07-28 and later. */
export function isModern(message: unknown): boolean {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as Record<string, unknown>)[MetaKey.protocolVersion] === 'string'
  );
}

/** True for a 2025-11-25 `initialize` request. */
export function isInitialize(message: JSONRPCMessage): message is JSONRPCRequest {
  return (message as { method?: unknown }).method === 'initialize' && messageKind(message) === 'request';
}
