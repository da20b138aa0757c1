// A question the client has no callback for: the server refuses to ask it (-32021, spec S10: it may only ask for
// what this request declared), and the error names what this client must register or declare.
import {
  createMessageRequest,
  type ElicitRequestFormParams,
  elicitRequest,
  elicitUrlRequest,
  type InputRequests,
  inputRequired,
  listRootsRequest,
  McpError,
} from '@boomerang/protocol';
import { Server } from '@boomerang/server';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import type { ClientOptions } from './options.js';

const form = elicitRequest({
  message: 'Region?',
  requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
} satisfies ElicitRequestFormParams);
const url = elicitUrlRequest({ message: 'Sign in', url: 'https://auth.example/x' });
const sampling = createMessageRequest({
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
  maxTokens: 5,
  tools: [{ name: 'x', inputSchema: { type: 'object' } }],
});

/** A server whose one tool asks `requests`, once, then answers. */
async function ask(requests: InputRequests, options: ClientOptions) {
  const server = new Server(
    { name: 'asker', version: '1' },
    {
      onListTools: async () => ({ tools: [] }),
      onCallTool: async (_params, ctx) =>
        ctx.inputResponses === undefined ? inputRequired({ inputRequests: requests }) : { content: [] },
    },
  );
  const client = new Client({ name: 'host', version: '1' }, { protocol: '2026-07-28', ...options });
  await using _link = await connectInMemory(client, server);
  return await client.callTool('provision').catch((error: unknown) => error);
}

describe('a question this client has no callback for', () => {
  it.each([
    ['form elicitation, no callback', { form }, {}, 'register an "elicitation" callback'],
    [
      'URL elicitation, form only',
      { url },
      { elicitation: async () => ({ action: 'cancel' as const }), elicitationModes: ['form' as const] },
      'add "url" to elicitationModes',
    ],
    ['roots, no callback', { roots: listRootsRequest() }, {}, 'register a "roots" callback'],
    [
      'sampling with tools, no callback',
      { sampling },
      {},
      'register a "sampling" callback, and set samplingTools: true',
    ],
    [
      'sampling with tools, callback without samplingTools',
      { sampling },
      {
        sampling: async () => ({
          role: 'assistant' as const,
          content: { type: 'text' as const, text: '' },
          model: 'm',
        }),
      },
      'set samplingTools: true',
    ],
  ])(
    '%s: the server’s -32021, its message naming the call and the remedy',
    async (_name, requests, options, remedy) => {
      const error = await ask(requests as InputRequests, options as ClientOptions);
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: expect.any(Object) },
        message: expect.stringMatching(
          new RegExp(
            `^tools/call "provision": .+\\. This client did not declare it: ${remedy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in the Client options$`,
          ),
        ),
      });
      expect((error as McpError).cause).toBeInstanceOf(McpError);
    },
  );

  it('leaves every other server error as it was', async () => {
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: async () => ({ tools: [] }),
        onCallTool: async () => {
          throw new McpError(-32602, 'Unknown tool: provision');
        },
      },
    );
    const client = new Client({ name: 'host', version: '1' }, { protocol: '2026-07-28' });
    await using _link = await connectInMemory(client, server);
    await expect(client.callTool('provision')).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown tool: provision',
    });
  });
});
