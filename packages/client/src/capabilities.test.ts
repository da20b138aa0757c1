import {
  createMessageRequest,
  elicitUrlRequest,
  inputRequired,
  listRootsRequest,
  MetaKey,
} from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { deriveCapabilities, mergeCapabilities, uncoveredInputRequest } from './capabilities.js';
import { Client } from './client.js';
import { askFor, cacheable, harness, script, textResult } from './test-support/fake-server.js';

const noop = () => {
  throw new Error('not called');
};

describe('deriveCapabilities', () => {
  it.each([
    ['no callbacks', {}, {}],
    ['elicitation', { elicitation: noop }, { elicitation: { form: {}, url: {} } }],
    [
      'elicitation, form only',
      { elicitation: noop, elicitationModes: ['form'] },
      { elicitation: { form: {} } },
    ],
    ['elicitation, url only', { elicitation: noop, elicitationModes: ['url'] }, { elicitation: { url: {} } }],
    ['sampling', { sampling: noop }, { sampling: {} }],
    ['sampling with tools', { sampling: noop, samplingTools: true }, { sampling: { tools: {} } }],
    ['sampling, samplingTools false', { sampling: noop, samplingTools: false }, { sampling: {} }],
    ['roots', { roots: noop }, { roots: {} }],
    [
      'all three',
      { elicitation: noop, sampling: noop, roots: noop },
      { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    ],
  ] as const)('%s', (_, options, expected) => {
    expect(deriveCapabilities(options)).toEqual(expected);
  });

  it('rejects narrowing options without their callback (TypeError)', () => {
    expect(() => deriveCapabilities({ elicitationModes: ['form'] })).toThrow(TypeError);
    expect(() => deriveCapabilities({ samplingTools: true })).toThrow(
      '"samplingTools" expected together with a "sampling" callback',
    );
  });

  it('rejects an empty or unknown elicitationModes (RangeError)', () => {
    expect(() => deriveCapabilities({ elicitation: noop, elicitationModes: [] })).toThrow(RangeError);
    expect(() =>
      deriveCapabilities({ elicitation: noop, elicitationModes: ['form', 'sms' as 'form'] }),
    ).toThrow(RangeError);
  });
});

describe('uncoveredInputRequest', () => {
  const all = deriveCapabilities({ elicitation: noop, sampling: noop, roots: noop });
  const tools = createMessageRequest({
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    maxTokens: 10,
    tools: [{ name: 't', inputSchema: { type: 'object' } }],
  });

  it.each([
    ['form elicitation, declared', askFor('x'), all, undefined],
    [
      'form elicitation without mode, declared',
      { method: 'elicitation/create', params: { message: 'm' } },
      all,
      undefined,
    ],
    ['elicitation without a callback', askFor('x'), {}, 'no elicitation callback'],
    [
      'url elicitation, form only declared',
      elicitUrlRequest({ message: 'sign in', url: 'https://example.com/login' }),
      deriveCapabilities({ elicitation: noop, elicitationModes: ['form'] }),
      'did not declare url-mode elicitation',
    ],
    [
      'form elicitation, url only declared',
      askFor('x'),
      deriveCapabilities({ elicitation: noop, elicitationModes: ['url'] }),
      'did not declare form-mode elicitation',
    ],
    [
      'an unknown elicitation mode',
      { method: 'elicitation/create', params: { mode: 'sms' } },
      all,
      'unknown',
    ],
    ['sampling without a callback', tools, {}, 'no sampling callback'],
    ['sampling with tools, not declared', tools, all, 'sampling with tools'],
    [
      'sampling with tools, declared',
      tools,
      deriveCapabilities({ sampling: noop, samplingTools: true }),
      undefined,
    ],
    [
      'sampling with the deprecated includeContext, context not declared (a SHOULD: answered)',
      createMessageRequest({ messages: [], maxTokens: 10, includeContext: 'thisServer' }),
      all,
      undefined,
    ],
    [
      'an elicitation whose params are not an object (read as form mode)',
      { method: 'elicitation/create', params: 'form' },
      deriveCapabilities({ elicitation: noop, elicitationModes: ['url'] }),
      'did not declare form-mode elicitation',
    ],
    ['roots, declared', listRootsRequest(), all, undefined],
    ['roots without a callback', listRootsRequest(), {}, 'no roots callback'],
    ['an unknown method', { method: 'tasks/get' }, all, 'not an input request method'],
  ] as const)('%s', (_, request, capabilities, problem) => {
    const found = uncoveredInputRequest(request, capabilities);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('capabilities on the wire', () => {
  it('every request declares exactly what the callbacks cover', async () => {
    await using h = await harness(script(cacheable({ tools: [] }), textResult('ok')), {
      elicitation: noop,
      elicitationModes: ['form'],
      sampling: noop,
      samplingTools: true,
    });
    await h.client.listTools();
    await h.client.callTool('t');
    for (const request of h.server.requests) {
      expect(request.params._meta[MetaKey.clientCapabilities]).toEqual({
        elicitation: { form: {} },
        sampling: { tools: {} },
      });
    }
    expect(h.client.capabilities).toEqual({ elicitation: { form: {} }, sampling: { tools: {} } });
  });

  it('a client without callbacks declares {}', () => {
    expect(new Client({ name: 'c', version: '1' }).capabilities).toEqual({});
  });
});

describe('mergeCapabilities (option "capabilities")', () => {
  it('merges member by member with what the callbacks derive, into a frozen copy', () => {
    const derived = deriveCapabilities({ elicitation: noop, elicitationModes: ['form'] });
    const declared = { elicitation: { url: {} }, roots: {} };
    const merged = mergeCapabilities(derived, declared);
    expect(merged).toEqual({ elicitation: { form: {}, url: {} }, roots: {} });
    expect(Object.isFrozen(merged.elicitation)).toBe(true);
    expect(declared).toEqual({ elicitation: { url: {} }, roots: {} });
    expect(mergeCapabilities(derived, undefined)).toBe(derived);
  });

  it('rejects a non-object', () => {
    expect(() => new Client({ name: 'c', version: '1' }, { capabilities: [] as never })).toThrow(TypeError);
  });
});

describe('declared capabilities without callbacks', () => {
  const declared = { elicitation: { form: {} } } as const;

  it("appear in every request's _meta", async () => {
    await using h = await harness(script(cacheable({ tools: [] }), textResult('ok'), textResult('again')), {
      capabilities: declared,
      sampling: noop,
    });
    await h.client.listTools();
    await h.client.callTool('t');
    await h.client.start('tools/call', { name: 't' });
    expect(h.server.requests).toHaveLength(3);
    for (const request of h.server.requests) {
      expect(request.params._meta[MetaKey.clientCapabilities]).toEqual({
        elicitation: { form: {} },
        sampling: {},
      });
    }
  });

  it('a continuation is answered by the host itself', async () => {
    await using h = await harness(
      script(inputRequired({ inputRequests: { region: askFor('region') }, requestState: 's1' }), (request) =>
        textResult(`in ${request.params.inputResponses.region.content.region}`),
      ),
      { capabilities: declared },
    );
    const { continuation } = await h.client.start('tools/call', { name: 't' });
    if (continuation === undefined) throw new Error('expected a continuation');
    const inputResponses = { region: { action: 'accept', content: { region: 'eu-west-1' } } } as const;
    const final = await h.client.resume(continuation, inputResponses);
    expect(final.result).toMatchObject({ content: [{ type: 'text', text: 'in eu-west-1' }] });
    expect(h.server.requests[1]?.params).toMatchObject({ inputResponses, requestState: 's1' });
  });

  it('the automatic loop still fails clearly when the callback is missing', async () => {
    await using h = await harness(() => inputRequired({ inputRequests: { region: askFor('region') } }), {
      capabilities: declared,
    });
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'unsupported-input-request' });
    expect((error as Error).message).toMatch(/no elicitation callback/);
    expect(h.server.requests).toHaveLength(1);
  });
});
