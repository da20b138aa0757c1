// @boomerang/transport-http/node: serve the MCP endpoint on node:http.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type MessageHandler, RequestCancellation } from '@boomerang/protocol/transport';
import type { BodyResult } from './body.js';
import type { Exchange } from './exchange.js';
import {
  type HeaderReader,
  type HostPolicy,
  hostPolicyViolation,
  isLoopback,
  loopbackPolicy,
} from './guard.js';
import { type FetchHandler, type HttpHandler, type HttpHandlerOptions, httpEndpoint } from './handler.js';
import {
  type ConnectionLimits,
  capConnections,
  connectionLimits,
  serverOptions,
} from './node-connections.js';
import { forbidden, type PlainReply, type Reply } from './replies.js';
import { type ListenRoutes, type Route, type RouteHandler, routeTable } from './routes.js';

export type { ConnectionLimits, ListenRoutes, Route, RouteHandler };

/** Where {@link listen} binds, the endpoint's allow-lists, and its connection limits. */
export interface ListenerOptions extends HostPolicy, ConnectionLimits {
  /** TCP port; `0` (the default) picks a free one (read it from `url`). */
  readonly port?: number | undefined;
  /** Address to bind (default `127.0.0.1`: local servers should not listen on every interface). */
  readonly host?: string | undefined;
  /** Path of the MCP endpoint (default `/mcp`); every other path answers 404, unless `routes` serves it. */
  readonly path?: string | undefined;
  /**
   * Other paths to serve, matched exactly (query string ignored): a `{ [path]: handler }` record, or a list of
   * `{ url, handler }` (a path or an absolute URL, whose path is taken) such as the Protected Resource
   * Metadata endpoint from `protectedResourceMetadata()` of `@boomerang/auth`. Each handler gets a full
   * `Request` (body included) after the `Host` check, not the `Origin` one (public documents such as
   * metadata are CORS-open; add your own CORS rules). Paths not listed, and not `path`, answer 404.
   */
  readonly routes?: ListenRoutes | undefined;
}

/** A running endpoint. */
export interface Listening extends AsyncDisposable {
  /** The endpoint's URL, path included, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: URL;
  /**
   * Ends the endpoint's 2025-11-25 sessions, stops accepting connections, ends open ones (keep-alive and
   * streaming alike) and resolves once closed.
   */
  close(): Promise<void>;
}

/**
 * Serves the MCP endpoint on `node:http` and resolves once it listens. `handler` is either a `MessageHandler`
 * (`Server`, `McpServer`), served with `createHttpHandler(handler, options)`, or a fetch handler you built with
 * `createHttpHandler` yourself (to add routes or middleware around it), in front of which `listen` puts its own
 * Host/Origin check.
 *
 * DNS-rebinding protection: on a loopback bind (`127.0.0.1`, `::1`, `localhost`) `allowedHosts` defaults to
 * `127.0.0.1:<port>`, `localhost:<port>` and `[::1]:<port>`, and `allowedOrigins` to the same hosts over
 * `http`/`https`, so a web page on another origin, or one reached through a rebound DNS name, gets 403. Give
 * the options explicitly to widen them (and always for a non-loopback bind that browsers can reach).
 *
 * `routes` serves other exact paths beside the endpoint (a health check, the Protected Resource Metadata of
 * `@boomerang/auth`: `routes: [protectedResourceMetadata(...)]`); the endpoint's own path keeps its fast path.
 *
 * Connections are bounded ({@link ConnectionLimits}): at most `maxConnections` (512) open, the one idle longest
 * closed to make room for a newcomer (503 when all are busy); request headers within `headersTimeoutMs` (10 s),
 * whole requests within `requestTimeoutMs` (30 s; responses and event streams are not bounded), keep-alive idle
 * for `keepAliveTimeoutMs` (5 s). Throws `RangeError` for a limit that is not a positive integer.
 *
 * Request bodies and event streams flow through unbuffered (back-pressure respected); a client that disconnects
 * aborts its request's `ctx.signal`. A `MessageHandler` is served straight from `node:http` (same checks and
 * answers as `createHttpHandler`, without building a `Request`, a body stream and a `Response` per message;
 * `authenticate` gets a `Request` with the URL, method and headers, its body left unread).
 */
