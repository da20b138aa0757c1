import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastCheckedSchemas } from './fast-parse.js';
import { elicitRequest, inputRequired } from './index.js';
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  ElicitResultSchema,
  GetPromptRequestParamsSchema,
  ImplementationSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponsesSchema,
  ListToolsResultSchema,
  ReadResourceRequestParamsSchema,
  RequestParamsSchema,
  safeParse,
} from './schemas.js';
import { schemaArbitrary } from './test-support/schema-arbitrary.js';

type Arb = fc.Arbitrary<unknown>;

/** Values of every JSON type and a few that JSON has no word for. */
const junk: Arb = fc.oneof(
  fc.constantFrom(undefined, null, Number.NaN, Number.POSITIVE_INFINITY, -0, [], {}, 'text', 7, 1.5, true),
  fc.string({ maxLength: 3 }),
  fc.double(),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
  fc.constant(new Date(0)),
);

/** Mostly `arb`, sometimes junk: a near miss of a valid member. */
const maybe = (arb: Arb): Arb => fc.oneof({ weight: 20, arbitrary: arb }, { weight: 1, arbitrary: junk });

/** Extra members, including the names zod treats specially. */
const extras = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'x-extra', 'toString'), junk, {
  maxKeys: 2,
});

/**
 * An object of `fields` (those in `required` always there, the others present or not), each valid or a near
 * miss, plus the odd extra member.
 */
