// A host in a few lines: it calls the server at the URL given (`node dist/client.js http://127.0.0.1:3000/mcp`
// while `npm start` runs), or, with no URL (`npm run dev`), serves it on a free port of its own first. It answers
// the server's question as a user would and prints the result.
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { server } from './greeter.js';

const given = process.argv[2];
const endpoint = given === undefined ? await listen(server, { port: 0 }) : undefined;
const client = new Client(
  { name: '{{name}}-client', version: '0.1.0' },
  { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) }, // ask your user here
);
try {
  await client.connect(new StreamableHttpClientTransport(given ?? endpoint?.url.href ?? ''));
  const result = await client.callTool('greet', { greeting: 'Hello' });
  console.log(result.content); // [ { type: 'text', text: 'Hello, Ada!' } ]
} finally {
  await client.close();
  await endpoint?.close();
}
