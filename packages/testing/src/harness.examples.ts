// The README's example: a user's own tests of their server, written with the harness (registered by
// harness.examples.test.ts, which imports it). Quoted verbatim (each #region) by README.md and the testing guide;
// index.test.ts checks the quote.
// #region test
import { accept, assistantMessage, connectTestClient, decline } from '@boomerang/testing';
import { describe, expect, it } from 'vitest';
import { bookshop } from './bookshop.examples.js';

describe('order_book', () => {
  it('orders a book in stock without asking', async () => {
    await using t = await connectTestClient(bookshop);
    const result = await t.client.callTool('order_book', { title: 'Dune' });
    expect(result.content).toEqual([{ type: 'text', text: 'Ordered "Dune"' }]);
    expect(t.lastCall?.rounds).toHaveLength(1); // one request, nothing asked
  });

  it('asks before a backorder, and orders on yes', async () => {
    await using t = await connectTestClient(bookshop, {
      answers: [{ question: /out of stock/, answer: accept({ confirm: true }) }], // by matching the question
    });
    const result = await t.client.callTool('order_book', { title: 'Solaris' });
    expect(result.content).toEqual([{ type: 'text', text: 'Ordered "Solaris"' }]);
    const call = t.lastCall;
    expect(call?.rounds).toHaveLength(2); // the question, then the retry with the answer
    expect(Object.values(call?.asked(1) ?? {})).toMatchObject([
      { method: 'elicitation/create', params: { message: '"Solaris" is out of stock. Order it anyway?' } },
    ]);
    expect(call?.asked(2)).toEqual({}); // the retry got the complete result
  });

  it('orders nothing when the user declines', async () => {
    await using t = await connectTestClient(bookshop, {
      answers: { r0: decline() }, // by key: McpServer asks its resolvers' questions as r0.…, r1.…
    });
    const result = await t.client.callTool('order_book', { title: 'Solaris' });
    expect(result.isError).toBe(true); // a declined question fails the tool with an error the model can read
    expect(Object.values(t.lastCall?.rounds[1]?.inputResponses ?? {})).toEqual([{ action: 'decline' }]);
  });
});

describe('describe_book', () => {
  it("asks the client's model for a blurb", async () => {
    await using t = await connectTestClient(bookshop, {
      answers: [{ method: 'sampling/createMessage', answer: assistantMessage('A desert planet.') }],
    });
    const result = await t.client.callTool('describe_book', { title: 'Dune' });
    expect(result.content).toEqual([{ type: 'text', text: 'A desert planet.' }]);
    expect(Object.values(t.lastCall?.asked(1) ?? {}).map((q) => q.method)).toEqual([
      'sampling/createMessage',
    ]);
  });
});
// #endregion test
