import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, elicitResult, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const say = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});
const firstText = (result: Record<string, unknown>) =>
  (result.messages as { content: { text: string } }[])[0]?.content.text;

describe('prompts', () => {
  it('publishes arguments from the zod input (description, title, required), in registration order', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.prompt(
      'review',
      {
        title: 'Code review',
        description: 'Review some code',
        input: z.object({
          code: z.string().describe('The code'),
          language: z.string().meta({ title: 'Language' }).optional(),
        }),
      },
      ({ code }) => say(code),
    );
    mcp.prompt('hello', {}, () => say('hi'));
    const result = resultOf(await mcp.handle(request('prompts/list')));
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(result.prompts).toEqual([
      {
        name: 'review',
        title: 'Code review',
        description: 'Review some code',
        arguments: [
          { name: 'code', description: 'The code', required: true },
          { name: 'language', title: 'Language', required: false },
        ],
      },
      { name: 'hello' },
    ]);
  });

  it('gets a prompt with validated (coerced) arguments; invalid arguments and unknown prompts are -32602', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.prompt('count', { input: z.object({ n: z.coerce.number().int().min(1) }) }, ({ n }) =>
      say(`n+1=${n + 1}`),
    );
    const ok = resultOf(await mcp.handle(request('prompts/get', { name: 'count', arguments: { n: '41' } })));
    expect(firstText(ok)).toBe('n+1=42');
    expect(ok).not.toHaveProperty('ttlMs');
    const bad = errorOf(await mcp.handle(request('prompts/get', { name: 'count', arguments: { n: '0' } })));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/^Invalid arguments for prompt 'count': arguments.n: /);
    expect(errorOf(await mcp.handle(request('prompts/get', { name: 'count' }))).code).toBe(-32602);
    expect(errorOf(await mcp.handle(request('prompts/get', { name: 'nope' })))).toEqual({
      code: -32602,
      message: 'Unknown prompt: nope',
    });
  });

  it('a thrown McpError passes through; other errors are -32603 (details in the log only)', async () => {
    const logger = recordingLogger();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    mcp.prompt('mcp', {}, () => {
      throw new McpError(-32021, 'need sampling', { requiredCapabilities: { sampling: {} } });
    });
    mcp.prompt('boom', {}, () => {
      throw new Error('secret detail');
    });
    expect(errorOf(await mcp.handle(request('prompts/get', { name: 'mcp' })))).toEqual({
      code: -32021,
      message: 'need sampling',
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(errorOf(await mcp.handle(request('prompts/get', { name: 'boom' })))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(logger.lines.at(-1)?.error).toBe('secret detail');
  });

  it('a hand-built round: returns an InputRequiredResult, reads inputResponses and plaintext state on the retry', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.prompt('briefing', {}, (_args, _resolved, ctx) => {
      const who = (ctx.inputResponses?.who as { content?: { name?: string } } | undefined)?.content?.name;
      if (ctx.requestState === 'asked' && who !== undefined) return say(`Briefing for ${who}`);
      return inputRequired({
        inputRequests: {
          who: elicitRequest({
            message: 'For whom?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          }),
        },
        requestState: 'asked',
      });
    });
    const first = resultOf(
      await mcp.handle(request('prompts/get', { name: 'briefing' }, { elicitation: {} })),
    );
    expect(first).toMatchObject({ resultType: 'input_required' });
    expect(first.requestState).not.toBe('asked');
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(firstText(await client.getPrompt('briefing'))).toBe('Briefing for Ada');
  });

  it('resolvers: the answer reaches the handler; a decline is -32602 naming the resolver; elicitResult sees it', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const audience = resolver({ args: ['topic'] }, ({ topic }: { topic: string }) =>
      elicit(`Who is the ${topic} briefing for?`, z.object({ name: z.string() })),
    );
    const maybe = resolver({}, () => elicitResult('Add a summary?', z.object({ yes: z.boolean() })));
    mcp.prompt(
      'brief',
      { input: z.object({ topic: z.string() }), resolve: { audience } },
      ({ topic }, { audience: a }) => say(`${topic} for ${a.name}`),
    );
    mcp.prompt('summary', { resolve: { maybe } }, (_args, { maybe: m }) => say(m.action));
    let action: 'accept' | 'decline' = 'accept';
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async () =>
          action === 'accept' ? { action, content: { name: 'Bo', yes: true } } : { action },
      },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(firstText(await client.getPrompt('brief', { topic: 'ops' }))).toBe('ops for Bo');
    action = 'decline';
    await expect(client.getPrompt('brief', { topic: 'ops' })).rejects.toMatchObject({
      code: -32602,
      message: "Resolver for 'audience' could not resolve: elicitation was declined",
    });
    expect(firstText(await client.getPrompt('summary'))).toBe('decline');
  });

  it('a prompt with resolvers that returns an InputRequiredResult anyway is -32603', async () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    const one = resolver({}, () => 1);
    mcp.prompt('p', { resolve: { one } }, () => inputRequired({ requestState: 'x' }) as never);
    expect(errorOf(await mcp.handle(request('prompts/get', { name: 'p' }))).code).toBe(-32603);
  });

  it('handles update and remove prompts', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const handle = mcp.prompt('p', { description: 'a' }, () => say('x'));
    handle.update({ description: 'b' });
    expect(resultOf(await mcp.handle(request('prompts/list'))).prompts).toEqual([
      { name: 'p', description: 'b' },
    ]);
    handle.remove();
    expect(resultOf(await mcp.handle(request('prompts/list'))).prompts).toEqual([]);
    expect(() => mcp.prompt('q', { complete: { nope: () => [] } } as never, () => say(''))).toThrow(
      "prompt 'q': \"complete\" names unknown argument 'nope'",
    );
  });
});
