// The resolvers' questions (elicit, elicitResult, elicitUrl, sample, listRoots) reaching an official v1 client
// as real server→client requests mid-call, and every way such a question can go wrong.
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect, it, vi } from 'vitest';
import { type ConnectV1, firstText, signalled } from './v1-client-harness.js';

/** How long a test waits for something that follows an answer (a log line, a notification). */
const WAIT = { timeout: 5_000 };

const BOOKING_QUESTION = {
  mode: 'form',
  message: 'Book a table at Noma: how many guests, under which name?',
  requestedSchema: {
    type: 'object',
    properties: {
      guests: { type: 'integer', description: 'How many people', minimum: 1 },
      name: { type: 'string', description: 'Whose name the table is under' },
    },
    required: ['guests', 'name'],
  },
};

/** Registers the question tests (inside the suite's `describe`). */
export function v1ClientQuestionTests(connect: ConnectV1): void {
  it.for<[string, ClientCapabilities]>([
    ['{ elicitation: {} }', { elicitation: {} }],
    ['{ elicitation: { form: {} } }', { elicitation: { form: {} } }],
  ])(
    'elicit: the v1 elicitation handler answers, the tool gets the answer (%s)',
    async ([, capabilities], ctx) => {
      const { client, wire, questions } = await connect(ctx, { capabilities });
      const result = await client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } });
      expect(result).toEqual({ content: [{ type: 'text', text: 'Reserved Noma for 4 under Ada' }] });
      expect(questions).toEqual([BOOKING_QUESTION]);
      // One tools/call, answered after one server→client request: no MRTR round on a 2025-11-25 session.
      expect(wire.summary().slice(3)).toEqual([
        'out tools/call',
        'in elicitation/create',
        'out response',
        'in response',
      ]);
      expect(wire.results().at(-1)).not.toHaveProperty('resultType');
    },
  );

  it.for([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ] as const)('elicit answered %s: an isError result naming the resolver', async ([action, word], ctx) => {
    const { client } = await connect(ctx, { elicit: () => ({ action }) });
    const result = await client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: `Resolver for 'booking' could not resolve: elicitation was ${word}` }],
      isError: true,
    });
  });

  it('elicitResult: a refusal is a value the tool reads', async (ctx) => {
    let action: ElicitResult['action'] = 'decline';
    const { client } = await connect(ctx, {
      elicit: () => (action === 'accept' ? { action, content: { wrap: true } } : { action }),
    });
    const declined = await client.callTool({ name: 'gift_wrap', arguments: { title: 'Dune' } });
    expect(declined).toEqual({ content: [{ type: 'text', text: '"Dune": the user chose decline' }] });
    action = 'accept';
    const accepted = await client.callTool({ name: 'gift_wrap', arguments: { title: 'Dune' } });
    expect(accepted).toEqual({ content: [{ type: 'text', text: '"Dune": wrapped' }] });
  });

  it('elicit answered with content that breaks the schema: -32602 naming the resolver', async (ctx) => {
    // The v1 client does not check what its own handler answers; the Boomerang server does.
    const { client } = await connect(ctx, {
      elicit: () => ({ action: 'accept', content: { guests: 0, name: 'Ada' } }),
    });
    const call = client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } });
    await expect(call).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("'booking'") });
  });

  it.for<[string, Record<string, unknown>, ClientCapabilities, ClientCapabilities]>([
    ['reserve', { restaurant: 'Noma' }, { sampling: {}, roots: {} }, { elicitation: { form: {} } }],
    ['sign_in', {}, { elicitation: {} }, { elicitation: { url: {} } }],
    ['summarize', { text: 'x' }, { elicitation: {}, roots: {} }, { sampling: {} }],
    ['workspace', {}, { elicitation: {}, sampling: {} }, { roots: {} }],
  ])(
    '%s from a client that did not declare what it needs: -32021, nothing asked',
    async ([tool, args, capabilities, required], ctx) => {
      const { client, wire } = await connect(ctx, { capabilities });
      const error: unknown = await client.callTool({ name: tool, arguments: args }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: required } });
      const serverRequests = wire.entries.filter(
        (e) => e.direction === 'in' && 'id' in e.message && 'method' in e.message,
      );
      expect(serverRequests).toEqual([]);
      expect(await client.ping()).toEqual({}); // and the server keeps serving
    },
  );

  it("an error thrown by the v1 client's handler fails the call with the client's error", async (ctx) => {
    const { client } = await connect(ctx, {
      elicit: () => {
        throw new Error('the user closed the window');
      },
    });
    const call = client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } });
    await expect(call).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('closed the window'),
    });
    expect(await client.ping()).toEqual({});
  });

  it("sample: the v1 client's sampling handler answers", async (ctx) => {
    const { client, samples } = await connect(ctx);
    const result = await client.callTool({ name: 'summarize', arguments: { text: 'a very long text' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Summary by v1-model: A short line.' }] });
    expect(samples).toEqual([
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'Summarize in one line: a very long text' } },
        ],
        maxTokens: 50,
      },
    ]);
  });

  it("listRoots: the v1 client's roots handler answers", async (ctx) => {
    const { client } = await connect(ctx);
    const result = await client.callTool({ name: 'workspace', arguments: {} });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'app=file:///work/app; docs=file:///work/docs' }],
    });
  });

  it('elicitUrl: the question carries the elicitationId 2025-11-25 requires; the v1 handler answers', async (ctx) => {
    const { client, questions } = await connect(ctx, {
      capabilities: { elicitation: { url: {} } },
      elicit: () => ({ action: 'accept' }),
    });
    const result = await client.callTool({ name: 'sign_in', arguments: {} });
    expect(questions).toEqual([
      {
        mode: 'url',
        message: 'Sign in to continue',
        url: 'https://example.com/login',
        elicitationId: expect.any(String),
      },
    ]);
    expect(result).toEqual({ content: [{ type: 'text', text: 'signed in (accept)' }] });
  });

  it('two calls asking at once: each answer reaches the call that asked', async (ctx) => {
    const { client, wire } = await connect(ctx, {
      elicit: async (params) => {
        const first = String(params.message).includes('Noma');
        await new Promise((resolve) => setTimeout(resolve, first ? 150 : 10)); // the first asked answers last
        return { action: 'accept', content: { guests: first ? 4 : 9, name: first ? 'Ada' : 'Grace' } };
      },
    });
    const results = await Promise.all([
      client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } }),
      client.callTool({ name: 'reserve', arguments: { restaurant: 'Geranium' } }),
    ]);
    expect(results.map((result) => firstText(result))).toEqual([
      'Reserved Noma for 4 under Ada',
      'Reserved Geranium for 9 under Grace',
    ]);
    const ids = wire.entries
      .filter((e) => e.message.method === 'elicitation/create')
      .map((e) => e.message.id);
    expect(new Set(ids).size).toBe(2);
  });

  it('the v1 client cancels a call waiting on its elicitation: the server cancels its question, keeps serving', async (ctx) => {
    const asked = signalled();
    let handlerSignal: AbortSignal | undefined;
    const { client, wire } = await connect(ctx, {
      elicit: (_params, signal) => {
        handlerSignal = signal;
        asked.resolve();
        return new Promise<ElicitResult>((resolve) =>
          signal.addEventListener('abort', () => resolve({ action: 'cancel' })),
        );
      },
    });
    const controller = new AbortController();
    const options = { signal: controller.signal };
    const call = client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } }, undefined, options);
    await asked.promise;
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    await vi.waitFor(() => expect(handlerSignal?.aborted).toBe(true), WAIT);
    const question = wire.exchange('elicitation/create').request;
    const cancelled = wire.entries.find(
      (e) => e.direction === 'in' && e.message.method === 'notifications/cancelled',
    );
    expect(cancelled?.message.params).toMatchObject({ requestId: question.id });
    expect(await client.ping()).toEqual({});
  });

  it('a question the v1 client never answers: -32001 after requestTimeoutMs, and the client is told', async (ctx) => {
    let handlerSignal: AbortSignal | undefined;
    const { client, wire } = await connect(ctx, {
      server: { requestTimeoutMs: 300 },
      elicit: (_params, signal) => {
        handlerSignal = signal;
        return new Promise<ElicitResult>((resolve) =>
          signal.addEventListener('abort', () => resolve({ action: 'cancel' })),
        );
      },
    });
    const call = client.callTool({ name: 'reserve', arguments: { restaurant: 'Noma' } });
    await expect(call).rejects.toMatchObject({ code: -32001 });
    await vi.waitFor(() => expect(handlerSignal?.aborted).toBe(true), WAIT);
    const question = wire.exchange('elicitation/create').request;
    const cancelled = wire.entries.find(
      (e) => e.direction === 'in' && e.message.method === 'notifications/cancelled',
    );
    expect(cancelled?.message.params).toMatchObject({ requestId: question.id });
    // A late answer to the cancelled question is ignored; the next call is served.
    const next = await client.callTool({ name: 'explode', arguments: {} });
    expect(next.isError).toBe(true);
  });
}
