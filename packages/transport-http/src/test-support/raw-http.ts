// A raw HTTP exchange over node:http, so socket tests can send any Host header or body and read the status.
import { request as httpRequest } from 'node:http';

/** What {@link raw} answers: the status, the response headers and the body text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** POSTs (or `method`s) `body` to `url` (its path, or `path`) with exactly `headers`. */
export function raw(
  url: URL,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path ?? url.pathname,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
