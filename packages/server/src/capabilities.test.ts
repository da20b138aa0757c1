import type { ClientCapabilities, InputRequests } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import {
  describeCapabilities,
  mergeCapabilities,
  missingClientCapabilities,
  serverCapabilities,
} from './capabilities.js';

const form = {
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
};
const formExplicit = { method: 'elicitation/create', params: { ...form.params, mode: 'form' } };
const url = {
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Pay', url: 'https://pay.example/1' },
};
const sample = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } };
const sampleTools = { method: 'sampling/createMessage', params: { ...sample.params, tools: [] } };
const sampleChoice = {
  method: 'sampling/createMessage',
  params: { ...sample.params, toolChoice: { mode: 'auto' } },
};
const sampleContext = {
  method: 'sampling/createMessage',
  params: { ...sample.params, includeContext: 'thisServer' },
};
const roots = { method: 'roots/list' };

const missing = (request: object, caps: object) =>
  missingClientCapabilities({ q: request } as unknown as InputRequests, caps as ClientCapabilities);

describe('missingClientCapabilities', () => {
  it.each([
    ['form elicitation, nothing declared', form, {}, { elicitation: { form: {} } }],
    ['form elicitation, empty elicitation (= form)', form, { elicitation: {} }, undefined],
    ['explicit form mode, form declared', formExplicit, { elicitation: { form: {} } }, undefined],
    ['form elicitation, url only', form, { elicitation: { url: {} } }, { elicitation: { form: {} } }],
    ['form elicitation, both modes', form, { elicitation: { form: {}, url: {} } }, undefined],
    ['url elicitation, nothing declared', url, {}, { elicitation: { url: {} } }],
    [
      'url elicitation, empty elicitation (= form only)',
      url,
      { elicitation: {} },
      { elicitation: { url: {} } },
    ],
    ['url elicitation, form only', url, { elicitation: { form: {} } }, { elicitation: { url: {} } }],
    ['url elicitation, url declared', url, { elicitation: { url: {} } }, undefined],
    ['sampling, nothing declared', sample, { elicitation: {} }, { sampling: {} }],
    ['sampling, declared', sample, { sampling: {} }, undefined],
    ['sampling with tools, plain sampling', sampleTools, { sampling: {} }, { sampling: { tools: {} } }],
    ['sampling with tools, nothing declared', sampleTools, {}, { sampling: { tools: {} } }],
    ['sampling with toolChoice, plain sampling', sampleChoice, { sampling: {} }, { sampling: { tools: {} } }],
    ['sampling with tools, tools declared', sampleTools, { sampling: { tools: {} } }, undefined],
    ['deprecated includeContext, no context', sampleContext, { sampling: {} }, { sampling: { context: {} } }],
    ['deprecated includeContext, context declared', sampleContext, { sampling: { context: {} } }, undefined],
    ['roots, nothing declared', roots, { sampling: {} }, { roots: {} }],
    ['roots, declared', roots, { roots: {} }, undefined],
  ])('%s', (_name, request, caps, expected) => {
    expect(missing(request, caps)).toEqual(expected);
  });

  it('merges what several requests lack into one requiredCapabilities object', () => {
    const requests = { a: url, b: sampleTools, c: roots, d: form } as unknown as InputRequests;
    expect(missingClientCapabilities(requests, { elicitation: { form: {} } })).toEqual({
      elicitation: { url: {} },
      sampling: { tools: {} },
      roots: {},
    });
  });

  it('ignores capabilities of the wrong type (a declared value must be an object)', () => {
    expect(missing(roots, { roots: true })).toEqual({ roots: {} });
    expect(missing(form, { elicitation: 'yes' })).toEqual({ elicitation: { form: {} } });
  });
});

describe('serverCapabilities', () => {
  it('derives one capability per feature a handler was given', () => {
    const fn = () => ({}) as never;
    expect(serverCapabilities({})).toEqual({});
    expect(serverCapabilities({ onCallTool: fn })).toEqual({ tools: {} });
    expect(serverCapabilities({ onListPrompts: fn })).toEqual({ prompts: {} });
    expect(serverCapabilities({ onReadResource: fn })).toEqual({ resources: {} });
    expect(serverCapabilities({ onComplete: fn })).toEqual({ completions: {} });
  });

  it('deep-merges the author capabilities over the derived ones', () => {
    const fn = () => ({}) as never;
    expect(
      serverCapabilities(
        { onListTools: fn },
        { tools: { listChanged: true }, experimental: { x: { a: [1] } } },
      ),
    ).toEqual({ tools: { listChanged: true }, experimental: { x: { a: [1] } } });
  });
});

describe('mergeCapabilities / describeCapabilities', () => {
  it('replaces leaves and arrays, merges objects, never mutates its inputs', () => {
    const base = { a: { b: 1, c: [1] } };
    expect(mergeCapabilities(base, { a: { c: [2], d: {} } })).toEqual({ a: { b: 1, c: [2], d: {} } });
    expect(base).toEqual({ a: { b: 1, c: [1] } });
  });

  it('names capabilities as dotted paths for error messages', () => {
    expect(describeCapabilities({ elicitation: { url: {} }, sampling: { tools: {} }, roots: {} })).toBe(
      'elicitation.url, sampling.tools, roots',
    );
  });
});
