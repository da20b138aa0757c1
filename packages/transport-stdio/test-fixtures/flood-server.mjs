// A server whose client never reads its stdout (the back-pressure test): `MAX_BUFFERED` bytes of back-pressure
// bound; `MODE=server` serves @boomerang/server's Server (replies are sent concurrently), `MODE=sequential` a loop
// that awaits each reply before taking the next message. Every request is answered with its params, echoed.
import { Server } from '@boomerang/server';
import { StdioServerTransport } from '@boomerang/transport-stdio';

const transport = new StdioServerTransport({ maxBufferedBytes: Number(process.env.MAX_BUFFERED) });
if (process.env.MODE === 'server') {
  const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
  const server = new Server(
    { name: 'flood', version: '1.0.0' },
    {
      onListTools: () => ({ tools }),
      onCallTool: ({ arguments: args }) => ({ content: [{ type: 'text', text: String(args?.text) }] }),
    },
  );
  await server.connect(transport);
} else {
  for await (const message of transport.messages) {
    if ('id' in message && 'method' in message) {
      const response = {
        jsonrpc: '2.0',
        id: message.id,
        result: { resultType: 'complete', echo: message.params },
      };
      await transport.send(response).catch(() => {});
    }
  }
}
