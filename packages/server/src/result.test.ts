import {
  createMessageRequest,
  ErrorCode,
  elicitRequest,
  elicitUrlRequest,
  type InputRequiredResult,
  inputRequired,
  listRootsRequest,
  MetaKey,
} from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import {
  type Caps,
  errorOf,
  example,
  haveExamples,
  recordingLogger,
  request,
  resultOf,
} from './test-support/wire.js';
import type { RequestContext, ServerOptions } from './types.js';

const info = { name: 'mrtr', version: '1.0.0' };
const askName = elicitRequest({
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

/** A server whose three MRTR handlers and tools/list all return `result`. */
function serverReturning(result: unknown, options: ServerOptions = {}) {
  const logger = recordingLogger();
  const server = new Server(info, {
    logger,
    onCallTool: () => result as InputRequiredResult,
    onGetPrompt: () => result as InputRequiredResult,
    onReadResource: () => result as InputRequiredResult,
    onListTools: () => result as never,
    onComplete: () => result as never,
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    ...options,
  });
  return { server, logger };
}

const mrtrCalls = [
  ['tools/call', { name: 'provision', arguments: { name: 'orders' } }],
  ['prompts/get', { name: 'greet' }],
  ['resources/read', { uri: 'file:///report' }],
] as const;

describe('InputRequiredResult on the three multi-round-trip methods', () => {
  it.each(mrtrCalls)(
    '%s passes it through with serverInfo and without cache hints',
    async (method, params) => {
      const { server } = serverReturning({
        ...inputRequired({ inputRequests: { name: askName } }),
        ttlMs: 5,
      });
      const result = resultOf(await server.handle(request(method, params, { caps: { elicitation: {} } })));
      expect(result).toEqual({
        resultType: 'input_required',
        inputRequests: { name: askName },
        _meta: { 'io.modelcontextprotocol/serverInfo': info },
      });
    },
  );

  it('passes a requestState-only result (load shedding) through verbatim without sealing', async () => {
    const { server } = serverReturning(inputRequired({ requestState: 'step-2 {"raw":true}' }));
    const result = resultOf(await server.handle(request('tools/call', { name: 'x' })));
    expect(result).toMatchObject({ resultType: 'input_required', requestState: 'step-2 {"raw":true}' });
    expect(result).not.toHaveProperty('inputRequests');
  });

  it.skipIf(!haveExamples)('serves the official InputRequiredResult examples', async () => {
    for (const file of [
      'input-required-result-with-elicitation-and-sampling-and-request-state.json',
      'input-required-result-with-request-state-only.json',
    ]) {
      const value = example(`InputRequiredResult/${file}`);
      const { server } = serverReturning(value);
      const caps = { elicitation: {}, sampling: {} };
      const result = resultOf(await server.handle(request('tools/call', { name: 'x' }, { caps })));
      expect(result).toEqual({ ...value, _meta: { 'io.modelcontextprotocol/serverInfo': info } });
    }
  });
});

describe('InputRequiredResult elsewhere, or malformed: -32603', () => {
  const irr = inputRequired({ requestState: 's' });

  it.each([
    ['tools/list', {}],
    ['completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }],
  ])('on %s', async (method, params) => {
    const { server, logger } = serverReturning(irr);
    const response = await server.handle(request(method, params));
    expect(errorOf(response)).toEqual({ code: ErrorCode.InternalError, message: 'Internal error' });
    expect(logger.lines[0]?.details).toMatchObject({
      error: expect.objectContaining({ message: expect.stringContaining('only tools/call, prompts/get') }),
    });
  });

  it.each([
    ['neither field', { resultType: 'input_required' }],
    ['an empty inputRequests and no requestState', { resultType: 'input_required', inputRequests: {} }],
    ['a non-string requestState', { resultType: 'input_required', requestState: 42 }],
    [
      'an unknown input request method',
      { resultType: 'input_required', inputRequests: { a: { method: 'ping' } } },
    ],
    [
      'an elicitation without a message',
      { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } },
    ],
    [
      'an invalid serverInfo in its own _meta',
      { resultType: 'input_required', requestState: 's', _meta: { [MetaKey.serverInfo]: { name: 1 } } },
    ],
  ])('with %s', async (_name, value) => {
    const { server, logger } = serverReturning(value);
    expect(
      errorOf(await server.handle(request('tools/call', { name: 'x' }, { caps: { elicitation: {} } }))),
    ).toEqual({
      code: ErrorCode.InternalError,
      message: 'Internal error',
    });
    expect(logger.lines).toHaveLength(1);
  });
});

it('an invalid InputRequiredResult is logged with the path of the bad member', async () => {
  const value = {
    resultType: 'input_required',
    inputRequests: { a: { method: 'elicitation/create', params: { mode: 'form' } } },
  };
  const { server, logger } = serverReturning(value);
  await server.handle(request('tools/call', { name: 'x' }, { caps: { elicitation: {} } }));
  expect(logger.lines[0]?.details).toMatchObject({
    error: expect.objectContaining({
      message: expect.stringMatching(/invalid InputRequiredResult: result\.inputRequests\.a\.params/),
    }),
  });
});

describe('input requests are checked against THIS request’s client capabilities: -32021', () => {
  const cases: [string, InputRequiredResult, Caps, Caps | undefined][] = [
    [
      'form elicitation without elicitation',
      inputRequired({ inputRequests: { a: askName } }),
      {},
      { elicitation: { form: {} } },
    ],
    [
      'form elicitation with elicitation: {}',
      inputRequired({ inputRequests: { a: askName } }),
      { elicitation: {} },
      undefined,
    ],
    [
      'form elicitation with url-only elicitation',
      inputRequired({ inputRequests: { a: askName } }),
      { elicitation: { url: {} } },
      { elicitation: { form: {} } },
    ],
    [
      'url elicitation with elicitation: {}',
      inputRequired({
        inputRequests: { a: elicitUrlRequest({ message: 'Pay', url: 'https://pay.example/x' }) },
      }),
      { elicitation: {} },
      { elicitation: { url: {} } },
    ],
    [
      'sampling without sampling',
      inputRequired({ inputRequests: { a: createMessageRequest({ messages: [], maxTokens: 5 }) } }),
      { elicitation: {} },
      { sampling: {} },
    ],
    [
      'sampling with tools without sampling.tools',
      inputRequired({
        inputRequests: { a: createMessageRequest({ messages: [], maxTokens: 5, tools: [] }) },
      }),
      { sampling: {} },
      { sampling: { tools: {} } },
    ],
    [
      'sampling with toolChoice and sampling.tools',
      inputRequired({
        inputRequests: {
          a: createMessageRequest({ messages: [], maxTokens: 5, toolChoice: { mode: 'none' } }),
        },
      }),
      { sampling: { tools: {} } },
      undefined,
    ],
    ['roots without roots', inputRequired({ inputRequests: { a: listRootsRequest() } }), {}, { roots: {} }],
    [
      'roots with roots',
      inputRequired({ inputRequests: { a: listRootsRequest() } }),
      { roots: {} },
      undefined,
    ],
  ];

  it.each(cases)('%s', async (_name, value, caps, required) => {
    const { server } = serverReturning(value);
    const response = await server.handle(request('tools/call', { name: 'x' }, { caps }));
    if (required === undefined) {
      expect(resultOf(response).resultType).toBe('input_required');
    } else {
      const error = errorOf(response);
      expect(error.code).toBe(ErrorCode.MissingRequiredClientCapability);
      expect(error.data).toEqual({ requiredCapabilities: required });
      expect(error.message).toMatch(/^Missing required client capability: /);
    }
  });

  it('never infers capabilities from an earlier request on the same server', async () => {
    const { server } = serverReturning(inputRequired({ inputRequests: { a: askName } }));
    expect(
      resultOf(await server.handle(request('tools/call', { name: 'x' }, { caps: { elicitation: {} } }))),
    ).toBeDefined();
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }, { caps: {} }))).code).toBe(
      -32021,
    );
  });
});

