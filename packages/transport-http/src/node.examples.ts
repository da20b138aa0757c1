// The README's toNodeHandler example: the MCP endpoint inside a node:http server of your own, quoted verbatim
// from the first import on.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { toNodeHandler } from '@boomerang/transport-http/node';
import { server } from './http.examples.js';

const mcp = toNodeHandler(server, { path: '/mcp' }); // every option of createHttpHandler, and the path

const app = createServer((req, res) =>
  mcp(req, res, () => {
    // every other path: the rest of your app (Express, Fastify, Koa: see the mounting guide)
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the rest of the app');
  }),
);

/** Serves `app` on a free 127.0.0.1 port, greets through /mcp, reads /, and stops. */
export async function main(): Promise<[string, string]> {
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  try {
    await client.connect(new StreamableHttpClientTransport(`${base}/mcp`));
    const result = await client.callTool('greet', {});
    const greeting = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
    return [greeting, await (await fetch(`${base}/`)).text()];
  } finally {
    await client.close();
    await mcp.close(); // ends the 2025-11-25 sessions it keeps
    app.closeAllConnections();
    await new Promise((resolve) => app.close(resolve));
  }
}
