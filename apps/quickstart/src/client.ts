// The root README's quick-start client, quoted verbatim (the region): it starts server.js (beside it) over stdio.
// #region client
import { Client } from '@boomerang/client';
import { StdioClientTransport } from '@boomerang/transport-stdio';

const client = new Client(
  { name: 'my-host', version: '1.0.0' },
  { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) }, // ask your user here
);
await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
console.log((await client.callTool('greet')).content); // [ { type: 'text', text: 'Hello, Ada!' } ]
await client.close();
// #endregion client
