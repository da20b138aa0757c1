// Streamable HTTP from the tarballs: `listen` on a free loopback port, a client over fetch, one MRTR flow.
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { orders } from './orders.js';

const endpoint = await listen(orders, { port: 0 });
const asked: string[] = [];
const client = new Client(
  { name: 'host', version: '1.0.0' },
  {
    elicitation: async (params) => {
      asked.push(params.message);
      return { action: 'accept', content: { ok: true } };
    },
  },
);
try {
  await client.connect(new StreamableHttpClientTransport(endpoint.url));
  const result = await client.callTool('order', { item: 'tea' });
  console.log(JSON.stringify({ url: endpoint.url.href, asked, content: result.content }));
} finally {
  await client.close();
  await endpoint.close();
}
