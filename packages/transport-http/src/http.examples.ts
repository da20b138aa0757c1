// The README's example: quoted verbatim from the first import on; run by http.examples.test.ts.
import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { Server } from '@boomerang/server';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';

const greet = {
  name: 'greet',
  description: 'Greets someone, asking for their name when it is missing',
  inputSchema: {
    type: 'object' as const,
    // Mirrored into an `Mcp-Param-Lang` header, so a gateway can route on it without reading the body.
    properties: { name: { type: 'string' }, lang: { type: 'string', 'x-mcp-header': 'Lang' } },
  },
};

export const server = new Server(
  { name: 'greeter', version: '1.0.0' },
  {
    onListTools: () => ({ tools: [greet] }),
    onCallTool: ({ arguments: args }, ctx) => {
      const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.name);
      const name = args?.name ?? (answer.success ? answer.data.content?.name : undefined);
      if (typeof name === 'string') {
        const hello = args?.lang === 'fr' ? 'Bonjour' : 'Hello';
        return { content: [{ type: 'text', text: `${hello}, ${name}!` }] };
      }
      return inputRequired({
        inputRequests: {
          name: elicitRequest({
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          }),
        },
      });
    },
  },
);

/** Serves `server` on 127.0.0.1, greets over HTTP (two rounds: the server asks for the name), and stops. */
export async function main(): Promise<string> {
  // http://127.0.0.1:<free port>/mcp; Host and Origin are checked against the loopback names.
  const endpoint = await listen(server, { tools: [greet] });
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  await client.connect(new StreamableHttpClientTransport(endpoint.url));
  try {
    await client.listTools(); // the transport learns each tool's x-mcp-header declarations
    const result = await client.callTool('greet', { lang: 'fr' });
    return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
  } finally {
    await client.close();
    await endpoint.close();
  }
}
