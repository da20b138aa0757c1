// Serves a fetch-style handler on node:http: each request becomes a web `Request` (its body streamed), each
// `Response` is written back (its body streamed). Binds 127.0.0.1 unless told otherwise.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

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

/**
 * Serves the handler `make(origin)` returns (it learns its origin once the port is bound) on `host:port`
 * (default `127.0.0.1`, port 0: a free one). A handler that throws answers 500.
 */
export async function serve(
  make: (origin: URL) => (request: Request) => Promise<Response>,
  options: { readonly port?: number; readonly host?: string } = {},
): Promise<Served> {
  const host = options.host ?? '127.0.0.1';
  let handler: ((request: Request) => Promise<Response>) | undefined;
  let origin: URL | undefined;
  const server = createServer((req, res) => {
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
