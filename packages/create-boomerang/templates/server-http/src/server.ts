// The server over Streamable HTTP (`npm start`): http://127.0.0.1:3000/mcp, or the port in PORT. It listens on
// 127.0.0.1 only; pass `host` to `listen` to serve other interfaces (behind your own authentication).
import { listen } from '@boomerang/transport-http/node';
import { server } from './greeter.js';

const endpoint = await listen(server, { port: Number(process.env.PORT ?? 3000) });
console.log(`MCP endpoint: ${endpoint.url.href}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void endpoint.close());
}