function object(fields: Record<string, Arb>, required: string[] = []): Arb {
  const members = Object.fromEntries(Object.entries(fields).map(([key, arb]) => [key, maybe(arb)]));
  const base = fc.record(members, { requiredKeys: required });
  return fc.tuple(base, fc.oneof({ weight: 12, arbitrary: fc.constant({}) }, extras)).map(([value, more]) => {
    const out: Record<string, unknown> = { ...value };
    for (const [key, member] of Object.entries(more)) {
      Object.defineProperty(out, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  });
}

const str = fc.string({ maxLength: 4 });
const dictionary = (value: Arb) => fc.dictionary(str, maybe(value), { maxKeys: 3 });
const settings = fc.oneof(fc.constant({}), fc.dictionary(str, junk, { maxKeys: 2 }));
const implementation = object(
  { name: str, version: str, title: str, websiteUrl: str, icons: fc.constant([]) },
  ['name', 'version'],
);
const meta = object(
  {
    'io.modelcontextprotocol/protocolVersion': str,
    'io.modelcontextprotocol/clientCapabilities': object({
      experimental: dictionary(settings),
      roots: settings,
      sampling: object({ context: settings, tools: settings }),
      elicitation: object({ form: settings, url: settings }),
      extensions: dictionary(settings),
    }),
    'io.modelcontextprotocol/clientInfo': implementation,
    'io.modelcontextprotocol/logLevel': fc.constantFrom('debug', 'warning', 'verbose'),
    progressToken: fc.oneof(str, fc.integer(), fc.double()),
  },
  ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'],
);
const elicitResult = object(
  {
    action: fc.constantFrom('accept', 'decline', 'cancel', 'later'),
    content: dictionary(fc.oneof(str, fc.double(), fc.boolean(), fc.array(maybe(str), { maxLength: 2 }))),
  },
  ['action'],
);
const retry = { _meta: meta, inputResponses: dictionary(elicitResult), requestState: str };
const field = object(
  {
    type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'array'),
    title: str,
    minLength: fc.oneof(fc.integer(), fc.double()),
    format: fc.constantFrom('email', 'uri', 'date-time', 'phone'),
    default: fc.oneof(str, fc.double(), fc.boolean()),
    maximum: fc.double(),
    enum: fc.array(str, { maxLength: 2 }),
  },
  ['type'],
);
const elicitation = object(
  {
    method: fc.constantFrom('elicitation/create', 'roots/list', 'sampling/createMessage'),
    params: fc.oneof(
      object(
        {
          mode: fc.constantFrom('form', 'url', 'popup'),
          message: str,
          url: str,
          requestedSchema: object(
            {
              type: fc.constantFrom('object', 'string'),
              $schema: str,
              properties: dictionary(field),
              required: fc.array(maybe(str), { maxLength: 2 }),
            },
            ['type', 'properties'],
          ),
        },
        ['message', 'requestedSchema'],
      ),
      object({ _meta: settings }),
    ),
  },
  ['method', 'params'],
);
const resultMeta = object({ 'io.modelcontextprotocol/serverInfo': implementation });
const text = object(
  { type: fc.constantFrom('text', 'image'), text: str, annotations: fc.constant({}), _meta: settings },
  ['type', 'text'],
);

const cases: [string, { safeParse(value: unknown): { success: boolean; data?: unknown } }, Arb][] = [
  ['RequestParams', RequestParamsSchema, object({ _meta: meta }, ['_meta'])],
  ['Implementation', ImplementationSchema, implementation],
  [
    'CallToolRequestParams',
    CallToolRequestParamsSchema,
    object({ ...retry, name: str, arguments: settings }, ['_meta', 'name']),
  ],
  [
    'GetPromptRequestParams',
    GetPromptRequestParamsSchema,
    object({ ...retry, name: str, arguments: dictionary(str) }, ['_meta', 'name']),
  ],
  [
    'ReadResourceRequestParams',
    ReadResourceRequestParamsSchema,
    object({ ...retry, uri: str }, ['_meta', 'uri']),
  ],
  ['InputResponses', InputResponsesSchema, dictionary(elicitResult)],
  ['ElicitResult', ElicitResultSchema, elicitResult],
  ['InputRequests', InputRequestsSchema, dictionary(elicitation)],
  [
    'InputRequiredResult',
    InputRequiredResultSchema,
    object({
      resultType: fc.constantFrom('input_required', 'complete'),
      inputRequests: dictionary(elicitation),
      requestState: str,
      _meta: resultMeta,
    }),
  ],
  [
    'CallToolResult',
    CallToolResultSchema,
    object(
      {
        resultType: fc.constantFrom('complete', 'input_required'),
        content: fc.array(maybe(text), { maxLength: 3 }),
        isError: fc.boolean(),
        structuredContent: junk,
        _meta: resultMeta,
      },
      ['resultType', 'content'],
    ),
  ],
];

describe('safeParse', () => {
  it.each(cases)('%s: accepts only what zod accepts, with zod’s data', (_, schema, values) => {
    let fast = 0;
    fc.assert(
      fc.property(values, (value) => {
        const ours = safeParse(schema, value);
        const zods = schema.safeParse(value);
        expect(ours.success).toBe(zods.success);
        if (ours.success && ours.data === value) {
          fast++;
          expect(zods.data).toEqual(value);
        }
      }),
      { numRuns: 1500 },
    );
    // The property above must exercise the fast path, not only zod's.
    expect(fast).toBeGreaterThan(15);
  });

  it('covers every schema that has a fast check', () => {
    expect(new Set(fastCheckedSchemas())).toEqual(new Set(cases.map(([, schema]) => schema)));
  });

  it.each(cases)(
    '%s: accepts only what zod accepts, on values derived from the schema itself',
    (_, schema) => {
      let fast = 0;
      fc.assert(
        fc.property(schemaArbitrary(schema as never), (value) => {
          const ours = safeParse(schema, value);
          const zods = schema.safeParse(value);
          expect(ours.success).toBe(zods.success);
          if (ours.success && ours.data === value) {
            fast++;
            expect(zods.data).toEqual(value);
          }
        }),
        { numRuns: 1000 },
      );
      // The fast path must be exercised (checks decline the rarer shapes, which zod then judges).
      expect(fast).toBeGreaterThan(30);
    },
  );

  it('gives zod’s issues when it rejects', () => {
    const params = { _meta: { 'io.modelcontextprotocol/protocolVersion': 1 }, name: 7 };
    const ours = safeParse(CallToolRequestParamsSchema, params);
    expect(ours.success).toBe(false);
    expect(ours.error?.issues).toEqual(CallToolRequestParamsSchema.safeParse(params).error?.issues);
  });

  it('takes the fast path for the messages of a multi-round-trip flow', () => {
    const ask = elicitRequest({
      message: 'Pick one',
      requestedSchema: {
        type: 'object',
        properties: { value: { type: 'string' }, n: { type: 'integer', minimum: 0 } },
        required: ['value'],
      },
    });
    const serverInfo = { name: 'bench', version: '1.0.0' };
    const flow: [(typeof cases)[number][1], unknown][] = [
      [
        CallToolRequestParamsSchema,
        {
          name: 'wizard',
          arguments: { n: 7 },
          inputResponses: { step1: { action: 'accept', content: { value: 'v1' } } },
          requestState: 'sl1_x',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
            'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
          },
        },
      ],
      [InputRequestsSchema, { step1: ask }],
      [
        InputRequiredResultSchema,
        {
          ...inputRequired({ inputRequests: { step1: ask }, requestState: 'sl1_x' }),
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        },
      ],
      [
        CallToolResultSchema,
        {
          content: [{ type: 'text', text: 'done' }],
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        },
      ],
      [ElicitResultSchema, { action: 'accept', content: { value: 'v1', list: ['a'], n: 1, ok: true } }],
    ];
    for (const [schema, value] of flow) {
      const outcome = safeParse(schema, JSON.parse(JSON.stringify(value)));
      expect(outcome.success).toBe(true);
      expect(schema.safeParse(value).success).toBe(true);
    }
    for (const [schema, value] of flow) expect(safeParse(schema, value).data).toBe(value);
  });

  it('leaves other schemas to zod', () => {
    const value = { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' };
    const outcome = safeParse(ListToolsResultSchema, value);
    expect(outcome.success).toBe(true);
    expect(outcome.data).not.toBe(value);
  });

  it('sends members named __proto__ to zod, which drops them', () => {
    const value = JSON.parse('{"action":"accept","__proto__":{"content":1}}');
    const outcome = safeParse(ElicitResultSchema, value);
    expect(outcome.data).not.toBe(value);
    expect(outcome).toEqual(ElicitResultSchema.safeParse(value));
  });
});
