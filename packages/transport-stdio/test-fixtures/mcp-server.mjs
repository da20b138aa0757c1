// A real MCP server program: @boomerang/server's Server on a StdioServerTransport, as the README shows.
// Tools: echo { text } answers the text; slow waits until cancelled; crash exits with code 3 mid-request.
import { Server } from '@boomerang/server';
import { StdioServerTransport } from '@boomerang/transport-stdio';

const tools = ['echo', 'slow', 'crash'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const server = new Server(
  { name: 'stdio-e2e', version: '1.0.0' },
  {
    onListTools: () => ({ tools }),
    onCallTool: async ({ name, arguments: args }, ctx) => {
      if (name === 'crash') process.exit(3);
      if (name === 'slow') {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 60_000);
          ctx.signal?.addEventListener(
            'abort',
            () => {
              console.error('mcp-server: slow was cancelled');
              resolve(clearTimeout(timer));
            },
            { once: true },
          );
        });
      }
      return { content: [{ type: 'text', text: String(args?.text) }] };
    },
  },
);
await server.connect(new StdioServerTransport());
console.error('mcp-server: serving on stdio');
