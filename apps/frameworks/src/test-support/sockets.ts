// Endpoints on real sockets (127.0.0.1): a node:http server of a framework's, and raw requests to it.
import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Mounted, RawAnswer, RawRequest } from './mount-suite.js';

/**
 * One request over node:http with exactly `headers` (fetch would not send a Host of the test's choosing). The
 * answer resolves as soon as it is read, even when the server closes the connection before taking the whole
 * body (a 413 does).
 */
export function sendRaw(url: URL, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method ?? 'POST',
        path: request.path ?? `${url.pathname}${url.search}`,
        headers: request.headers,
      },
      (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const each of Array.isArray(value) ? value : [value ?? '']) headers.append(name, each);
          }
          resolve({ status: res.statusCode ?? 0, headers, body });
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.end(request.body);
  });
}

/** A node:http server (as a framework made it) listening on 127.0.0.1, as a {@link Mounted} endpoint at `path`. */
export async function onSocket(server: Server, path: string, close?: () => Promise<void>): Promise<Mounted> {
  if (!server.listening) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  const url = new URL(path, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    url,
    send: (request) => sendRaw(url, request),
    close:
      close ??
      (() =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        })),
  };
}
