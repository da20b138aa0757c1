// One suite over every kind of schema a registration accepts: zod 4, zod 3.25's `zod/v4`, valibot (through
// @valibot/to-json-schema), arktype, a raw JSON Schema, and any Standard Schema paired with `withJsonSchema`. Each
// is registered as a tool's input and output, a prompt's input, a custom method's params and an elicitation form,
// and driven through the server on the wire.
import { Client } from '@boomerang/client';
import type { StandardSchemaV1 } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z4v3 } from 'zod/v3';
import { z as z3 } from 'zod-v3/v3';
import { z as z325 } from 'zod-v3/v4';
import { McpServer } from './mcp-server.js';
import { elicit, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf, textOf } from './test-support/wire.js';
import { withJsonSchema } from './with-json-schema.js';

/** The same three schemas in each library: an order (input), a receipt (output), a form (elicitation). */
interface Kind {
  readonly order: unknown;
  readonly receipt: unknown;
  readonly form: unknown;
  readonly promptInput: unknown;
}

const rawOrder = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, description: 'Book title' },
    copies: { type: 'integer', minimum: 1 },
  },
  required: ['title'],
} as const;
const rawReceipt = {
  type: 'object',
  properties: { ordered: { type: 'integer' } },
  required: ['ordered'],
} as const;
const rawForm = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Confirm' } },
  required: ['confirm'],
} as const;
const rawPrompt = {
  type: 'object',
  properties: { topic: { type: 'string', description: 'What to write about' } },
  required: ['topic'],
} as const;

const kinds: Record<string, Kind> = {
  'zod 4': {
    order: z.object({
      title: z.string().min(1).describe('Book title'),
      copies: z.number().int().min(1).optional(),
    }),
    receipt: z.object({ ordered: z.number().int() }),
    form: z.object({ confirm: z.boolean().meta({ title: 'Confirm' }) }),
    promptInput: z.object({ topic: z.string().describe('What to write about') }),
  },
  "zod 3.25's zod/v4": {
    order: z325.object({
      title: z325.string().min(1).describe('Book title'),
      copies: z325.number().int().min(1).optional(),
    }),
    receipt: z325.object({ ordered: z325.number().int() }),
    form: z325.object({ confirm: z325.boolean().meta({ title: 'Confirm' }) }),
    promptInput: z325.object({ topic: z325.string().describe('What to write about') }),
  },
  'valibot (toStandardJsonSchema)': {
    order: toStandardJsonSchema(
      v.object({
        title: v.pipe(v.string(), v.minLength(1), v.description('Book title')),
        copies: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      }),
    ),
    receipt: toStandardJsonSchema(v.object({ ordered: v.pipe(v.number(), v.integer()) })),
    form: toStandardJsonSchema(v.object({ confirm: v.pipe(v.boolean(), v.title('Confirm')) })),
    promptInput: toStandardJsonSchema(
      v.object({ topic: v.pipe(v.string(), v.description('What to write about')) }),
    ),
  },
  arktype: {
    order: type({ title: type('string >= 1').describe('Book title'), 'copies?': 'number.integer >= 1' }),
    receipt: type({ ordered: 'number.integer' }),
    form: type({ confirm: type('boolean').configure({ title: 'Confirm' }) }),
    promptInput: type({ topic: type('string').describe('What to write about') }),
  },
  'raw JSON Schema': { order: rawOrder, receipt: rawReceipt, form: rawForm, promptInput: rawPrompt },
  'withJsonSchema (valibot + its converter)': {
    order: withJsonSchema(
      v.object({
        title: v.pipe(v.string(), v.minLength(1), v.description('Book title')),
        copies: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      }),
      (schema) => toJsonSchema(schema) as Record<string, unknown>,
    ),
    receipt: withJsonSchema(v.object({ ordered: v.pipe(v.number(), v.integer()) }), rawReceipt),
    form: withJsonSchema(v.object({ confirm: v.boolean() }), rawForm),
    promptInput: withJsonSchema(v.object({ topic: v.string() }), rawPrompt),
  },
};

