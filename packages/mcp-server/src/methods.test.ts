import { Client } from '@boomerang/client';
import { inputRequired, McpError } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, elicitResult, ResolverGraphError, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const info = { name: 'shop', version: '1' };
const confirmSchema = z.object({ ok: z.boolean() });
const sure = resolver({ args: ['title'] }, ({ title }) => elicit(`Reserve ${title}?`, confirmSchema));

function shop() {
  const mcp = new McpServer(info, { logger: recordingLogger() });
  const runs: unknown[] = [];
  mcp.method(
    'acme/reserve',
    { params: z.object({ title: z.string(), copies: z.number().int().default(1) }), resolve: { sure } },
    ({ title, copies }, { sure: answer }, ctx) => {
      runs.push(ctx.method);
      return { reserved: answer.ok ? copies : 0, title };
    },
  );
  return { mcp, runs };
}

describe('mcp.method', () => {
  it('asks through its resolvers in rounds and then runs the handler with typed values', async () => {
    const { mcp, runs } = shop();
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('acme/reserve', { title: 'Dune' }, caps)));
    expect(first).toMatchObject({ resultType: 'input_required' });
    const [key, question] =
      Object.entries(first.inputRequests as Record<string, { params: unknown }>)[0] ?? [];
    expect(question?.params).toMatchObject({ message: 'Reserve Dune?' });
    const answers = { [key as string]: { action: 'accept', content: { ok: true } } };
    expect(first).not.toHaveProperty('requestState'); // nothing recorded yet: nothing sealed
    // The answer names the question "Reserve Dune?": for another title it is not consumed, the question is asked.
    const otherTitle = request('acme/reserve', { title: 'Emma', inputResponses: answers }, caps);
    const asked = resultOf(await mcp.handle(otherTitle));
    expect(asked).toMatchObject({ resultType: 'input_required' });
    expect(Object.values(asked.inputRequests as object)).toMatchObject([
      { params: { message: 'Reserve Emma?' } },
    ]);
    const retry = request('acme/reserve', { title: 'Dune', inputResponses: answers }, caps);
    expect(resultOf(await mcp.handle(retry))).toMatchObject({
      resultType: 'complete',
      reserved: 1,
      title: 'Dune',
    });
    expect(runs).toEqual(['acme/reserve']);
  });

  it('answers -32602 naming the field for invalid params, ignoring client-sent resolved names', async () => {
    const { mcp, runs } = shop();
    expect(errorOf(await mcp.handle(request('acme/reserve', { title: 3 })))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('params.title'),
    });
    const forged = request('acme/reserve', { title: 'Dune', sure: { ok: true } }, { elicitation: {} });
    expect(resultOf(await mcp.handle(forged))).toMatchObject({ resultType: 'input_required' });
    expect(runs).toEqual([]);
  });

  it('turns a declined elicitation consumed unwrapped into -32602 with the resolver message', async () => {
    const { mcp } = shop();
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('acme/reserve', { title: 'Dune' }, caps)));
    const [key] = Object.keys(first.inputRequests as object);
    const declined = request(
      'acme/reserve',
      {
        title: 'Dune',
        inputResponses: { [key as string]: { action: 'decline' } },
        requestState: first.requestState,
      },
      caps,
    );
    expect(errorOf(await mcp.handle(declined))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('declined'),
    });
  });

  it('without resolvers may build its own rounds; with an elicitResult resolver gets the outcome', async () => {
    const mcp = new McpServer(info, { logger: recordingLogger() });
    mcp.method('acme/manual', {}, (_params, _resolved, ctx) =>
      ctx.requestState === undefined
        ? inputRequired({ requestState: 'step-1' })
        : { state: ctx.requestState },
    );
    const outcome = resolver({}, () => elicitResult('Go?', confirmSchema));
    mcp.method('acme/outcome', { resolve: { outcome } }, (_p, { outcome: o }) => ({ action: o.action }));
    const first = resultOf(await mcp.handle(request('acme/manual')));
    expect(first).toMatchObject({ resultType: 'input_required' });
    const again = resultOf(await mcp.handle(request('acme/manual', { requestState: first.requestState })));
    expect(again).toMatchObject({ resultType: 'complete', state: 'step-1' });
    const asked = resultOf(await mcp.handle(request('acme/outcome', {}, { elicitation: {} })));
    const [key] = Object.keys(asked.inputRequests as object);
    const answered = request(
      'acme/outcome',
      { inputResponses: { [key as string]: { action: 'decline' } }, requestState: asked.requestState },
      { elicitation: {} },
    );
    expect(resultOf(await mcp.handle(answered))).toMatchObject({ action: 'decline' });
  });

  it('a resolver method whose handler builds a round is a bug (-32603); McpErrors pass through', async () => {
    const logger = recordingLogger();
    const mcp = new McpServer(info, { logger });
    const value = resolver({}, () => 1);
    mcp.method('acme/both', { resolve: { value } }, () => inputRequired({ requestState: 'x' }) as never);
    mcp.method('acme/teapot', {}, () => {
      throw new McpError(-32000, 'no tea', { why: 'empty' });
    });
    expect(errorOf(await mcp.handle(request('acme/both')))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(logger.lines.at(-1)?.error).toContain('uses resolvers');
    expect(errorOf(await mcp.handle(request('acme/teapot')))).toEqual({
      code: -32000,
      message: 'no tea',
      data: { why: 'empty' },
    });
  });

  it('remove() stops serving it, and the name can be registered again', async () => {
    const mcp = new McpServer(info, { logger: recordingLogger() });
    const handle = mcp.method('acme/x', {}, () => ({ v: 1 }));
    expect(handle.name).toBe('acme/x');
    expect(() => mcp.method('acme/x', {}, () => ({}))).toThrow('already defined');
    handle.remove();
    handle.remove();
    expect(errorOf(await mcp.handle(request('acme/x'))).code).toBe(-32601);
    mcp.method('acme/x', {}, () => ({ v: 2 }));
    expect(resultOf(await mcp.handle(request('acme/x')))).toMatchObject({ v: 2 });
  });

  it.each([
    ['tools/call', {}, TypeError],
    ['', {}, TypeError],
    ['acme/x', { params: { parse: () => ({}) } }, TypeError],
    ['acme/x', { input: z.object({}) }, TypeError],
    ['acme/x', 'config', TypeError],
    ['acme/x', { params: z.object({ a: z.string() }), resolve: { r: 1 } }, ResolverGraphError],
    ['acme/x', { resolve: { r: resolver({ args: ['missing'] }, () => 1) } }, ResolverGraphError],
  ])('refuses %j with %j', (name, config, error) => {
    const mcp = new McpServer(info, { logger: recordingLogger() });
    expect(() => mcp.method(name, config as never, () => ({}))).toThrow(error);
  });

  it('is called by Client#request over memory: two rounds of questions, answered by the callback', async () => {
    const mcp = new McpServer(info, { logger: recordingLogger() });
    const shelf = resolver({ args: ['title'] }, ({ title }) =>
      elicit(`Which shelf for ${title}?`, z.object({ shelf: z.string() })),
    );
    const label = resolver({ uses: { shelf } }, ({ shelf }) =>
      elicit(`Label for shelf ${shelf.shelf}?`, z.object({ label: z.string() })),
    );
    mcp.method(
      'acme/shelve',
      { params: z.object({ title: z.string() }), resolve: { shelf, label } },
      ({ title }, resolved) => ({ shelved: `${title} on ${resolved.shelf.shelf} (${resolved.label.label})` }),
    );
    const asked: string[] = [];
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async (params) => {
          asked.push(params.message);
          return {
            action: 'accept',
            content: params.message.startsWith('Which') ? { shelf: 'B2' } : { label: 'sci-fi' },
          };
        },
      },
    );
    await using _link = await connectInMemory(client, mcp);
    const result = await client.request(
      'acme/shelve',
      { title: 'Dune' },
      { result: z.object({ shelved: z.string() }) },
    );
    expect(result).toEqual({ shelved: 'Dune on B2 (sci-fi)' });
    expect(asked).toEqual(['Which shelf for Dune?', 'Label for shelf B2?']);
  });

  it('types params and resolved values, and forbids hand-built rounds with resolvers', () => {
    const mcp = new McpServer(info, { logger: recordingLogger() });
    mcp.method(
      'acme/t',
      { params: z.object({ title: z.string() }), resolve: { sure } },
      (params, resolved) => {
        expectTypeOf(params).toEqualTypeOf<{ title: string }>();
        expectTypeOf(resolved.sure).toEqualTypeOf<{ ok: boolean }>();
        return {};
      },
    );
    // @ts-expect-error a method with resolvers cannot return an InputRequiredResult
    mcp.method('acme/u', { resolve: { sure: resolver({}, () => 1) } }, () =>
      inputRequired({ requestState: 's' }),
    );
  });
});
