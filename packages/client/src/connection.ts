// One connection of a Client, and the seam behind which a protocol era lives: an `Era` opens a `Connection` on a
// request transport, deciding what the peer speaks and how a request travels. `modernEra` is 2026-07-28 alone;
// the 2025-11-25 era is an adapter of its own (legacy/), chosen in eras.ts.
import {
  type ClientCapabilities,
  type Implementation,
  LATEST_PROTOCOL_VERSION,
  type LoggingLevel,
  MetaKey,
  type ServerCapabilities,
} from '@boomerang/protocol';
import type { RequestTransport } from '@boomerang/protocol/transport';
import type { InputCallbacks } from './input-requests.js';
import type { LogHandler } from './logging.js';
import { createRequester, type Requester, type SendOptions } from './requester.js';

/** What a connection needs to know about its client. */
export interface Hello {
  readonly info: Implementation;
  readonly capabilities: ClientCapabilities;
  /** The callbacks that answer input requests (an era whose server asks mid-call answers with them too). */
  readonly callbacks: InputCallbacks;
  /**
   * True for a request transport that reports every outcome (HTTP): a peer's silence then never stands for an
   * answer. False for a stream transport seen through the correlator.
   */
  readonly reportsEveryOutcome: boolean;
  /** Aborts when `connect()` ran out of time: every request the era sends while connecting takes it. */
  readonly signal?: AbortSignal | undefined;
  /** The most requests of the server answered at once (an era whose server asks mid-call bounds them). */
  readonly maxInputRequests?: number | undefined;
  /** Where log messages no request claims go (a stream transport ties none to its request). */
  readonly onLog?: LogHandler | undefined;
  /** The client's default log level: a 2025-11-25 session sets it once with `logging/setLevel`. */
  readonly logLevel?: LoggingLevel | undefined;
}

/** What the server said about itself while the connection opened (its `server/discover` result, or `initialize`). */
export interface ServerDescription {
  readonly capabilities: ServerCapabilities;
  readonly serverInfo?: Implementation | undefined;
  readonly instructions?: string | undefined;
}

/**
 * Options of {@link Connection.request}: the requester's, `call` included (the call the request is a round of; an
 * era whose server asks mid-call names it to the callbacks), and the request's log level.
 */
export interface ConnectionRequestOptions extends SendOptions {
  /** The lowest level of log message the server may send for this request (2026-07-28: `_meta`). */
  readonly logLevel?: LoggingLevel | undefined;
  /**
   * Members for the request's `_meta` besides the connection's own, which win (the caller's `CallOptions.meta`
   * and what middleware added, reserved keys already left out).
   */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/** One open connection: the revision it speaks, and how a request travels on it. */
export interface Connection {
  /** `"2026-07-28"`, or what an older era negotiated. */
  readonly protocolVersion: string;
  /** What the server said about itself while connecting, if anything. */
  readonly server: ServerDescription | undefined;
  /**
   * Sends one request and resolves to its raw result in the 2026-07-28 shape. `params` is a fresh object of this
   * request's own: the connection adds its era's envelope to it (2026-07-28: the full `_meta`). Rejects like
   * `Requester.request`.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options?: ConnectionRequestOptions,
  ): Promise<unknown>;
  /** Closes the transport; requests in flight fail as `closed`. Idempotent. */
  close(): Promise<void>;
}

/** How a `Client` opens a connection on a transport: the seam behind which a protocol era lives. */
export type Era = (transport: RequestTransport, hello: Hello) => Promise<Connection>;

/** Options of {@link modernEra}: none (2026-07-28 has no handshake). */
export type ModernEraOptions = Record<never, never>;

/** 2026-07-28 alone: nothing is sent when connecting; every request carries the full `_meta`. */
export function modernEra(_options: ModernEraOptions = {}): Era {
  return async (transport, hello) =>
    new ModernConnection(createRequester(transport, { onLog: hello.onLog }), hello);
}

/**
 * A 2026-07-28 connection on `requester`: every request carries `_meta` with the protocol version, the client's
 * capabilities and its `clientInfo` (and `io.modelcontextprotocol/logLevel` when the call asks for log messages),
 * set on the request's own params (a copy plus a member is several times
 * slower on Node 20, and this runs for every round).
 */
export class ModernConnection implements Connection {
  readonly protocolVersion = LATEST_PROTOCOL_VERSION;
  readonly server: ServerDescription | undefined;
  readonly #requester: Requester;
  readonly #hello: Hello;

  constructor(requester: Requester, hello: Hello, server?: ServerDescription) {
    this.#requester = requester;
    this.#hello = hello;
    this.server = server;
  }

  /** The same connection, now knowing what the server said about itself. */
  describedAs(server: ServerDescription): ModernConnection {
    return new ModernConnection(this.#requester, this.#hello, server);
  }

  request(
    method: string,
    params: Record<string, unknown>,
    options: ConnectionRequestOptions = {},
  ): Promise<unknown> {
    const extra = options.meta;
    const meta: Record<string, unknown> =
      extra === undefined || isEmpty(extra)
        ? {
            [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
            [MetaKey.clientCapabilities]: this.#hello.capabilities,
            [MetaKey.clientInfo]: this.#hello.info,
          }
        : {
            ...extra,
            [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
            [MetaKey.clientCapabilities]: this.#hello.capabilities,
            [MetaKey.clientInfo]: this.#hello.info,
          };
    if (options.logLevel !== undefined) meta[MetaKey.logLevel] = options.logLevel;
    params._meta = meta;
    return this.#requester.request(method, params, options);
  }

  close(): Promise<void> {
    return this.#requester.close();
  }
}

/** True for an object without own enumerable members. */
export function isEmpty(record: Readonly<Record<string, unknown>>): boolean {
  for (const _ in record) return false;
  return true;
}
