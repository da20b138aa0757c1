// "Your first server in 5 minutes": typechecked with the site, run by first-server.examples.test.ts.
// #region server
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

const notes: string[] = [];

export const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.tool(
  'add_note',
  { description: 'Save a note', input: z.object({ text: z.string().min(1).describe('The note') }) },
  ({ text }) => {
    notes.push(text);
    return { content: [{ type: 'text', text: `Saved note #${notes.length}` }] };
  },
);
// #endregion server

// #region ask
// The question is a resolver: the server returns it as `input_required`, and the tool body runs only once the
// user has answered, on the client's retry. The server keeps nothing in between.
const Confirm = z.object({ confirm: z.boolean().describe('Delete them all?') });
const confirmClear = resolver({}, () => elicit(`Delete all ${notes.length} notes?`, Confirm));

server.tool(
  'clear_notes',
  { description: 'Delete every note', resolve: { answer: confirmClear } },
  (_args, { answer }) => {
    if (!answer.confirm) return { content: [{ type: 'text', text: 'Kept every note' }] };
    const count = notes.splice(0).length;
    return { content: [{ type: 'text', text: `Deleted ${count} notes` }] };
  },
);

// #endregion ask

// #region http
import { listen } from '@boomerang/transport-http/node';

/** Serves the notes on http://127.0.0.1:<port>/mcp until `close()`. */
export async function serveHttp(port = 3000) {
  const endpoint = await listen(server, { port }); // 127.0.0.1 by default; Host and Origin are checked
  console.error(`notes: serving ${endpoint.url}`);
  return endpoint;
}

// #endregion http

// #region client
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** A host: adds a note, then clears them, answering the server's question in its `elicitation` callback. */
export async function addAndClear(url: URL | string): Promise<string[]> {
  const client = new Client(
    { name: 'notes-cli', version: '1.0.0' },
    {
      elicitation: async (params) => {
        console.log(params.message); // Delete all 1 notes?
        return { action: 'accept', content: { confirm: true } };
      },
    },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  try {
    const added = await client.callTool('add_note', { text: 'Buy milk' });
    const cleared = await client.callTool('clear_notes'); // two requests: the question, then the answer
    return [added, cleared].map((result) =>
      result.content[0]?.type === 'text' ? result.content[0].text : '',
    );
  } finally {
    await client.close();
  }
}

// #endregion client

// #region stdio-client
import { StdioClientTransport } from '@boomerang/transport-stdio';

/** Starts the stdio program as a child process, calls a tool, and stops it. */
export async function addNoteOverStdio(program: string): Promise<string> {
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [program] }));
  try {
    const result = await client.callTool('add_note', { text: 'Sent over stdio' });
    return result.content[0]?.type === 'text' ? result.content[0].text : '';
  } finally {
    await client.close(); // ends the server's stdin: it exits
  }
}
// #endregion stdio-client
