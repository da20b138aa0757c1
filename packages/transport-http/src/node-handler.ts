// The MCP endpoint as a node-style `(req, res, next?)` handler: node:http servers the user owns and the frameworks
// built on them (Express, Fastify's raw request and reply, Koa). `listen` is this handler behind its own server.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { argumentError } from '@boomerang/protocol';
import { RequestCancellation } from '@boomerang/protocol/transport';
import type { BodyResult } from './body.js';
import { type HttpMessageHandler, logError } from './endpoint.js';
import type { Exchange } from './exchange.js';
import {
  type HeaderReader,
  type HostPolicy,
  hostPolicyViolation,
  isLoopback,
  loopbackPolicy,
} from './guard.js';
import { type FetchHandler, type HttpHandler, type HttpHandlerOptions, httpEndpoint } from './handler.js';
import { forbidden, isResponse, type PlainReply, type Reply, refuse } from './replies.js';

/** Options of {@link toNodeHandler}: those of `createHttpHandler`, and the one path it serves. */
export interface NodeHandlerOptions extends HttpHandlerOptions {
  /**
   * The one path served, compared with the path of `req.url` (query string aside): as the framework hands the
   * request over, so under Express `app.use('/mcp', …)` or `koa-mount` that is the path below the mount point.
   * Any other path goes to `next()`, or answers a plain-text 404 when there is no `next`. Absent (the default):
   * every request handed over is served, the framework having routed it.
   */
  readonly path?: string | undefined;
}

/**
 * A node-style request handler (`(req, res, next?)`, the shape of Express and connect middleware): answers the
 * requests it serves, hands the others to `next` (see {@link NodeHandlerOptions.path}). Its promise resolves
 * once the answer is written (an event stream: once it ended), or once `next` settled, and rejects only when
 * `next` does. `close()` ends the 2025-11-25
 * sessions of the endpoint (their requests in flight get an error, their streams close).
 */
export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse, next?: () => unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the MCP endpoint as a node-style handler, for a `node:http` (or `https`, `http2` compatibility) server
 * you own and for the frameworks built on node's requests: Express (`app.all('/mcp', mcp)`), Fastify
 * (`reply.hijack()`, then `mcp(request.raw, reply.raw)`), Koa (`ctx.respond = false`, then `mcp(ctx.req,
 * ctx.res)`). `handler` is a `Server`/`McpServer`, served natively (the same checks and answers as
 * `createHttpHandler(handler, options)`, without a `Request`, a body stream and a `Response` per message), or a
 * fetch handler you built with `createHttpHandler`, in front of which the Host/Origin check of `options` runs
 * (its other options are the fetch handler's own business).
 *
 * - **Bodies**: read from the request stream, under `maxBodyBytes` (413 past it, counted while it streams in; the
 *   connection then closes instead of reading the rest). When a body parser already read the stream
 *   (`express.json()`, Fastify's JSON parser), the body is taken from `req.body`: bytes (a `Buffer`) and strings
 *   as they are, anything else as its JSON text, still held to `maxBodyBytes`; a stream read with nothing left on
 *   `req.body` answers 400 saying so. The parser's own limits and errors answer before the MCP handler runs.
 * - **DNS rebinding**: the `allowedHosts` / `allowedOrigins` of `createHttpHandler`. When `allowedHosts` is not
 *   given, a request that reached the server on a loopback address (`127.0.0.1`, `::1`) must still name a
 *   loopback `Host` on that port (`127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`), else 403: a page on a
 *   rebound name cannot reach a local server. Behind a reverse proxy on the same machine, list your public names
 *   in `allowedHosts`.
 * - **Paths**: every request handed over is served, unless `path` is set (see {@link NodeHandlerOptions.path}).
 * - A client that disconnects aborts its request's `ctx.signal`; event streams flow out with back-pressure.
 *   Errors never go to `next`: an MCP client gets the endpoint's own answers (a bug answers 500 and goes to
 *   `onError`).
 *
 * Throws `TypeError` for a `path` that does not start with `/` (and as `createHttpHandler` does for bad options).
 */
export function toNodeHandler(
  handler: HttpMessageHandler | FetchHandler,
  options: NodeHandlerOptions = {},
): NodeHandler {
  const { path } = options;
  if (path !== undefined && !path.startsWith('/')) {
    throw argumentError('path', 'a path starting with "/"', path);
  }
  const onError = options.onError ?? logError;
  const guard = localGuard(options.allowedHosts === undefined);
  let serve: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<void>;
  let close: () => Promise<void>;
  if (typeof handler === 'function') {
    const own = (handler as Partial<HttpHandler>).close;
    close = typeof own === 'function' ? () => own.call(handler) : async () => {};
    const policy: HostPolicy = { allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins };
    serve = (req, res, url) => {
      if (hasBody(req) && streamRead(req) && parsedBody(req) === undefined) {
        writePlain(refuse(400, `Bad Request: ${CONSUMED}`), res);
        return Promise.resolve();
      }
      return respond(req, res, url, onError, (request) => {
        const violation =
          guard(req, request.headers, request.url) ??
          hostPolicyViolation(request.headers, request.url, policy);
        return violation === undefined ? handler(request) : forbidden(violation);
      });
    };
  } else {
    const endpoint = httpEndpoint(handler, options);
    close = endpoint.close;
    serve = (req, res, url) => respondNative(req, res, url, onError, guard, endpoint);
  }
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  };
  const node = async (req: IncomingMessage, res: ServerResponse, next?: () => unknown): Promise<void> => {
    const target = req.url ?? '/';
    if (path !== undefined && target !== path && pathnameOf(target) !== path) {
      if (next === undefined) notFound(res);
      else await next();
      return;
    }
    const url = requestUrl(req);
    if (url === undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request: unreadable request target');
      return;
    }
    return serve(req, res, url);
  };
  return Object.assign(node, { close });
}