describe('retries: inputResponses and requestState', () => {
  it('hands the handler inputResponses and requestState (verbatim without sealing)', async () => {
    let seen: RequestContext | undefined;
    let params: unknown;
    const server = new Server(info, {
      onCallTool: (p, ctx) => {
        seen = ctx;
        params = p;
        return { content: [] };
      },
    });
    const inputResponses = { name: { action: 'accept', content: { name: 'octocat' } } };
    await server.handle(request('tools/call', { name: 'x', inputResponses, requestState: 'plain' }));
    expect(seen?.inputResponses).toEqual(inputResponses);
    expect(seen?.requestState).toBe('plain');
    expect(params).toMatchObject({ inputResponses, requestState: 'plain' });
  });

  it('leaves both undefined on a first round', async () => {
    let seen: RequestContext | undefined;
    const server = new Server(info, {
      onGetPrompt: (_p, ctx) => {
        seen = ctx;
        return { messages: [] };
      },
    });
    resultOf(await server.handle(request('prompts/get', { name: 'p' })));
    expect(seen?.inputResponses).toBe(undefined);
    expect(seen?.requestState).toBe(undefined);
  });

  it.skipIf(!haveExamples)('accepts the official InputResponses example', async () => {
    const server = new Server(info, {
      onCallTool: (_p, ctx) => ({ content: [], structuredContent: ctx.inputResponses }),
    });
    const inputResponses = example('InputResponses/elicitation-and-sampling-input-responses.json');
    const result = resultOf(await server.handle(request('tools/call', { name: 'x', inputResponses })));
    expect(result.structuredContent).toEqual(inputResponses);
  });

  it.each([
    ['not an object', 'yes'],
    ['an answer that is no input response', { name: { action: 'maybe' } }],
    [
      'an elicitation answer with non-primitive content',
      { name: { action: 'accept', content: { a: { b: 1 } } } },
    ],
  ])(
    'answers inputResponses that is %s with -32602, before the handler runs',
    async (_name, inputResponses) => {
      let ran = false;
      const server = new Server(info, {
        onCallTool: () => {
          ran = true;
          return { content: [] };
        },
      });
      const error = errorOf(await server.handle(request('tools/call', { name: 'x', inputResponses })));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('params.inputResponses');
      expect(ran).toBe(false);
    },
  );

  it('answers a non-string requestState with -32602 when state is not sealed', async () => {
    const server = new Server(info, { onCallTool: () => ({ content: [] }) });
    const error = errorOf(await server.handle(request('tools/call', { name: 'x', requestState: { a: 1 } })));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain('params.requestState');
  });
});
