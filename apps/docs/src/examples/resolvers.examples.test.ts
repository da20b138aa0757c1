import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { buyDune, shop } from './resolvers.examples.js';

describe('resolvers', () => {
  it('asks every independent question in one round, and the dependent one in the next', async () => {
    const rounds: string[][] = [];
    const text = await buyDune('express', rounds);
    expect(text).toBe('Ordered "Dune" (express). A desert planet epic. Receipt in file:///home/ada/receipts');
    expect(rounds.map((round) => [...round].sort())).toEqual([
      ['Add a gift note?', 'How fast should it ship?', 'roots', 'sampling', 'url'],
      ['Express costs €9 more. Accept?'],
    ]);
  });

  it('asks nothing more when the dependent question is not needed', async () => {
    const rounds: string[][] = [];
    expect(await buyDune('standard', rounds)).toContain('(standard)');
    expect(rounds).toHaveLength(1);
  });

  it('keeps resolved names out of the tool schema', async () => {
    const client = new Client({ name: 't', version: '1' });
    await using _link = await connectInMemory(client, shop);
    const [tool] = (await client.listTools()).tools;
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['title']);
  });

  it('fails the call readably when a plain `elicit` is declined', async () => {
    const client = new Client(
      { name: 't', version: '1' },
      {
        elicitation: async () => ({ action: 'decline' }),
        sampling: async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } }),
        roots: async () => ({ roots: [] }),
      },
    );
    await using _link = await connectInMemory(client, shop);
    const result = await client.callTool('checkout', { title: 'Dune' });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('elicitation was declined') });
  });
});
