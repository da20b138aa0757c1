// The root README's quick-start server, quoted verbatim (the region); quickstart.test.ts runs it from source and
// tarballs.test.ts from the packed packages in a fresh npm project.
// #region server
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { StdioServerTransport } from '@boomerang/transport-stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'greeter', version: '1.0.0' });

// A resolver returns a value, or a question: the server answers `input_required`, the client asks its user and
// calls again with the answer, and only then does the tool run. Nothing is kept on the server in between.
const askName = resolver({}, () => elicit('What is your name?', z.object({ name: z.string() })));

server.tool('greet', { description: 'Greet the user', resolve: { user: askName } }, (_args, { user }) => ({
  content: [{ type: 'text', text: `Hello, ${user.name}!` }],
}));

await server.connect(new StdioServerTransport()); // serves stdin/stdout until stdin closes
// #endregion server
