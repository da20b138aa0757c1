// A minimal program on StdioServerTransport: answers every request with its params, and stops when stdin ends.
// Used to check that a real server process exits promptly on EOF and writes nothing but protocol lines.
import { StdioClientTransport, StdioServerTransport } from '@boomerang/transport-stdio';

const transport = new StdioServerTransport();
console.error('echo-server: ready (logs go to stderr)');
for await (const message of transport.messages) {
  if ('id' in message && 'method' in message) {
    const response = {
      jsonrpc: '2.0',
      id: message.id,
      result: { resultType: 'complete', echo: message.params ?? {} },
    };
    // Rejects once stdin has ended (the client closed the connection): the answer has nobody to go to.
    await transport.send(response).catch((error) => console.error(`echo-server: ${error.message}`));
  }
}
console.error('echo-server: stdin ended');
// The package exports the client transport too (referenced here, so the bundle keeps it, as Node loads the whole
// entry); a server must not pay for loading `node:child_process` until something spawns.
console.error(`echo-server: client transport ${typeof StdioClientTransport}`);
console.error(
  `echo-server: child_process loaded: ${process.moduleLoadList.includes('NativeModule child_process')}`,
);
