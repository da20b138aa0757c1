// The connection policy of `listen` (@boomerang/transport-http/node): how many sockets it keeps, and how long a
// socket may take to say something. Idle sockets are the cheapest denial of service there is: each costs the
// attacker nothing and the server a file descriptor, so the cap makes room by closing the longest idle one.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** How `listen` bounds its connections; every member is optional (see the defaults). */
export interface ConnectionLimits {
  /**
   * Most connections kept open at once (default 512, under the common 1,024-descriptor limit). At the cap, a new
   * connection makes room by closing the connection idle longest (one that never sent a request, or a keep-alive
   * connection between requests); when every connection has a request in flight, the newcomer's request is
   * answered 503 with `Retry-After: 1` and `Connection: close`.
   */
  readonly maxConnections?: number | undefined;
  /** A client must send a request's headers within this long (default 10 s), else 408 and the socket closes. */
  readonly headersTimeoutMs?: number | undefined;
  /**
   * A client must send a whole request, body included, within this long (default 30 s), else 408. Responses are
   * not bounded: event streams last as long as they need. At least `headersTimeoutMs`.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** A keep-alive connection idle between requests is closed after this long (default 5 s). */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/** {@link ConnectionLimits} with every member set. */
export type Limits = { readonly [K in keyof ConnectionLimits]-?: number };

const DEFAULTS = {
  maxConnections: 512,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as const;

/** How long a refused connection may take to send its request before it is closed. */
const REFUSED_GRACE_MS = 1000;

/** The checked limits, defaults filled in. Throws `RangeError` for a value that is not a positive integer. */
export function connectionLimits(options: ConnectionLimits): Limits {
  const limits: { -readonly [K in keyof Limits]: number } = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
    }
    limits[name] = value;
  }
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) {
    throw new RangeError(
      `"requestTimeoutMs" (${limits.requestTimeoutMs}) expected to be at least "headersTimeoutMs" (${limits.headersTimeoutMs})`,
    );
  }
  return limits;
}

/**
 * The `node:http` options for `limits`: its timeouts, checked at least every second (node checks every 30 s by
 * default, so a 10 s timeout would really be up to 40 s).
 */
export function serverOptions(limits: Limits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  };
}

/** What {@link capConnections} tells the request handler. */
export interface ConnectionCap {
  /**
   * Called with every request before it is served: records it for a kept connection and returns true; answers the
   * request of a connection refused at the cap (503) and returns false.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Keeps at most `max` connections of `server` open (see {@link ConnectionLimits.maxConnections}). Connections
 * refused while every kept one is busy get a 503 to their first request, or are closed after a second of
 * silence; node's own `maxConnections` (twice the cap) drops anything beyond even those at once.
 *
 * The bookkeeping costs a request two map operations and one listener shared by all: the kept connections are
 * ordered by their last request (those that never sent one by arrival), each marked busy until that request's
 * response finishes, and only a newcomer at the cap looks for the first one that is not busy: the one idle
 * longest. (Nothing holds a response past its end: keeping each connection's last response reachable costs more
 * than the rest of the request, in the garbage collector.)
 */
export function capConnections(server: Server, max: number): ConnectionCap {
  /** The kept connections, least recently used first, each with whether a request of theirs is in flight. */
  const kept = new Map<Socket, boolean>();
  const refused = new WeakSet<Socket>();
  const idleLongest = (): Socket | undefined => {
    for (const [socket, busy] of kept) if (!busy) return socket;
    return undefined;
  };
  /** A response's `finish` listener: its connection is idle (setting an existing key keeps the order). */
  function finished(this: ServerResponse) {
    const { socket } = this.req;
    if (kept.has(socket)) kept.set(socket, false);
  }
  server.maxConnections = 2 * max;
  server.prependListener('connection', (socket: Socket) => {
    if (kept.size >= max) {
      const longest = idleLongest();
      if (longest === undefined) {
        refused.add(socket);
        socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy());
        return;
      }
      kept.delete(longest);
      longest.destroy();
    }
    kept.set(socket, false);
    socket.once('close', () => kept.delete(socket));
  });
  return {
    admit(req, res) {
      const { socket } = req;
      if (kept.delete(socket)) {
        kept.set(socket, true); // now the most recently used
        res.on('finish', finished);
        return true;
      }
      if (!refused.has(socket)) return true;
      const headers = { 'content-type': 'text/plain', 'retry-after': '1', connection: 'close' };
      res.writeHead(503, headers).end('Service Unavailable: too many connections');
      return false;
    },
  };
}

/**
 * A `node:http` server (not yet listening) bounded by `limits` exactly as `listen()` bounds its own (see
 * {@link ConnectionLimits} for each limit and its default): at most `maxConnections` open, the one idle longest
 * closed to make room for a newcomer, 503 when every one is busy; request headers, whole requests and keep-alive
 * idleness timed out. For a server of your own beside an MCP endpoint (an app's web page), which idle sockets would
 * otherwise exhaust: each costs an attacker nothing and the server a file descriptor, and a server that keeps them
 * all stops accepting anyone once the process runs out. `onRequest` sees only the requests of the connections
 * kept (the refused ones are answered here). Throws `RangeError` for a limit that is not a positive integer, or a
 * `requestTimeoutMs` under `headersTimeoutMs`.
 */
export function createLimitedServer(limits: ConnectionLimits, onRequest: RequestListener): Server {
  const checked = connectionLimits(limits);
  const server = createServer(serverOptions(checked), (req, res) => {
    if (cap.admit(req, res)) onRequest(req, res);
  });
  const cap = capConnections(server, checked.maxConnections);
  return server;
}
