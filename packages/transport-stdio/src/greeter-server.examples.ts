// greeter-server.ts: an MCP server program on stdio (quoted in README.md; examples.test.ts runs it).
import { Server } from '@boomerang/server';
import { StdioServerTransport } from '@boomerang/transport-stdio';

const greet = {
  name: 'greet',
  description: 'Greets someone by name',
  inputSchema: { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] },
};

const server = new Server(
  { name: 'greeter', version: '1.0.0' },
  {
    onListTools: () => ({ tools: [greet] }),
    onCallTool: ({ arguments: args }) => ({
      content: [{ type: 'text', text: `Hello, ${String(args?.name)}!` }],
    }),
  },
);

// Serves until the client closes stdin; then nothing holds the process and it exits.
await server.connect(new StdioServerTransport());
console.error('greeter: serving on stdio'); // logs go to stderr: stdout carries protocol messages only
