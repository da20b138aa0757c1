import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { boomerangServer, officialServer } from './migrating.examples.js';

type Answers = { backorder: boolean; wrap: boolean };

/** The answer the user gives to each question, by its message. */
function reply(message: string, answers: Answers) {
  return message === 'Gift-wrap it?'
    ? { action: 'accept' as const, content: { wrap: answers.wrap } }
    : { action: 'accept' as const, content: { confirm: answers.backorder } };
}

/** Calls `order_book` on the official server (2026-07-28, its own client and in-memory pair); counts questions. */
async function official(title: string, answers: Answers): Promise<{ text: string; asked: number }> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const serving = serveStdio(() => officialServer(), { transport: serverEnd, legacy: 'reject' });
  const client = new OfficialClient(
    { name: 'host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  let asked = 0;
  client.setRequestHandler('elicitation/create', async (request) => {
    asked++;
    return reply(request.params.message, answers);
  });
  await client.connect(clientEnd);
  try {
    const result = await client.callTool({ name: 'order_book', arguments: { title } });
    const [first] = result.content as Array<{ type: string; text?: string }>;
    return { text: first?.text ?? '', asked };
  } finally {
    await client.close();
    await serving.close();
  }
}

/** The same call on the Boomerang server. */
async function boomerang(title: string, answers: Answers): Promise<{ text: string; asked: number }> {
  let asked = 0;
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      elicitation: async (params) => {
        asked++;
        return reply(params.message, answers);
      },
    },
  );
  await using _link = await connectInMemory(client, boomerangServer);
  const result = await client.callTool('order_book', { title });
  return { text: result.content[0]?.type === 'text' ? result.content[0].text : '', asked };
}

describe('migrating from the official TypeScript SDK', () => {
  // Questions asked [before, after]: the resolvers ask independent questions together, so a refused backorder
  // was asked beside the wrapping question rather than before it.
  const cases: Array<[string, Answers, string, [number, number]]> = [
    ['Dune', { backorder: false, wrap: true }, 'Ordered "Dune", gift-wrapped', [1, 1]],
    ['Solaris', { backorder: true, wrap: false }, 'Ordered "Solaris" (backorder)', [2, 2]],
    ['Solaris', { backorder: false, wrap: true }, 'Not ordered', [1, 2]],
  ];
  for (const [title, answers, text, asked] of cases) {
    it(`before and after answer alike: ${title}, ${JSON.stringify(answers)}`, async () => {
      const before = await official(title, answers);
      const after = await boomerang(title, answers);
      expect(before.text).toBe(text);
      expect(after.text).toBe(text);
      expect([before.asked, after.asked]).toEqual(asked);
    });
  }
});
