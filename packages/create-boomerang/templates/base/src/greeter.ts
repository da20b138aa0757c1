// The server and its one tool. `greet` takes a greeting (validated by zod) and needs the user's name, which only
// the user knows: its resolver asks for it. The first `tools/call` comes back `input_required` with the question;
// the client asks its user and calls again with the answer, and only then does the tool run. Nothing is kept on
// the server in between (the state of the call travels sealed in the request), so any instance can answer.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

export const server = new McpServer({ name: '{{name}}', version: '0.1.0' });

/** Asks the user for their name, once per call. */
const askName = resolver({}, () => elicit('What is your name?', z.object({ name: z.string().min(1) })));

server.tool(
  'greet',
  {
    description: 'Greet the user by name (asks for it)',
    input: z.object({ greeting: z.string().default('Hello') }),
    resolve: { user: askName },
  },
  ({ greeting }, { user }) => ({ content: [{ type: 'text', text: `${greeting}, ${user.name}!` }] }),
);
