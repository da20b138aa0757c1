// A static file server for the built site, on 127.0.0.1 and a free port: what the browser test opens.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** A running server: its base URL (`http://127.0.0.1:<port>`) and how to stop it. */
export interface StaticServer extends AsyncDisposable {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `root` read-only: `/x/` is `/x/index.html`, `/x` falls back to `/x.html`; anything outside is 404. */
export async function serveStatic(root: string): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const candidates = [file, `${file}.html`];
    const found = file.startsWith(root + sep) || file === root ? candidates.find(isFile) : undefined;
    if (found === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(found)] ?? 'application/octet-stream' });
    createReadStream(found).pipe(res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}`, close, [Symbol.asyncDispose]: close };
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}
