// The server over stdio, as an MCP host starts it (`node dist/server.js`): it serves stdin/stdout until stdin closes.
import { StdioServerTransport } from '@boomerang/transport-stdio';
import { server } from './greeter.js';

await server.connect(new StdioServerTransport());
