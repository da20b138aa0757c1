// host.ts: spawns the greeter server and calls its tool (quoted in README.md; examples.test.ts runs it).
import { Client } from '@boomerang/client';
import { StdioClientTransport } from '@boomerang/transport-stdio';

const [serverProgram = 'greeter-server.js'] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: process.execPath, args: [serverProgram] });
const client = new Client({ name: 'host', version: '1.0.0' });
await client.connect(transport); // spawns the server
try {
  const result = await client.callTool('greet', { name: 'Ada' });
  for (const item of result.content) if (item.type === 'text') console.log(item.text); // Hello, Ada!
} finally {
  await client.close(); // ends the server's stdin; SIGTERM, then SIGKILL, only if it lingers
}