/** The path of a request target, query string aside, not normalized (`/mcp/../mcp` is not `/mcp`). */
function pathnameOf(target: string): string {
  const end = target.indexOf('?');
  return end < 0 ? target : target.slice(0, end);
}

/**
 * @internal The absolute URL of a node request: the URL the client asked for (Express keeps it as `originalUrl`
 * while a mount point strips `req.url`), `https` on a TLS socket, always on the `Host` header's host, the one the
 * Host checks read. An origin-form target is a path, even one that starts with `//`; an absolute-form target
 * (`POST http://evil.example/mcp`) must name that same host, or there is no URL (`undefined`: a 400), so nothing
 * downstream (a DPoP `htu` check) ever sees a host the request chose apart from its `Host` header.
 */
/** Characters a Host header (an authority: host and port) never holds. */
const NOT_AN_AUTHORITY = /[/?#@\\\s]/;

export function requestUrl(req: IncomingMessage): string | undefined {
  const original = (req as { originalUrl?: unknown }).originalUrl;
  const target = typeof original === 'string' ? original : (req.url ?? '/');
  const scheme = (req.socket as { encrypted?: boolean } | null)?.encrypted === true ? 'https' : 'http';
  const host = req.headers.host ?? 'localhost';
  // A Host is an authority alone: a path, query, fragment or userinfo in it would move the URL (and DPoP's htu).
  if (NOT_AN_AUTHORITY.test(host)) return undefined;
  const base = `${scheme}://${host}`;
  if (target.startsWith('/') && !target.startsWith('//')) return base + target; // the common case: no parsing
  try {
    const origin = new URL(base);
    if (target.startsWith('/')) {
      const url = new URL(base + target);
      return url.host === origin.host ? url.href : undefined;
    }
    const absolute = new URL(target);
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
    if (absolute.host !== origin.host) return undefined;
    return `${base}${absolute.pathname}${absolute.search}`;
  } catch {
    return undefined;
  }
}

/** The Host check of a request that reached a loopback address while no `allowedHosts` was given. */
type LocalGuard = (req: IncomingMessage, headers: HeaderReader, url: string) => string | undefined;

/**
 * {@link LocalGuard} when `active` (no `allowedHosts` given): a request that arrived on a loopback address must
 * name a loopback `Host` on the port it arrived on. Origins are left to the endpoint's own rule.
 */
function localGuard(active: boolean): LocalGuard {
  if (!active) return () => undefined;
  const byPort = new Map<number, HostPolicy>();
  return (req, headers, url) => {
    const socket = req.socket as IncomingMessage['socket'] | null;
    const local = socket?.localAddress;
    const port = socket?.localPort;
    if (local === undefined || port === undefined || !isLoopback(local)) return undefined;
    let policy = byPort.get(port);
    if (policy === undefined) {
      policy = { allowedHosts: loopbackPolicy(port).allowedHosts };
      byPort.set(port, policy);
    }
    return hostPolicyViolation(
      { get: (name) => (/^origin$/i.test(name) ? null : headers.get(name)) },
      url,
      policy,
    );
  };
}

/** Runs one node request through the endpoint itself: no `Request`, body stream or `Response` for it. */
async function respondNative(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  onError: (error: unknown) => void,
  guard: LocalGuard,
  endpoint: (exchange: Exchange) => Promise<Reply>,
): Promise<void> {
  // Lazy: no AbortController (nor a listener on its signal) unless the handler or a stream reads `signal`.
  const cancellation = new RequestCancellation();
  res.once('close', () => {
    if (!res.writableFinished) cancellation.abort(new Error('the client disconnected'));
  });
  let reply: Reply;
  try {
    const exchange = new NodeExchange(req, url, cancellation);
    const violation = guard(req, exchange.headers, url);
    reply = violation === undefined ? await endpoint(exchange) : refuse(403, violation);
  } catch (error) {
    onError(error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    return;
  }
  closeIfUnread(req, res);
  if (isResponse(reply)) await writeResponse(reply, res, cancellation.signal);
  else writePlain(reply, res);
}

/** The {@link Exchange} of a node request (a class: `signal` is a getter, made only when read). */
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
    const req = this.#req;
    if (!streamRead(req)) return readNodeBody(req, limit);
    const bytes = parsedBody(req);
    if (bytes === undefined) return Promise.resolve({ ok: false, unreadable: CONSUMED });
    return Promise.resolve(bytes.byteLength > limit ? { ok: false } : { ok: true, bytes });
  }

  toRequest(): Request {
    const req = this.#req;
    return new Request(this.url, { method: this.method, headers: webHeaders(req), signal: this.signal });
  }
}

