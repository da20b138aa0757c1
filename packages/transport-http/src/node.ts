// @boomerang/transport-http/node: serve the MCP endpoint on node:http, by itself (`listen`) or inside a server or
// framework of yours (`toNodeHandler`).
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { argumentError } from '@boomerang/protocol';
import { type HttpMessageHandler, logError } from './endpoint.js';
import { type HostPolicy, hostPolicyViolation, isLoopback, loopbackPolicy } from './guard.js';
import type { FetchHandler, HttpHandlerOptions } from './handler.js';
import { type ConnectionLimits, createLimitedServer } from './node-connections.js';
import {
  type NodeHandler,
  type NodeHandlerOptions,
  requestUrl,
  respond,
  toNodeHandler,
} from './node-handler.js';
import { forbidden } from './replies.js';
import { type ListenRoutes, type Route, type RouteHandler, routeTable } from './routes.js';

export type { ConnectionLimits, ListenRoutes, Route, RouteHandler };
export { createLimitedServer, type NodeHandler, type NodeHandlerOptions, toNodeHandler };

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
   *
   * With `graceMs`, a graceful stop for rolling restarts: the listening socket closes at once (a load balancer's
   * next connection goes to another instance), idle keep-alive connections close, and the requests in flight get
   * up to `graceMs` to finish their responses before whatever is left is cut. Event streams count as in flight:
   * end `subscriptions/listen` streams first (`server.close()` answers them gracefully). Throws `RangeError` for
   * a `graceMs` that is not a non-negative integer.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** Options of {@link Listening.close}. */
export interface CloseOptions {
  /** How long requests in flight may take to finish once no new connection is accepted (default 0: cut them). */
  readonly graceMs?: number | undefined;
}

/**
 * Serves the MCP endpoint on `node:http` and resolves once it listens. `handler` is either an `HttpMessageHandler`
 * (`Server`, `McpServer`), served with `createHttpHandler(handler, options)`, or a fetch handler you built with
 * `createHttpHandler` yourself (to add routes or middleware around it), in front of which `listen` puts its own
 * Host/Origin check. It is {@link toNodeHandler} behind a `node:http` server of its own, whose `next` serves
 * `routes`; use `toNodeHandler` to mount the endpoint in a server or framework you already run.
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
 * for `keepAliveTimeoutMs` (5 s). Throws `RangeError` for a limit that is not a positive integer. A `node:http`
 * server of your own gets the same limits from {@link createLimitedServer}.
 *
 * Request bodies and event streams flow through unbuffered (back-pressure respected); a client that disconnects
 * aborts its request's `ctx.signal`. An `HttpMessageHandler` is served straight from `node:http` (same checks and
 * answers as `createHttpHandler`, without building a `Request`, a body stream and a `Response` per message;
 * `authenticate` gets a `Request` with the URL, method and headers, its body left unread).
 */
export async function listen(
  handler: HttpMessageHandler | FetchHandler,
  options: ListenerOptions & Omit<HttpHandlerOptions, keyof HostPolicy> = {},
): Promise<Listening> {
  const { port = 0, host = '127.0.0.1', path = '/mcp' } = options;
  if (!path.startsWith('/')) throw argumentError('path', 'a path starting with "/"', path);
  const routes = routeTable(options.routes, path);
  let serve: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const server = createLimitedServer(options, (req, res) => {
    if (serve === undefined) {
      res.writeHead(503).end();
      return;
    }
    void serve(req, res);
  });
  server.listen(port, host);
  await once(server, 'listening');

  const { port: bound } = server.address() as AddressInfo;
  const policy: HostPolicy = {
    allowedHosts: options.allowedHosts ?? (isLoopback(host) ? loopbackPolicy(bound).allowedHosts : undefined),
    allowedOrigins:
      options.allowedOrigins ?? (isLoopback(host) ? loopbackPolicy(bound).allowedOrigins : undefined),
  };
  const mcp = toNodeHandler(handler, { ...options, ...policy, path });
  if (routes.size === 0) {
    serve = mcp;
  } else {
    const onError = options.onError ?? logError;
    const hostOnly: HostPolicy = { allowedHosts: policy.allowedHosts };
    const other = (req: IncomingMessage, res: ServerResponse) => {
      const href = requestUrl(req);
      if (href === undefined) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request');
        return;
      }
      const url = new URL(href);
      const route = routes.get(url.pathname);
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      return respond(req, res, url.href, onError, (request) => {
        // The Host check only (DNS rebinding): routes answer any Origin, as their own CORS rules say.
        const headers = {
          get: (name: string) => (/^origin$/i.test(name) ? null : request.headers.get(name)),
        };
        const violation = hostPolicyViolation(headers, request.url, hostOnly);
        return violation === undefined ? route(request) : forbidden(violation);
      });
    };
    serve = (req, res) => mcp(req, res, () => other(req, res));
  }

  const url = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}`);
  let closing: Promise<void> | undefined;
  const close = (closeOptions: CloseOptions = {}) => {
    const graceMs = closeOptions.graceMs ?? 0;
    if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
      return Promise.reject(
        new RangeError(`"graceMs" expected a non-negative integer, got ${String(closeOptions.graceMs)}`),
      );
    }
    closing ??= (async () => {
      // Sessions first: their requests in flight get their error while the connections are still open.
      await mcp.close().catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (graceMs === 0) {
          server.closeAllConnections();
          return;
        }
        // Keep-alive connections fall idle as their last response ends: close them as they do.
        server.closeIdleConnections();
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.once('close', () => {
          clearInterval(sweep);
          clearTimeout(cut);
        });
      });
    })();
    return closing;
  };
  return { url, close, [Symbol.asyncDispose]: close };
}
