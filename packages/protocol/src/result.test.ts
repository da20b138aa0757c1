import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMessageRequest, elicitRequest, elicitUrlRequest, listRootsRequest } from './input-requests.js';
import {
  type InputRequiredInit,
  inputRequired,
  isInputRequired,
  normalizeResult,
  resultTypeOf,
} from './result.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  InputRequiredResultSchema,
  ListRootsRequestSchema,
} from './schema/index.js';

const form = elicitRequest({
  message: 'Which region?',
  requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
});

describe('resultTypeOf', () => {
  it.each([
    [{ resultType: 'complete' }, 'complete'],
    [{ content: [] }, 'complete'],
    [{ resultType: undefined }, 'complete'],
    [{ resultType: 'input_required', requestState: 's' }, 'input_required'],
    [{ resultType: 'task' }, 'invalid'],
    [{ resultType: 'Complete' }, 'invalid'],
    [{ resultType: '' }, 'invalid'],
    [{ resultType: null }, 'invalid'],
    [{ resultType: 1 }, 'invalid'],
    [null, 'invalid'],
    [undefined, 'invalid'],
    ['complete', 'invalid'],
    [[], 'invalid'],
  ])('%j → %s', (result, expected) => {
    expect(resultTypeOf(result)).toBe(expected);
  });

  it('ignores an inherited resultType', () => {
    expect(resultTypeOf(Object.create({ resultType: 'input_required' }))).toBe('invalid');
    expect(resultTypeOf(JSON.parse('{"__proto__":{"resultType":"bogus"}}'))).toBe('complete');
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => ['complete', 'input_required', 'invalid'].includes(resultTypeOf(v))),
    );
  });
});

describe('normalizeResult', () => {
  it('adds resultType "complete" when absent, as a copy', () => {
    const legacy = { content: [{ type: 'text', text: 'hi' }] };
    const normalized = normalizeResult(legacy);
    expect(normalized).toEqual({ content: [{ type: 'text', text: 'hi' }], resultType: 'complete' });
    expect(normalized).not.toBe(legacy);
    expect(legacy).not.toHaveProperty('resultType');
  });

  it('leaves results that carry a resultType, and non-objects, untouched (same reference)', () => {
    for (const value of [
      { resultType: 'complete' },
      { resultType: 'input_required' },
      { resultType: 'bogus' },
      { resultType: null },
      null,
      'x',
      [],
    ]) {
      expect(normalizeResult(value)).toBe(value);
    }
  });

  it('keeps an own __proto__ member as data', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true}}') as object;
    const normalized = normalizeResult(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
    expect(Object.hasOwn(normalized, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('isInputRequired', () => {
  it('narrows an input_required result', () => {
    const result: unknown = { resultType: 'input_required', inputRequests: { a: form }, requestState: 's' };
    expect(isInputRequired(result)).toBe(true);
    expect(isInputRequired({ resultType: 'input_required', requestState: '' })).toBe(true);
  });

  it.each([
    [{ resultType: 'complete' }],
    [{ content: [] }],
    [{ resultType: 'input_required', requestState: 5 }],
    [{ resultType: 'input_required', inputRequests: [] }],
    [{ resultType: 'input_required', inputRequests: null }],
    [null],
    ['input_required'],
  ])('rejects %j', (value) => {
    expect(isInputRequired(value)).toBe(false);
  });
});

describe('inputRequired', () => {
  it('builds with inputRequests, requestState, or both', () => {
    expect(inputRequired({ inputRequests: { region: form } })).toEqual({
      resultType: 'input_required',
      inputRequests: { region: form },
    });
    expect(inputRequired({ requestState: 'opaque' })).toEqual({
      resultType: 'input_required',
      requestState: 'opaque',
    });
    const both = inputRequired({ inputRequests: { r: listRootsRequest() }, requestState: '' });
    expect(both).toEqual({
      resultType: 'input_required',
      inputRequests: { r: { method: 'roots/list' } },
      requestState: '',
    });
    expect(isInputRequired(both)).toBe(true);
    expect(resultTypeOf(both)).toBe('input_required');
  });

  it('keeps an empty inputRequests when requestState is present, and omits undefined members', () => {
    expect(inputRequired({ inputRequests: {}, requestState: 's' })).toEqual({
      resultType: 'input_required',
      inputRequests: {},
      requestState: 's',
    });
    const built = inputRequired({ requestState: 's', inputRequests: undefined } as never);
    expect(Object.keys(built)).toEqual(['resultType', 'requestState']);
  });

  it('refuses neither member (spec S5), also an empty inputRequests alone', () => {
    const message = '"inputRequests" or "requestState" expected (an InputRequiredResult needs at least one)';
    expect(() => inputRequired({})).toThrow(new TypeError(message));
    expect(() => inputRequired({ inputRequests: {} })).toThrow(new TypeError(message));
  });

  it.each([
    [{ requestState: 5 }, '"requestState" expected string, got number'],
    [{ requestState: null }, '"requestState" expected string, got null'],
    [{ requestState: new Uint8Array(2) }, '"requestState" expected string, got Uint8Array'],
    [{ inputRequests: [] }, '"inputRequests" expected plain object, got array'],
    [{ inputRequests: 'x' }, '"inputRequests" expected plain object, got string'],
    [{ inputRequests: new Map() }, '"inputRequests" expected plain object, got Map'],
    [
      { inputRequests: { a: { method: 'tools/call' } } },
      '"inputRequests.a" expected an ElicitRequest, CreateMessageRequest or ListRootsRequest, got object',
    ],
    [
      { inputRequests: { a: 'roots/list' } },
      '"inputRequests.a" expected an ElicitRequest, CreateMessageRequest or ListRootsRequest, got string',
    ],
    [null, '"init" expected { inputRequests?, requestState? }, got null'],
    [undefined, '"init" expected { inputRequests?, requestState? }, got undefined'],
  ])('refuses %j with TypeError', (init, message) => {
    expect(() => inputRequired(init as never)).toThrow(new TypeError(message));
  });
});

describe('builders produce what the schemas accept', () => {
  it('every builder output parses with its zod schema, unchanged', () => {
    const url = elicitUrlRequest({ message: 'Pay', url: 'https://pay.example.com/s/1' });
    const sampling = createMessageRequest({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
      maxTokens: 200,
    });
    const roots = listRootsRequest();
    expect(ElicitRequestSchema.parse(form)).toEqual(form);
    expect(ElicitRequestSchema.parse(url)).toEqual(url);
    expect(CreateMessageRequestSchema.parse(sampling)).toEqual(sampling);
    expect(ListRootsRequestSchema.parse(roots)).toEqual(roots);
    for (const init of [
      { inputRequests: { form, url, sampling, roots } },
      { requestState: 'opaque' },
      { inputRequests: { roots }, requestState: '' },
    ]) {
      const result = inputRequired(init);
      expect(InputRequiredResultSchema.parse(result)).toEqual(result);
    }
  });

  it('whatever inputRequired accepts passes InputRequiredResultSchema (S5 agrees)', () => {
    const state = fc.option(fc.string(), { nil: undefined });
    const requests = fc.option(fc.dictionary(fc.string(), fc.constant(listRootsRequest())), {
      nil: undefined,
    });
    fc.assert(
      fc.property(requests, state, (inputRequests, requestState) => {
        const init = JSON.parse(JSON.stringify({ inputRequests, requestState })) as InputRequiredInit;
        let built: unknown;
        try {
          built = inputRequired(init);
        } catch (error) {
          return error instanceof TypeError;
        }
        return InputRequiredResultSchema.safeParse(built).success;
      }),
    );
  });
});
