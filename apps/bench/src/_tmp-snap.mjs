import { startHttpServer } from './transports/http-child.mjs';
import { rawNetClient } from './transports/raw-net-http.mjs';

const [side, out, flow = 'confirm', N = '30000'] = process.argv.slice(2);
const server = await startHttpServer(side, {
  execArgv: ['--expose-gc', '--import', '/tmp/hs/snap.mjs'],
  env: { ...process.env, HS_OUT: out },
});
const client = rawNetClient(server.url);
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < Number(N)) await client.call(flow, next++);
  }),
);
client.close();
await server.stop();