const CONSUMED =
  'the body was read before the MCP handler (a body parser?) and req.body holds nothing: mount the handler before body parsers, or leave the parsed body on req.body';

/** Whether the request may carry a body (a web `Request` cannot have one for GET and HEAD). */
function hasBody(req: IncomingMessage): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD';
}

/** Whether something (a body parser) already read the request stream. */
function streamRead(req: IncomingMessage): boolean {
  return req.readableDidRead || req.readableEnded;
}

const utf8 = new TextEncoder();

/**
 * The bytes of a body a parser left on `req.body`: a `Buffer` (or any bytes) and a string as they are, anything
 * else (`express.json()`'s object) as its JSON text; `undefined` when there is none or it cannot be written.
 */
function parsedBody(req: IncomingMessage): Uint8Array | undefined {
  const body = (req as { body?: unknown }).body;
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return utf8.encode(body);
  try {
    const text = JSON.stringify(body);
    return text === undefined ? undefined : utf8.encode(text);
  } catch {
    return undefined; // a cycle or a BigInt: nothing a JSON parser produced
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

/**
 * @internal Runs one node request through a fetch handler (the MCP endpoint as a fetch handler, or one of the
 * routes of `listen`): a `Request` whose body streams from `req` (or comes from `req.body` once a parser read the
 * stream), its `Response` streamed back. A throwing `serve` answers 500 and goes to `onError`.
 */
export async function respond(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  onError: (error: unknown) => void,
  serve: (request: Request) => Response | Promise<Response>,
): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort(new Error('the client disconnected'));
  });
  let response: Response;
  try {
    response = await serve(toRequest(req, url, abort.signal));
  } catch (error) {
    onError(error);
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

function toRequest(req: IncomingMessage, url: string, signal: AbortSignal): Request {
  const headers = webHeaders(req);
  let body: Uint8Array | ReadableStream<Uint8Array> | undefined;
  if (hasBody(req)) {
    body = streamRead(req) ? parsedBody(req) : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
    // The bytes of `req.body` replace a stream whose length header no longer says anything.
    if (body instanceof Uint8Array) headers.delete('content-length');
  }
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(body !== undefined && { body, duplex: 'half' }),
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
