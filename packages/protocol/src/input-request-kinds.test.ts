import { describe, expect, it } from 'vitest';
import { parseLazily } from './checks/index.js';
import {
  type AnyInputRequestKind,
  INPUT_REQUEST_KINDS,
  type InputRequestParams,
  inputRequestKind,
} from './input-request-kinds.js';
import { createMessageRequest, elicitRequest, elicitUrlRequest, listRootsRequest } from './input-requests.js';
import * as legacy from './legacy/index.js';
import type { InputRequest } from './schema/index.js';
import * as schemas from './schemas.js';

const rows: readonly AnyInputRequestKind[] = Object.values(INPUT_REQUEST_KINDS);

const form = elicitRequest({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
const url = elicitUrlRequest({ message: 'Pay', url: 'https://pay.example/1' });
const sampling = createMessageRequest({
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
  maxTokens: 10,
});

/** One answer of each kind, by its row's `result`. */
const ANSWERS: Readonly<Record<string, unknown>> = {
  ElicitResult: { action: 'accept', content: { name: 'Ada' } },
  CreateMessageResult: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
  ListRootsResult: { roots: [{ uri: 'file:///work' }] },
};

interface Parser {
  safeParse(value: unknown): { success: boolean };
}

const isParser = (value: unknown): value is Parser =>
  typeof value === 'object' &&
  value !== null &&
  'safeParse' in value &&
  typeof value.safeParse === 'function';

/** A zod schema of a module namespace, by name (`undefined` when the module has none of that name). */
function schemaOf(module: object, name: string): Parser | undefined {
  const schema: unknown = Reflect.get(module, `${name}Schema`);
  return isParser(schema) ? schema : undefined;
}

describe('INPUT_REQUEST_KINDS', () => {
  it('has one row per member of InputRequestSchema, keyed by its method', () => {
    const methods = schemas.InputRequestSchema.options.map((option) => option.shape.method.value);
    expect(Object.keys(INPUT_REQUEST_KINDS).sort()).toEqual([...methods].sort());
    for (const [method, row] of Object.entries(INPUT_REQUEST_KINDS)) expect(row.method).toBe(method);
  });

  it('names schemas that exist, in both revisions', () => {
    for (const row of rows) {
      expect(schemaOf(schemas, row.request), row.request).toBeDefined();
      expect(schemaOf(schemas, row.result), row.result).toBeDefined();
      expect(schemaOf(legacy, row.legacy.request), row.legacy.request).toBeDefined();
      expect(schemaOf(legacy, row.legacy.result), row.legacy.result).toBeDefined();
    }
  });

  it('builds with its builders what its schema, its check and the 2025-11-25 schema accept', () => {
    const samples = new Map<unknown, InputRequest>([
      [elicitRequest, form],
      [elicitUrlRequest, url],
      [createMessageRequest, sampling],
      [listRootsRequest, listRootsRequest()],
    ]);
    const built = rows.flatMap((row) => row.builders.map((build) => ({ row, request: samples.get(build) })));
    expect(built).toHaveLength(samples.size);
    for (const { row, request } of built) {
      if (request === undefined) throw new Error(`${row.method}: a builder without a sample`);
      expect(request.method).toBe(row.method);
      expect(inputRequestKind(request.method)).toBe(row);
      expect(schemaOf(schemas, row.request)?.safeParse(request).success).toBe(true);
      expect(row.isParams(request.params)).toBe(true);
      const params =
        request.params === undefined ? undefined : (row.legacy.params?.(request.params) ?? request.params);
      const wire = { jsonrpc: '2.0', id: 1, method: row.method, ...(params === undefined ? {} : { params }) };
      expect(schemaOf(legacy, row.legacy.request)?.safeParse(wire).success, row.method).toBe(true);
    }
  });

  it('answers with its result, which the schema and the lazy check of that name accept', () => {
    for (const row of rows) {
      const answer = ANSWERS[row.result];
      expect(schemaOf(schemas, row.result)?.safeParse(answer).success).toBe(true);
      expect(parseLazily(row.result, answer)).toEqual({ success: true, data: answer });
      expect(schemaOf(legacy, row.legacy.result)?.safeParse(answer).success).toBe(true);
    }
  });

  it('names a distinct capability and client callback per kind', () => {
    expect(rows.map((row) => [row.capability.name, row.callback])).toEqual([
      ['elicitation', 'elicitation'],
      ['sampling', 'sampling'],
      ['roots', 'roots'],
    ]);
  });

  it('reads what a person reads of a question, and nothing from a malformed one', () => {
    const kind = (method: InputRequest['method']) => INPUT_REQUEST_KINDS[method];
    const ask = elicitRequest({ message: 'Ship it?', requestedSchema: { type: 'object', properties: {} } });
    expect(kind('elicitation/create').text(ask.params)).toBe('Ship it?');
    const sample = createMessageRequest({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Summarize' } },
        {
          role: 'user',
          content: [
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
            { type: 'text', text: 'this' },
          ],
        },
      ],
      maxTokens: 10,
    });
    expect(kind('sampling/createMessage').text(sample.params)).toBe('Summarize\nthis');
    expect(kind('roots/list').text({})).toBeUndefined();
    expect(kind('elicitation/create').text({ message: 42 })).toBeUndefined();
    expect(kind('sampling/createMessage').text({ messages: 'nope' })).toBeUndefined();
    expect(kind('sampling/createMessage').text({ messages: [null, { content: [7] }] })).toBe('');
  });

  it('is frozen, rows and all', () => {
    expect(Object.isFrozen(INPUT_REQUEST_KINDS)).toBe(true);
    for (const row of rows) {
      expect(Object.isFrozen(row)).toBe(true);
      expect(Object.isFrozen(row.capability)).toBe(true);
      expect(Object.isFrozen(row.legacy)).toBe(true);
      expect(Object.isFrozen(row.builders)).toBe(true);
    }
  });
});

describe('capability needs', () => {
  const needs = (method: keyof typeof INPUT_REQUEST_KINDS, params: InputRequestParams) =>
    INPUT_REQUEST_KINDS[method].capability.needs(params).map(({ member, must }) => [member, must]);

  it.each([
    ['form (no mode)', 'elicitation/create', {}, [['form', true]]],
    ['form', 'elicitation/create', { mode: 'form' }, [['form', true]]],
    ['url', 'elicitation/create', { mode: 'url' }, [['url', true]]],
    ['plain sampling', 'sampling/createMessage', { maxTokens: 1 }, []],
    ['sampling with tools', 'sampling/createMessage', { tools: [] }, [['tools', true]]],
    [
      'sampling with toolChoice',
      'sampling/createMessage',
      { toolChoice: { mode: 'auto' } },
      [['tools', true]],
    ],
    [
      'sampling with context',
      'sampling/createMessage',
      { includeContext: 'allServers' },
      [['context', false]],
    ],
    ['sampling, context "none"', 'sampling/createMessage', { includeContext: 'none' }, []],
    [
      'sampling with tools and context',
      'sampling/createMessage',
      { tools: [], includeContext: 'thisServer' },
      [
        ['tools', true],
        ['context', false],
      ],
    ],
    ['roots', 'roots/list', {}, []],
  ] as const)('%s', (_, method, params, expected) => {
    expect(needs(method, params)).toEqual(expected);
  });

  it('are constant lists: nothing is allocated per request', () => {
    for (const row of rows) {
      for (const params of [{}, { mode: 'url' }, { tools: [] }, { includeContext: 'thisServer' }]) {
        const list = row.capability.needs(params);
        expect(row.capability.needs({ ...params })).toBe(list);
        expect(Object.isFrozen(list)).toBe(true);
      }
    }
  });

  it('name a member the capability has, and an empty elicitation stands for form mode', () => {
    for (const row of rows) {
      for (const params of [{}, { mode: 'url' }, { tools: [], includeContext: 'allServers' }]) {
        for (const { member } of row.capability.needs(params))
          expect(row.capability.members).toContain(member);
      }
    }
    expect(INPUT_REQUEST_KINDS['elicitation/create'].capability.implied).toBe('form');
  });

  it('tell an elicitation mode this revision does not define', () => {
    const { unknownMember } = INPUT_REQUEST_KINDS['elicitation/create'].capability;
    expect(unknownMember?.({})).toBeUndefined();
    expect(unknownMember?.({ mode: 'form' })).toBeUndefined();
    expect(unknownMember?.({ mode: 'url' })).toBeUndefined();
    expect(unknownMember?.({ mode: 'sms' })).toBe('elicitation mode "sms" is unknown');
    expect(INPUT_REQUEST_KINDS['sampling/createMessage'].capability.unknownMember).toBeUndefined();
  });
});

describe('the 2025-11-25 params', () => {
  it('give a URL elicitation a fresh elicitationId, and leave everything else as it is', () => {
    const toLegacy = INPUT_REQUEST_KINDS['elicitation/create'].legacy.params;
    const first = toLegacy?.(url.params);
    expect(first).toEqual({ ...url.params, elicitationId: expect.any(String) });
    expect(toLegacy?.(url.params)).not.toEqual(first);
    const minted = { ...url.params, elicitationId: 'e-1' };
    expect(toLegacy?.(minted)).toBe(minted);
    expect(toLegacy?.(form.params)).toBe(form.params);
    expect(INPUT_REQUEST_KINDS['sampling/createMessage'].legacy.params).toBeUndefined();
    expect(INPUT_REQUEST_KINDS['roots/list'].legacy.params).toBeUndefined();
  });
});

describe('inputRequestKind', () => {
  it('finds the row of a method', () => {
    for (const row of rows) expect(inputRequestKind(row.method)).toBe(row);
  });

  it.each([
    'tools/call',
    'toString',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    '',
    undefined,
    null,
    42,
    {},
  ])('finds none for %j', (method) => {
    expect(inputRequestKind(method)).toBeUndefined();
  });
});
