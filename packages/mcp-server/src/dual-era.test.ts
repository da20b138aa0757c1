// End to end, both eras: a Boomerang Client on protocol 'auto' against one McpServer over in-memory links. The
// same resolver asks the same question: as MRTR rounds on 2026-07-28, as a server→client elicitation on a
// 2025-11-25 session. The legacy link hides server/discover (answers -32601, as a 2025-11-25 server does), so
// 'auto' falls back to initialize.
import { Client } from '@boomerang/client';
import type { JSONRPCMessage } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, resolver } from './resolvers/index.js';
import { recordingLogger } from './test-support/wire.js';

function shop() {
  const mcp = new McpServer({ name: 'shop', version: '1.0.0' }, { logger: recordingLogger() });
  const confirm = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
    elicit(`Backorder ${title}?`, z.object({ confirm: z.boolean() })),
  );
  mcp.tool(
    'order_book',
    { input: z.object({ title: z.string() }), resolve: { confirm } },
    ({ title }, { confirm }) => ({
      content: [{ type: 'text', text: confirm.confirm ? `ordered ${title}` : 'not ordered' }],
    }),
  );
  return mcp;
}

/** Every message that crosses `transport`, both ways, by method (responses as "response"). */
function tap(transport: Transport, log: string[], hideDiscover: boolean): Transport {
  const name = (m: JSONRPCMessage) => ('method' in m ? m.method : 'response');
  return {
    async send(message, options) {
      log.push(`server→ ${name(message)}`);
      return transport.send(message, options);
    },
    messages: {
      async *[Symbol.asyncIterator]() {
        for await (const message of transport.messages) {
          log.push(`client→ ${name(message)}`);
          if (
            hideDiscover &&
            'id' in message &&
            'method' in message &&
            message.method === 'server/discover'
          ) {
            const error = { code: -32601, message: 'Method not found' };
            await transport.send({ jsonrpc: '2.0', id: message.id as string | number, error });
            continue;
          }
          yield message;
        }
      },
    },
    close: () => transport.close(),
    [Symbol.asyncDispose]: () => transport.close(),
  };
}

async function run(mcp: McpServer, legacy: boolean) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const log: string[] = [];
  const connection = await mcp.connect(tap(serverEnd, log, legacy));
  const questions: string[] = [];
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      elicitation: (params) => {
        questions.push(params.message);
        return { action: 'accept', content: { confirm: true } };
      },
    },
  );
  await client.connect(clientEnd);
  const result = await client.callTool('order_book', { title: 'Dune' });
  const version = client.protocolVersion;
  await client.close();
  await connection.close();
  return { result, version, questions, log };
}

describe('dual era, end to end', () => {
  it('2026-07-28: discover, then MRTR rounds (the question comes back in an InputRequiredResult)', async () => {
    const { result, version, questions, log } = await run(shop(), false);
    expect(version).toBe('2026-07-28');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'ordered Dune' }] });
    expect(questions).toEqual(['Backorder Dune?']);
    expect(log).toEqual([
      'client→ server/discover',
      'server→ response',
      'client→ tools/call',
      'server→ response',
      'client→ tools/call',
      'server→ response',
    ]);
  });

  it('2025-11-25: initialize, then one tools/call answered after a server→client elicitation', async () => {
    const { result, version, questions, log } = await run(shop(), true);
    expect(version).toBe('2025-11-25');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'ordered Dune' }] });
    expect(questions).toEqual(['Backorder Dune?']);
    expect(log).toEqual([
      'client→ server/discover',
      'client→ initialize',
      'server→ response',
      'client→ notifications/initialized',
      'client→ tools/call',
      'server→ elicitation/create',
      'client→ response',
      'server→ response',
    ]);
  });
});
