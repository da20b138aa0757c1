// "Serving 2025-11-25 clients": the same server, unchanged, for a host that still speaks 2025-11-25.
// Run by legacy.examples.test.ts.
// #region same-server
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { server } from './first-server.examples.js';

/**
 * A 2025-11-25 host (`initialize`, then server→client requests): the `clear_notes` resolver's question reaches
 * it as a real `elicitation/create` request in the middle of the call, answered by the same callback.
 */
export async function clearAsLegacyHost(): Promise<{ version: string | undefined; text: string }> {
  const client = new Client(
    { name: 'old-host', version: '1.0.0' },
    {
      protocol: '2025-11-25', // what an older host speaks; 'auto' (the default) finds out by itself
      elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
    },
  );
  await using _link = await connectInMemory(client, server);
  const result = await client.callTool('clear_notes');
  return {
    version: client.protocolVersion,
    text: result.content[0]?.type === 'text' ? result.content[0].text : '',
  };
}

// #endregion same-server

// #region shim
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { Server } from '@boomerang/server';

/** A low-level server whose hand-built rounds also reach 2025-11-25 clients, through the shim. */
export const greeter = new Server(
  { name: 'greeter', version: '1.0.0' },
  {
    legacy: { shim: true }, // an InputRequiredResult becomes server→client requests on a 2025-11-25 session
    onListTools: () => ({ tools: [{ name: 'greet', inputSchema: { type: 'object' } }] }),
    onCallTool: (_params, ctx) => {
      const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.name);
      if (answer.success && answer.data.action === 'accept') {
        return { content: [{ type: 'text', text: `Hello, ${String(answer.data.content?.name)}!` }] };
      }
      return inputRequired({
        inputRequests: {
          name: elicitRequest({
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
      });
    },
  },
);
// #endregion shim
