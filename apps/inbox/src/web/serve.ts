// Serves a fetch-style handler on node:http: each request becomes a web `Request` (its body streamed), each
// `Response` is written back (its body streamed). Binds 127.0.0.1 unless told otherwise. Its connections are
// bounded by the limits `listen()` of @boomerang/transport-http/node puts on an MCP endpoint, through the same code.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type ConnectionLimits, createLimitedServer } from '@boomerang/transport-http/node';

/** A running server. */
export interface Served extends AsyncDisposable {
  /** Its origin, e.g. `http://127.0.0.1:4100`. */
  readonly origin: URL;
  /** Stops accepting, ends open connections, resolves once closed. */
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const body =
    method === 'GET' || method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    ...(body === undefined ? {} : { body, duplex: 'half' }),
  } as RequestInit);
}

async function send(response: Response, res: ServerResponse, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (head || response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!res.write(chunk)) await once(res, 'drain');
  }
  res.end();
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Port (default 0: a free one). */
  readonly port?: number;
  /** Address to bind (default `127.0.0.1`). */
  readonly host?: string;
  /**
   * Connection limits (`ConnectionLimits` of @boomerang/transport-http/node; its defaults when absent: at most 512
   * connections, the one idle longest closed to make room for a newcomer; request headers within 10 s, whole
   * requests within 30 s, keep-alive idle 5 s).
   */
  readonly limits?: ConnectionLimits;
}

/**
 * Serves the handler `make(origin)` returns (it learns its origin once the port is bound) on `host:port`
 * (default `127.0.0.1`, port 0: a free one). A handler that throws answers 500. Idle sockets cannot exhaust it
 * (they would take the process's file descriptors and lock everyone out): its connections are bounded as
 * `listen()` bounds an MCP endpoint, by `createLimitedServer` (see {@link ServeOptions.limits}). Rejects with
 * a `RangeError` for a limit that is not a positive integer.
 */
export async function serve(
  make: (origin: URL) => (request: Request) => Promise<Response>,
  options: ServeOptions = {},
): Promise<Served> {
  const host = options.host ?? '127.0.0.1';
  let handler: ((request: Request) => Promise<Response>) | undefined;
  let origin: URL | undefined;
  const server = createLimitedServer(options.limits ?? {}, (req, res) => {
    if (handler === undefined || origin === undefined) {
      res.writeHead(503).end();
      return;
    }
    const run = handler;
    const at = origin;
    void (async () => {
      try {
        await send(await run(toRequest(req, at)), res, req.method === 'HEAD');
      } catch {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      }
    })();
  });
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  origin = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  handler = make(origin);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { origin, close, [Symbol.asyncDispose]: close };
}
