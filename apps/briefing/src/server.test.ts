import { Client, type ElicitationCallback } from '@boomerang/client';
import { McpError } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { AUDIENCE_QUESTION, createBriefingServer } from './server.js';

/** A client answering every elicitation with `answer`, recording the questions it saw. */
function clientAnswering(answer: Awaited<ReturnType<ElicitationCallback>>) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    {
      elicitation: (params) => {
        asked.push(params.message);
        return answer;
      },
    },
  );
  return { client, asked };
}

describe.each(['briefing', 'briefing_by_hand'])('prompt %s', (prompt) => {
  it('asks who the briefing is for, then drafts it for that audience', async () => {
    const { client, asked } = clientAnswering({ action: 'accept', content: { audience: 'the board' } });
    await using _link = await connectInMemory(client, createBriefingServer());
    const result = await client.getPrompt(prompt, { topic: 'hiring' });
    expect(asked).toEqual([AUDIENCE_QUESTION]);
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a briefing about hiring for the board.' } },
    ]);
  });

  it('works without a topic', async () => {
    const { client } = clientAnswering({ action: 'accept', content: { audience: 'new hires' } });
    await using _link = await connectInMemory(client, createBriefingServer());
    const result = await client.getPrompt(prompt);
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Write a briefing for new hires.' });
  });

  it.each([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ] as const)('a %sd question fails prompts/get with -32602', async (action, word) => {
    const { client, asked } = clientAnswering({ action });
    await using _link = await connectInMemory(client, createBriefingServer());
    const error = await client.getPrompt(prompt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain(word);
    expect(asked).toHaveLength(1);
  });
});

describe('the briefing server', () => {
  it('lists both prompts with their optional topic argument', async () => {
    const { client } = clientAnswering({ action: 'cancel' });
    await using _link = await connectInMemory(client, createBriefingServer());
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required ?? false])])).toEqual([
      ['briefing', [['topic', false]]],
      ['briefing_by_hand', [['topic', false]]],
    ]);
  });

  it('asks the resolver form under a key naming the question, with no state to seal', async () => {
    const client = new Client(
      { name: 'manual', version: '1.0.0' },
      { elicitation: () => ({ action: 'cancel' }) },
    );
    await using _link = await connectInMemory(client, createBriefingServer());
    const { continuation } = await client.start('prompts/get', { name: 'briefing', arguments: {} });
    expect(continuation?.requestState).toBeUndefined();
    expect(Object.keys(continuation?.inputRequests ?? {})).toEqual([
      expect.stringMatching(/^r0\.[A-Za-z0-9_-]{22}$/),
    ]);
  });
});
