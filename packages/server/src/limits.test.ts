// The work a request can cause is bounded before its params are validated: inputResponses entries are counted
// without being read and validation stops at the first invalid answer; arguments bound into sealed state may
// nest only so deep.
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH, MAX_INPUT_REQUESTS } from './limits.js';
import { sealed } from './sealed.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

/** `count` answers, each read through a getter that counts the reads; `valid(i)` says which are well-formed. */
function countedAnswers(count: number, valid: (i: number) => boolean) {
  const answers: Record<string, unknown> = {};
  let reads = 0;
  for (let i = 0; i < count; i++) {
    const value = valid(i) ? { action: 'decline' } : { action: 'nope', bogus: i };
    Object.defineProperty(answers, `k${i}`, {
      enumerable: true,
      get: () => {
        reads++;
        return value;
      },
    });
  }
  return { answers, reads: () => reads };
}

function serve(asks = 1) {
  const logger = recordingLogger();
  const calls: unknown[] = [];
  const question = elicitRequest({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });
  const server = new Server(
    { name: 's', version: '1' },
    {
      logger,
      onListTools: () => ({ tools: [] }),
      onCallTool: (_params, ctx) => {
        calls.push(ctx.inputResponses);
        if (ctx.inputResponses !== undefined) return { content: [] };
        const inputRequests = Object.fromEntries(Array.from({ length: asks }, (_, i) => [`k${i}`, question]));
        return inputRequired({ inputRequests });
      },
    },
  );
  return { server, logger, calls };
}

const caps = { caps: { elicitation: { form: {} } } };

describe('inputResponses: bounded work per request', () => {
  it(`refuses more than ${MAX_INPUT_REQUESTS} entries without reading any of them`, async () => {
    const { server, calls } = serve();
    const { answers, reads } = countedAnswers(100_000, () => false);
    const response = await server.handle(request('tools/call', { name: 'x', inputResponses: answers }, caps));
    expect(errorOf(response)).toEqual({
      code: -32602,
      message: `Invalid params: inputResponses has more than ${MAX_INPUT_REQUESTS} entries`,
    });
    expect(reads()).toBe(0);
    expect(calls).toEqual([]);
  });

  it('stops at the first invalid answer, and reports only it', async () => {
    const { server, calls } = serve();
    const { answers, reads } = countedAnswers(MAX_INPUT_REQUESTS, (i) => i !== 3);
    const response = await server.handle(request('tools/call', { name: 'x', inputResponses: answers }, caps));
    const error = errorOf(response);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params: params\.inputResponses\.k3/);
    expect(error.message).not.toMatch(/k4/);
    expect(reads()).toBe(4);
    expect(calls).toEqual([]);
  });

  it(`serves ${MAX_INPUT_REQUESTS} valid answers`, async () => {
    const { server, calls } = serve();
    const { answers } = countedAnswers(MAX_INPUT_REQUESTS, () => true);
    const response = await server.handle(request('tools/call', { name: 'x', inputResponses: answers }, caps));
    expect(resultOf(response).resultType).toBe('complete');
    expect(calls).toHaveLength(1);
  });

  it('applies to custom multi-round-trip methods too', async () => {
    const server = new Server(
      { name: 's', version: '1' },
      {
        methods: {
          'acme/ask': { params: { '~standard': passAll }, inputRequired: true, handler: () => ({}) },
        },
      },
    );
    const { answers, reads } = countedAnswers(MAX_INPUT_REQUESTS + 1, () => true);
    const response = await server.handle(request('acme/ask', { inputResponses: answers }));
    expect(errorOf(response).message).toMatch(/more than 256 entries/);
    expect(reads()).toBe(0);
  });

  it(`fails a handler that asks more than ${MAX_INPUT_REQUESTS} questions at once (-32603, logged)`, async () => {
    const { server, logger } = serve(MAX_INPUT_REQUESTS + 1);
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }, caps)))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    const details = logger.lines.at(-1)?.details as { error?: Error } | undefined;
    expect(details?.error?.message).toMatch(/asked 257 questions/);
    const { server: fits } = serve(MAX_INPUT_REQUESTS);
    expect(resultOf(await fits.handle(request('tools/call', { name: 'x' }, caps))).resultType).toBe(
      'input_required',
    );
  });
});

/** A Standard Schema that accepts anything. */
const passAll = { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } as const;

describe('arguments bound into sealed state', () => {
  const nested = (depth: number) => JSON.parse(`${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}`);
  const server = (requestState?: ReturnType<typeof sealed>) =>
    new Server(
      { name: 's', version: '1' },
      {
        logger: {},
        ...(requestState && { requestState }),
        onListTools: () => ({ tools: [] }),
        onCallTool: () => inputRequired({ requestState: 'r' }),
      },
    );
  const key = crypto.getRandomValues(new Uint8Array(32));

  it(`answers -32602 beyond ${MAX_ARGUMENT_DEPTH} levels, and serves ${MAX_ARGUMENT_DEPTH}`, async () => {
    const sealing = server(sealed({ keys: [key] }));
    const deep = request('tools/call', { name: 'x', arguments: { a: nested(MAX_ARGUMENT_DEPTH) } });
    expect(errorOf(await sealing.handle(deep))).toEqual({
      code: -32602,
      message: `Invalid params: arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`,
    });
    const fits = request('tools/call', { name: 'x', arguments: { a: nested(MAX_ARGUMENT_DEPTH - 1) } });
    expect(resultOf(await sealing.handle(fits)).resultType).toBe('input_required');
  });

  it('leaves arguments alone when nothing is sealed (nothing walks them)', async () => {
    const deep = request('tools/call', { name: 'x', arguments: { a: nested(10_000) } });
    expect(resultOf(await server().handle(deep)).resultType).toBe('input_required');
  });
});
