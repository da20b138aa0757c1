// A host in a few lines (`npm run dev`): it starts the server beside it over stdio, answers its question as a user
// would, and prints the result. Replace the `elicitation` callback with a real prompt to ask a person.
import { fileURLToPath } from 'node:url';
import { Client } from '@boomerang/client';
import { StdioClientTransport } from '@boomerang/transport-stdio';

const client = new Client(
  { name: '{{name}}-client', version: '0.1.0' },
  { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) }, // ask your user here
);
const serverFile = fileURLToPath(new URL('./server.js', import.meta.url));
await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverFile] }));
try {
  const result = await client.callTool('greet', { greeting: 'Hello' });
  console.log(result.content); // [ { type: 'text', text: 'Hello, Ada!' } ]
} finally {
  await client.close();
}