/** A server with one tool, one prompt, one method and one asking tool, all from `kind`. */
function serverOf(kind: Kind) {
  const logger = recordingLogger();
  const mcp = new McpServer({ name: 'shop', version: '1.0.0' }, { logger });
  const handlers = mcp as unknown as {
    tool(name: string, config: object, handler: (args: never, resolved: never) => unknown): void;
    prompt(name: string, config: object, handler: (args: never) => unknown): void;
    method(name: string, config: object, handler: (params: never) => unknown): void;
  };
  handlers.tool(
    'order',
    { input: kind.order, output: kind.receipt },
    (args: { title: string; copies?: number }) => ({
      structuredContent: { ordered: args.copies ?? 1 },
    }),
  );
  handlers.tool('broken', { input: kind.order, output: kind.receipt }, () => ({
    structuredContent: { ordered: 'many' },
  }));
  handlers.prompt('essay', { input: kind.promptInput }, (args: { topic: string }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Write about ${args.topic}` } }],
  }));
  handlers.method('acme/order', { params: kind.order }, (params: { title: string }) => ({
    title: params.title,
  }));
  const confirm = resolver({}, () => elicit('Order it?', kind.form as never));
  handlers.tool(
    'ask',
    { resolve: { confirm } },
    (_args: unknown, resolved: { confirm: { confirm: boolean } }) => ({
      content: [{ type: 'text', text: resolved.confirm.confirm ? 'yes' : 'no' }],
    }),
  );
  return { mcp, logger };
}

describe.each(Object.entries(kinds))('schemas: %s', (_name, kind) => {
  it('publishes inputSchema and outputSchema with the library’s own converter', async () => {
    const { mcp } = serverOf(kind);
    const { tools } = resultOf(await mcp.handle(request('tools/list'))) as {
      tools: {
        name: string;
        inputSchema: { properties: { title: { description?: string } } };
        outputSchema?: Record<string, unknown>;
      }[];
    };
    const order = tools.find((t) => t.name === 'order');
    expect(order?.inputSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 }, copies: { type: 'integer', minimum: 1 } },
      required: ['title'],
    });
    expect(order?.inputSchema.properties.title.description ?? 'Book title').toBe('Book title');
    expect(order?.outputSchema).toMatchObject({
      type: 'object',
      properties: { ordered: { type: 'integer' } },
    });
  });

  it('validates arguments (an isError result naming the field) and structuredContent (-32603)', async () => {
    const { mcp, logger } = serverOf(kind);
    const ok = resultOf(
      await mcp.handle(request('tools/call', { name: 'order', arguments: { title: 'Dune', copies: 2 } })),
    );
    expect(ok.structuredContent).toEqual({ ordered: 2 });
    expect(textOf(ok)).toBe('{"ordered":2}');
    const bad = resultOf(await mcp.handle(request('tools/call', { name: 'order', arguments: { title: 7 } })));
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid arguments for tool 'order': arguments\.title: /);
    const missing = resultOf(await mcp.handle(request('tools/call', { name: 'order', arguments: {} })));
    expect(textOf(missing)).toMatch(/^Invalid arguments for tool 'order': arguments/);
    expect(
      errorOf(await mcp.handle(request('tools/call', { name: 'broken', arguments: { title: 'x' } }))).code,
    ).toBe(-32603);
    expect(logger.lines.at(-1)?.error ?? logger.lines.at(-1)?.message).toMatch(
      /structuredContent that does not match its output schema: structuredContent\.ordered/,
    );
  });

  it('serves prompt arguments from the schema (names, required, descriptions) and validates them (-32602)', async () => {
    const { mcp } = serverOf(kind);
    const { prompts } = resultOf(await mcp.handle(request('prompts/list'))) as {
      prompts: { name: string; arguments: { name: string; required: boolean; description?: string }[] }[];
    };
    expect(prompts[0]?.arguments).toEqual([
      {
        name: 'topic',
        required: true,
        ...(prompts[0]?.arguments[0]?.description ? { description: 'What to write about' } : {}),
      },
    ]);
    const got = resultOf(
      await mcp.handle(request('prompts/get', { name: 'essay', arguments: { topic: 'tides' } })),
    );
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write about tides' } }]);
    const error = errorOf(await mcp.handle(request('prompts/get', { name: 'essay', arguments: {} })));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid arguments for prompt 'essay': arguments/);
  });

  it('validates custom method params (-32602 naming the field)', async () => {
    const { mcp } = serverOf(kind);
    expect(resultOf(await mcp.handle(request('acme/order', { title: 'Dune' }))).title).toBe('Dune');
    const error = errorOf(await mcp.handle(request('acme/order', { title: 3 })));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/title/);
  });

  it('asks an elicitation form built from the schema and validates the answer', async () => {
    const { mcp } = serverOf(kind);
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'ask' }, { elicitation: {} })));
    const [question] = Object.values(
      first.inputRequests as Record<string, { params: Record<string, unknown> }>,
    );
    expect(question?.params.requestedSchema).toMatchObject({
      type: 'object',
      properties: { confirm: { type: 'boolean' } },
      required: ['confirm'],
    });
    const answers = [{ action: 'accept', content: { confirm: true } }];
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => answers.shift() as never },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(textOf(await client.callTool('ask'))).toBe('yes');
    answers.push({ action: 'accept', content: { confirm: 'yes' } } as never);
    await expect(client.callTool('ask')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/does not match the requested schema/),
    });
  });
});

describe('schemas: what a registration refuses', () => {
  const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
  const ok = () => ({ content: [] });

  it('a zod 3 schema, with the way out', () => {
    expect(() => mcp.tool('x', { input: z3.object({ a: z3.string() }) as never }, ok)).toThrow(
      `tool 'x': "input" is a zod 3 schema; zod 3 schemas are not supported: import from 'zod/v4' or upgrade to zod 4`,
    );
    expect(() => mcp.prompt('p', { input: z3.object({ a: z3.string() }) } as never, ok as never)).toThrow(
      /zod 3 schemas are not supported/,
    );
    // zod 4 still ships zod 3 under `zod/v3`: the same refusal.
    expect(() => mcp.tool('y', { output: z4v3.object({ a: z4v3.string() }) as never }, ok as never)).toThrow(
      `tool 'y': "output" is a zod 3 schema; zod 3 schemas are not supported: import from 'zod/v4' or upgrade to zod 4`,
    );
    expect(() => elicit('Q?', z3.object({ a: z3.string() }) as never)).toThrow(
      `elicit() schema is a zod 3 schema; zod 3 schemas are not supported: import from 'zod/v4' or upgrade to zod 4`,
    );
  });

  it('a plain valibot schema (valibot has no converter of its own), naming the ways out', () => {
    expect(() => mcp.tool('x', { input: v.object({ a: v.string() }) }, ok)).toThrow(
      `tool 'x': "input" is a valibot schema, and valibot gives it no JSON Schema converter: wrap it with ` +
        'withJsonSchema(schema, toJsonSchema) (for valibot: toStandardJsonSchema(schema) from ' +
        '@valibot/to-json-schema), or pass a raw JSON Schema',
    );
  });

  it('any other Standard Schema without a converter', () => {
    const bare: StandardSchemaV1<unknown, { a: string }> = {
      '~standard': { version: 1, vendor: 'acme', validate: (value) => ({ value: value as { a: string } }) },
    };
    expect(() => mcp.tool('x', { input: bare }, ok)).toThrow(
      /"input" is a acme schema, and acme gives it no JSON Schema converter: wrap it with withJsonSchema/,
    );
    const broken = withJsonSchema(bare, () => 'nope' as never);
    expect(() => mcp.tool('x', { input: broken }, ok)).toThrow(
      `tool 'x': "input": the acme converter returned string, not a JSON Schema object`,
    );
    const throwing = withJsonSchema(bare, () => {
      throw new Error('no can do');
    });
    expect(() => mcp.tool('x', { input: throwing }, ok)).toThrow(
      `tool 'x': "input": the input schema cannot be published as JSON Schema: no can do`,
    );
  });

  it('a schema its converter cannot represent', () => {
    expect(() => mcp.tool('x', { output: z.object({ at: z.date() }) }, ok as never)).toThrow(
      /"output": the output schema cannot be published as JSON Schema/,
    );
  });

  it('a raw JSON Schema that cannot be used, or that is not an object where one is needed', () => {
    expect(() =>
      mcp.tool('x', { input: { type: 'object', properties: { a: { type: 'text' } } } }, ok),
    ).toThrow(`tool 'x': "input" is not a usable JSON Schema: "type" "text" is not a JSON Schema type`);
    expect(() => mcp.tool('x', { input: { type: 'object', $ref: 'https://example.com/s' } }, ok)).toThrow(
      /external references are never fetched/,
    );
    expect(() => mcp.tool('x', { input: { properties: {} } as never }, ok)).toThrow(
      `tool 'x': "input" must describe an object (JSON Schema type "object"), got no "type"`,
    );
    expect(() => mcp.method('acme/x', { params: v.object({}) as never }, ok as never)).toThrow(
      /method 'acme\/x': "params" is a valibot schema/,
    );
  });

  it('a raw prompt schema whose argument cannot be a string (arguments are strings on the wire)', () => {
    expect(() =>
      mcp.prompt(
        'p',
        { input: { type: 'object', properties: { n: { type: 'number' } } } } as never,
        ok as never,
      ),
    ).toThrow(
      `prompt 'p': prompt argument 'n' must accept a string (arguments are strings on the wire), got type "number"`,
    );
  });

  it('a form outside the elicitation subset, whatever the library', () => {
    expect(() => elicit('Q?', toStandardJsonSchema(v.object({ a: v.object({}) })))).toThrow(
      /^elicit\(\): field 'a' must be a string, number, integer, boolean, enum or multi-select enum/,
    );
    expect(() => elicit('Q?', type({ a: 'string[]' }))).toThrow(/field 'a' must be a string/);
    expect(() => elicit('Q?', { type: 'object', properties: { a: { type: 'object' } } })).toThrow(
      /field 'a' must be a string/,
    );
    expect(() => elicit('Q?', type('string') as never)).toThrow(/must be a flat object/);
  });
});

describe('schemas: a raw JSON Schema', () => {
  it('validates the form answer with the whole schema, though the client sees the subset', async () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    const code = resolver({}, () =>
      elicit('Code?', {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
        required: ['code'],
      }),
    );
    mcp.tool('ask', { resolve: { code } }, (_a, r) => ({ content: [{ type: 'text', text: r.code.code }] }));
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'ask' }, { elicitation: {} })));
    const [question] = Object.values(
      first.inputRequests as Record<string, { params: Record<string, unknown> }>,
    );
    expect(question?.params.requestedSchema).toEqual({
      type: 'object',
      properties: { code: { type: 'string' } },
      required: ['code'],
    });
    const answers = [
      { action: 'accept', content: { code: 'ABC' } },
      { action: 'accept', content: { code: 'abc' } },
    ];
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => answers.shift() as never },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(textOf(await client.callTool('ask'))).toBe('ABC');
    await expect(client.callTool('ask')).rejects.toMatchObject({ code: -32602 });
  });

  it('publishes the schema as written ($schema included) and passes arguments through unchanged', async () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    const input = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } } },
    } as const;
    mcp.tool('tag', { input }, (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
    const { tools } = resultOf(await mcp.handle(request('tools/list'))) as {
      tools: { inputSchema: unknown }[];
    };
    expect(tools[0]?.inputSchema).toEqual(input);
    const result = resultOf(
      await mcp.handle(request('tools/call', { name: 'tag', arguments: { tags: ['a'], more: 1 } })),
    );
    expect(textOf(result)).toBe('{"tags":["a"],"more":1}');
  });

  it('types arguments and form answers from an inline schema', () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    mcp.tool(
      'typed',
      {
        input: {
          type: 'object',
          properties: { n: { type: 'integer' }, color: { type: 'string', enum: ['red', 'blue'] } },
          required: ['n'],
        },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number; color?: 'red' | 'blue' }>();
        return { content: [] };
      },
    );
    const q = elicit('Q?', { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
    expectTypeOf(q).toMatchTypeOf<{ kind: 'elicit' | 'elicitUrl' | 'sample' | 'listRoots' }>();
  });
});

describe('schemas: types follow the library', () => {
  it('types handler arguments and structured results from valibot, arktype and zod alike', () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    mcp.tool(
      'valibot',
      { input: toStandardJsonSchema(v.object({ title: v.string(), copies: v.optional(v.number()) })) },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ title: string; copies?: number | undefined }>();
        return { content: [] };
      },
    );
    mcp.tool('arktype', { input: type({ title: 'string' }), output: type({ n: 'number' }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ title: string }>();
      return { structuredContent: { n: 1 } };
    });
    mcp.tool('zod 3.25', { input: z325.object({ title: z325.string() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ title: string }>();
      return { content: [] };
    });
    const q = elicit('Q?', toStandardJsonSchema(v.object({ ok: v.boolean() })));
    const answer = resolver({}, () => q);
    mcp.tool('asks', { resolve: { answer } }, (_args, resolved) => {
      expectTypeOf(resolved.answer).toEqualTypeOf<{ ok: boolean }>();
      return { content: [] };
    });
  });
});