export async function listen(
  handler: MessageHandler | FetchHandler,
  options: ListenerOptions & Omit<HttpHandlerOptions, keyof HostPolicy> = {},
): Promise<Listening> {
  const { port = 0, host = '127.0.0.1', path = '/mcp' } = options;
  if (!path.startsWith('/')) throw new TypeError(`"path" expected a path starting with "/", got ${path}`);
  const routes = routeTable(options.routes, path);
  const limits = connectionLimits(options);
  let serve: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const server = createServer(serverOptions(limits), (req, res) => {
    if (cap.refuse(req, res)) return;
    if (serve === undefined) {
      res.writeHead(503).end();
      return;
    }
    void serve(req, res);
  });
  const cap = capConnections(server, limits.maxConnections);
  server.listen(port, host);
  await once(server, 'listening');

  const { port: bound } = server.address() as AddressInfo;
  const policy: HostPolicy = {
    allowedHosts: options.allowedHosts ?? (isLoopback(host) ? loopbackPolicy(bound).allowedHosts : undefined),
    allowedOrigins:
      options.allowedOrigins ?? (isLoopback(host) ? loopbackPolicy(bound).allowedOrigins : undefined),
  };
  const hostOnly: HostPolicy = { allowedHosts: policy.allowedHosts };
  const other: Other =
    routes.size === 0
      ? notFound
      : (req, res, url) => {
          const route = routes.get(url.pathname);
          if (route === undefined) return notFound(req, res, url);
          return respond(req, res, url, (request) => {
            // The Host check only (DNS rebinding): routes answer any Origin, as their own CORS rules say.
            const headers = {
              get: (name: string) => (/^origin$/i.test(name) ? null : request.headers.get(name)),
            };
            const violation = hostPolicyViolation(headers, request.url, hostOnly);
            return violation === undefined ? route(request) : forbidden(violation);
          });
        };
  // The 2025-11-25 sessions of the endpoint (a fetch handler from `createHttpHandler` ends its own).
  let endSessions: (() => Promise<void>) | undefined;
  if (typeof handler === 'function') {
    const own = (handler as Partial<HttpHandler>).close;
    if (typeof own === 'function') endSessions = () => own.call(handler);
    const guarded: FetchHandler = (request) => {
      const violation = hostPolicyViolation(request.headers, request.url, policy);
      return violation === undefined ? handler(request) : Promise.resolve(forbidden(violation));
    };
    serve = async (req, res) => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request');
        return;
      }
      return url.pathname === path ? respond(req, res, url, guarded) : other(req, res, url);
    };
  } else {
    const endpoint = httpEndpoint(handler, { ...options, ...policy });
    endSessions = endpoint.close;
    serve = (req, res) => respondNative(req, res, endpoint, path, other);
  }

  const url = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}`);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Sessions first: their requests in flight get their error while the connections are still open.
      await endSessions?.().catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };
  return { url, close, [Symbol.asyncDispose]: close };
}

/** Answers a request for a path other than the MCP endpoint's. */
type Other = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

const notFound: Other = async (_req, res) => {
  res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
};

/** Runs one node:http exchange through the endpoint itself: no `Request`, body stream or `Response` for it. */
async function respondNative(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: (exchange: Exchange) => Promise<Reply>,
  path: string,
  other: Other,
) {
  // Lazy: no AbortController (nor a listener on its signal) unless the handler or a stream reads `signal`.
  const cancellation = new RequestCancellation();
  res.once('close', () => {
    if (!res.writableFinished) cancellation.abort(new Error('the client disconnected'));
  });
  let reply: Reply;
  try {
    const target = req.url ?? '/';
    const base = `http://${req.headers.host ?? 'localhost'}`;
    let url: string;
    if (target === path) {
      url = base + target; // the common case: no need to parse it
    } else {
      const parsed = new URL(target, base);
      if (parsed.pathname !== path) {
        await other(req, res, parsed);
        return;
      }
      url = parsed.href;
    }
    reply = await endpoint(new NodeExchange(req, url, cancellation));
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    return;
  }
  closeIfUnread(req, res);
  if (reply instanceof Response) await writeResponse(reply, res, cancellation.signal);
  else writePlain(reply, res);
}

/** The {@link Exchange} of a node:http request (a class: `signal` is a getter, made only when read). */
class NodeExchange implements Exchange {
  readonly method: string;
  readonly headers: HeaderReader;
  readonly url: string;
  readonly cancellation: RequestCancellation;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage, url: string, cancellation: RequestCancellation) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.headers = nodeHeaders(req);
    this.url = url;
    this.cancellation = cancellation;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  readBody(limit: number): Promise<BodyResult> {
    return readNodeBody(this.#req, limit);
  }

  toRequest(): Request {
    const req = this.#req;
    return new Request(this.url, { method: this.method, headers: webHeaders(req), signal: this.signal });
  }
}

/**
 * `Headers.get` semantics over a node request: case-insensitive, repeated fields joined with ", ". `req.headers`
 * (which node builds for every request anyway) when no field name repeats; otherwise `req.headersDistinct`, since
 * `req.headers` keeps only the first of a repeated `Host`, `Content-Type`, `Authorization`….
 */
function nodeHeaders(req: IncomingMessage): HeaderReader {
  const all = req.headers;
  let fields = 0;
  for (const _ in all) fields++;
  if (fields * 2 === req.rawHeaders.length) {
    return {
      get: (name) => {
        const value = all[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }
  const distinct = req.headersDistinct;
  return {
    get: (name) => {
      const values = distinct[name.toLowerCase()];
      return values === undefined ? null : values.join(', ');
    },
  };
}

/**
 * Reads a node request body under `limit` bytes: refused from `Content-Length` alone, or as soon as the bytes
 * read pass the limit (reading stops there; the connection is closed after the answer).
 */
function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) {
    return Promise.resolve({ ok: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        detach();
        req.pause();
        resolve({ ok: false });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      resolve({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    };
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    const onClose = () => {
      detach();
      reject(new Error('the request was aborted before its body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function writePlain(reply: PlainReply, res: ServerResponse): void {
  if (reply.body === null) {
    res.writeHead(reply.status, reply.headers).end();
    return;
  }
  res
    .writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) })
    .end(reply.body);
}

/** The handler answered without reading the whole body (413, 403, 405…): do not keep reading it. */
function closeIfUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const socket = req.socket as IncomingMessage['socket'] | null;
  res.setHeader('connection', 'close');
  res.once('finish', () => {
    socket?.end();
    setTimeout(() => socket?.destroy(), 1000).unref();
  });
}

/** Runs one node:http exchange through a fetch handler. */
async function respond(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  serve: (request: Request) => Response | Promise<Response>,
) {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort(new Error('the client disconnected'));
  });
  let response: Response;
  try {
    response = await serve(toRequest(req, url, abort.signal));
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    return;
  }
  closeIfUnread(req, res);
  await writeResponse(response, res, abort.signal);
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  return headers;
}

function toRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = webHeaders(req);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(hasBody && {
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: 'half',
    }),
  } as RequestInit);
}

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  const keep = res.getHeader('connection');
  if (typeof keep === 'string') headers.connection = keep;
  for (const [name, value] of response.headers) headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (signal.aborted) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
