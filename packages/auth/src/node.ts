import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedirectStep } from './authorize.js';

export { type WorkloadTokenOptions, workloadToken } from './workload-token.js';

/** Options of {@link loopbackRedirect}. */
export interface LoopbackRedirectOptions {
  /** Port to listen on. Default 0 (any free port); fix it when a store keeps DCR registrations across runs. */
  readonly port?: number | undefined;
  /** Loopback address. Default `127.0.0.1` (RFC 8252 §7.3 prefers the IP literal to `localhost`). */
  readonly host?: '127.0.0.1' | 'localhost' | '::1' | undefined;
  /** Callback path. Default `/callback`. */
  readonly path?: string | undefined;
  /** Opens the authorization URL for the user. Default {@link openBrowser}. */
  readonly open?: ((url: URL) => void | Promise<void>) | undefined;
  /** Give up waiting for the callback after this many milliseconds. Default 300 000 (5 minutes). */
  readonly timeoutMs?: number | undefined;
}

/** A running loopback listener: its `redirectUri`, the {@link RedirectStep} using it, and `close()`. */
export interface LoopbackRedirect {
  readonly redirectUri: string;
  readonly authorize: RedirectStep;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>You can close this window and return to the application.</p>';

/**
 * Starts an HTTP listener on a loopback address for native (CLI, desktop) OAuth clients (RFC 8252 §7.3):
 * `authorize(url)` opens the browser at the authorization URL and resolves to the first request that arrives on
 * the callback path (the authorization response; `withOAuth` checks `state` and `iss`). Pass `redirectUri` and
 * `authorize` to `withOAuth`; `close()` when done (it is `await using`-able).
 */
export async function loopbackRedirect(options: LoopbackRedirectOptions = {}): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  const host = options.host ?? '127.0.0.1';
  const open = options.open ?? openBrowser;
  const timeoutMs = options.timeoutMs ?? 300_000;
  let waiting: ((url: URL) => void) | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? host}`);
    if (url.pathname !== path || waiting === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(DONE_PAGE);
    waiting(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = host === '::1' ? `http://[::1]:${port}` : `http://${host}:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    redirectUri: `${origin}${path}`,
    authorize: async (authorizationUrl) => {
      const arrived = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`no authorization response on ${origin}${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = (url) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(url);
        };
      });
      await open(authorizationUrl);
      return arrived;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Opens `url` in the user's browser (`open` on macOS, `start` on Windows, `xdg-open` elsewhere), detached;
 * failures are ignored (print the URL yourself as a fallback).
 */
export function openBrowser(url: URL): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url.href]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.href.replace(/&/g, '^&')]]
        : ['xdg-open', [url.href]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no browser: the caller shows the URL
  }
}
