// The hand-written checks against the zod schemas they stand for. A check may only say what zod would: `true`
// where zod accepts and outputs the value itself (up to member order), `false` where zod rejects. The values are
// derived from each schema (schemaArbitrary: a member a schema gains, loses or retypes changes them), as they
// come in memory and as they come off a wire; a table of near misses pins the edges. spec.test.ts runs the
// official examples.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParse as fastParse } from '../fast-parse.js';
import * as schemas from '../schemas.js';
import * as tasks from '../tasks/index.js';
import { schemaArbitrary } from '../test-support/schema-arbitrary.js';
import { type CheckedName, parseLazily, verdictOf } from './index.js';
import { CHECKED_SCHEMAS } from './on-demand.js';

const names = Object.keys(CHECKED_SCHEMAS) as CheckedName[];

/** The checks that know zod's rejections too (the others vouch for what they accept and leave the rest). */
const EXACT: ReadonlySet<CheckedName> = new Set([
  'LoggingMessageNotificationParams',
  'ProgressNotificationParams',
]);

/** `value` as it comes off a wire: through JSON (values JSON cannot write stay as they are). */
function wire(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? value : JSON.parse(text);
  } catch {
    return value;
  }
}

/** True when a plain object of `value`, or of its `_meta`, has an own `__proto__` member (zod drops those). */
function hasProtoMember(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  const meta = (value as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, '__proto__');
}

/** Asserts that the verdict on `value` is zod's, and tells which it was. */
function agree(name: CheckedName, value: unknown): 'fast' | 'rejected' | 'zod' {
  const verdict = verdictOf(name, value);
  const zods = CHECKED_SCHEMAS[name].safeParse(value);
  if (verdict === true) {
    expect(zods.success, `${name} accepts what zod rejects: ${JSON.stringify(value)}`).toBe(true);
    expect(zods.data).toEqual(value);
    return 'fast';
  }
  if (verdict === false) {
    expect(zods.success, `${name} rejects what zod accepts: ${JSON.stringify(value)}`).toBe(false);
    return 'rejected';
  }
  return 'zod';
}

describe('the hand-written checks', () => {
  it('stand for the schemas @boomerang/protocol/schemas and /tasks export under the same name', () => {
    const exported = { ...schemas, ...tasks } as Record<string, unknown>;
    for (const name of names) expect(CHECKED_SCHEMAS[name], name).toBe(exported[`${name}Schema`]);
  });

  it.each(names)('%s: says only what zod says, on values derived from the schema', (name) => {
    let valid = 0;
    fc.assert(
      fc.property(schemaArbitrary(CHECKED_SCHEMAS[name] as never), (value) => {
        agree(name, value);
        const received = wire(value);
        const outcome = agree(name, received);
        if (!CHECKED_SCHEMAS[name].safeParse(received).success) return;
        valid++;
        // Complete off a wire: every message zod accepts passes the check, but for members named `__proto__`
        // (zod drops them, so its output is not the message). (Task times are generated as servers write them,
        // `toISOString()`; other ISO 8601 forms go to zod.)
        if (!JSON.stringify(received).includes('"__proto__"'))
          expect(outcome, JSON.stringify(received)).toBe('fast');
        // An exact check knows zod's verdict on anything off a wire but those members.
        if (EXACT.has(name) && outcome === 'zod') expect(hasProtoMember(received)).toBe(true);
      }),
      { numRuns: 600 },
    );
    // Most generated values are valid: the checks are exercised, not only zod.
    expect(valid).toBeGreaterThan(60);
  });

  it.each(['CallToolResult', 'InputRequiredResult', 'InputRequests', 'ElicitResult'] as const)(
    '%s: vouches for whatever fast-parse.ts vouched for (the client gets the same values)',
    (name) => {
      const schema = CHECKED_SCHEMAS[name];
      fc.assert(
        fc.property(schemaArbitrary(schema as never), (value) => {
          if (fastParse(schema, value).data === value) expect(verdictOf(name, value)).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
  );
});

/** A valid value of each shape, and members that make it invalid (or change which check judges it). */
const serverInfo = {
  name: 's',
  version: '1',
  icons: [{ src: 'data:,', sizes: ['any'], theme: 'dark', mimeType: 'image/png' }],
};
const annotations = { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2026-07-28' };
const content = [
  { type: 'text', text: 't', annotations, _meta: { k: 1 } },
  { type: 'image', data: 'AA==', mimeType: 'image/png' },
  { type: 'audio', data: 'AA==', mimeType: 'audio/wav' },
  { type: 'resource_link', uri: 'file:///a', name: 'a', size: 3, icons: [], annotations },
  { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
  { type: 'resource', resource: { uri: 'file:///b', blob: 'AA==', mimeType: 'x/y' } },
];
const fields = {
  text: { type: 'string', minLength: 1, maxLength: 9, format: 'email', default: 'a@b' },
  n: { type: 'integer', minimum: 0, maximum: 9, default: 1 },
  ok: { type: 'boolean', default: true },
  one: { type: 'string', enum: ['a', 'b'], default: 'a' },
  titled: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
  legacy: { type: 'string', enum: ['a'], enumNames: ['A'] },
  many: { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 1, default: ['a'] },
  manyTitled: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
};
const elicit = {
  method: 'elicitation/create',
  params: { message: 'm', requestedSchema: { type: 'object', properties: fields, required: ['text'] } },
};
const sample = {
  method: 'sampling/createMessage',
  params: {
    messages: [
      { role: 'user', content: { type: 'text', text: 'hi' } },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'u', name: 'f', input: {} },
          { type: 'tool_result', toolUseId: 'u', content, isError: false },
        ],
      },
    ],
    maxTokens: 10,
    modelPreferences: { hints: [{ name: 'claude' }], costPriority: 0, speedPriority: 1 },
    includeContext: 'none',
    temperature: 0.7,
    stopSequences: ['\n'],
    metadata: {},
    tools: [{ name: 'f', inputSchema: { type: 'object' } }],
    toolChoice: { mode: 'auto' },
  },
};
const task = {
  taskId: 't1',
  status: 'working',
  createdAt: '2026-07-28T10:00:00.000Z',
  lastUpdatedAt: '2026-07-28T10:00:01.000Z',
  ttlMs: null,
  pollIntervalMs: 0,
};
const cacheable = { resultType: 'complete', ttlMs: 0, cacheScope: 'public', _meta: {} };

class Shape {
  constructor(readonly type = 'text') {}
}

/** `[name, valid value, …changes that each make a near miss]`. `undefined` removes a member. */
const table: [CheckedName, Record<string, unknown>, ...Record<string, unknown>[]][] = [
  [
    'DiscoverResult',
    {
      ...cacheable,
      supportedVersions: ['2026-07-28'],
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true },
        logging: {},
        extensions: { 'io.x/y': {} },
      },
      instructions: 'i',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    },
    { ttlMs: -1 },
    { ttlMs: 1.5 },
    { ttlMs: 2 ** 53 },
    { cacheScope: 'shared' },
    { capabilities: { tools: { listChanged: 'yes' } } },
    { capabilities: { extensions: { x: 1 } } },
    { supportedVersions: [1] },
    { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' } } },
    {
      _meta: {
        'io.modelcontextprotocol/serverInfo': { ...serverInfo, icons: [{ src: 's', theme: 'blue' }] },
      },
    },
    { resultType: 'input_required' },
  ],
  [
    'ListToolsResult',
    {
      ...cacheable,
      nextCursor: 'c',
      tools: [
        {
          name: 'f',
          inputSchema: { type: 'object', properties: { a: { type: 'string' } }, $schema: 'x' },
          outputSchema: { type: 'object' },
          annotations: { readOnlyHint: true, title: 't' },
          icons: [{ src: 'x' }],
          _meta: {},
        },
      ],
    },
    { tools: [{ name: 'f', inputSchema: { type: 'string' } }] },
    { tools: [{ name: 'f' }] },
    { tools: [{ name: 'f', inputSchema: { type: 'object', $schema: 1 } }] },
    { tools: [{ name: 'f', inputSchema: { type: 'object' }, annotations: { openWorldHint: 1 } }] },
    { tools: [new Shape()] },
    { nextCursor: 1 },
  ],
  [
    'CallToolResult',
    { resultType: 'complete', content, structuredContent: { a: [1] }, isError: true },
    { content: [{ type: 'text', text: 't', annotations: { priority: 1.5 } }] },
    { content: [{ type: 'text', text: 't', annotations: { priority: Number.NaN } }] },
    { content: [{ type: 'text', text: 't', annotations: { audience: ['bot'] } }] },
    { content: [{ type: 'video', data: 'x' }] },
    { content: [{ type: 'resource', resource: { uri: 'u' } }] },
    { content: [{ type: 'resource_link', uri: 'u', name: 'n', size: 1.5 }] },
    { content: [{ type: 'image', data: 'x' }] },
    { content: [new Shape()] },
    { content: [Object.assign(Object.create(null), { type: 'text', text: 't' })] },
    { content: [JSON.parse('{"type":"text","text":"t","__proto__":{"x":1}}')] },
    { content: [undefined, { type: 'text', text: 't' }] },
    { isError: 'no' },
    { structuredContent: undefined },
    { content: undefined },
  ],
  [
    'ListPromptsResult',
    {
      ...cacheable,
      prompts: [{ name: 'p', arguments: [{ name: 'a', required: true, title: 'A' }], description: 'd' }],
    },
    { prompts: [{ name: 'p', arguments: [{ name: 'a', required: 'yes' }] }] },
    { prompts: [{ title: 'p' }] },
  ],
  [
    'GetPromptResult',
    { resultType: 'complete', description: 'd', messages: [{ role: 'user', content: content[0] }] },
    { messages: [{ role: 'system', content: content[0] }] },
    { messages: [{ role: 'user', content }] },
    { description: 1 },
  ],
  [
    'ListResourcesResult',
    { ...cacheable, resources: [{ uri: 'u', name: 'n', mimeType: 'text/plain', size: 0, annotations }] },
    { resources: [{ uri: 'u', name: 'n', size: -0.5 }] },
    { resources: [{ name: 'n' }] },
  ],
  [
    'ListResourceTemplatesResult',
    { ...cacheable, resourceTemplates: [{ uriTemplate: 'file:///{x}', name: 'n', mimeType: 'x' }] },
    { resourceTemplates: [{ uri: 'u', name: 'n' }] },
  ],
  [
    'ReadResourceResult',
    { ...cacheable, contents: [content[4]?.resource as object, content[5]?.resource as object] },
    { contents: [{ uri: 'u' }] },
    { contents: [{ uri: 'u', text: 1 }] },
    { contents: [{ uri: 'u', text: 't', _meta: [] }] },
    { ttlMs: undefined },
  ],
  [
    'CompleteResult',
    { resultType: 'complete', completion: { values: Array(100).fill('v'), total: 200, hasMore: true } },
    { completion: { values: Array(101).fill('v') } },
    { completion: { values: ['v'], total: 1.5 } },
    { completion: { values: ['v'], hasMore: 'no' } },
  ],
  [
    'InputRequiredResult',
    {
      resultType: 'input_required',
      inputRequests: { e: elicit, s: sample, r: { method: 'roots/list' }, u: urlElicit() },
      requestState: 's',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    },
    { inputRequests: undefined, requestState: undefined },
    { requestState: 1 },
    { inputRequests: { e: { method: 'elicitation/create', params: { message: 'm', mode: 'popup' } } } },
    { inputRequests: { r: { method: 'roots/list', params: [] } } },
    { inputRequests: { x: { method: 'tasks/get', params: {} } } },
    { inputRequests: { s: { ...sample, params: { ...sample.params, maxTokens: 1.5 } } } },
    { inputRequests: { s: { ...sample, params: { ...sample.params, temperature: Infinity } } } },
    { inputRequests: { s: { ...sample, params: { ...sample.params, includeContext: 'all' } } } },
    { inputRequests: { s: { ...sample, params: { ...sample.params, toolChoice: { mode: 'any' } } } } },
    {
      inputRequests: {
        s: { ...sample, params: { ...sample.params, modelPreferences: { costPriority: 2 } } },
      },
    },
    ...Object.keys(fields).map((key) => ({
      inputRequests: {
        e: {
          method: 'elicitation/create',
          params: {
            message: 'm',
            requestedSchema: {
              type: 'object',
              properties: { [key]: { ...fields[key as 'n'], default: {} } },
            },
          },
        },
      },
    })),
    {
      inputRequests: {
        e: {
          ...elicit,
          params: { ...elicit.params, requestedSchema: { type: 'object', properties: { f: {} } } },
        },
      },
    },
    { resultType: 'complete' },
  ],
  ['InputRequests', { e: elicit }, { e: urlElicit({ url: 1 }) }, { e: { method: 'elicitation/create' } }],
  [
    'ElicitResult',
    { action: 'accept', content: { a: 'x', n: 1.5, b: false, l: ['x'] } },
    { action: 'later' },
    { content: { n: Number.POSITIVE_INFINITY } },
    { content: { l: [1] } },
    { content: { o: {} } },
  ],
  [
    'CreateMessageResult',
    { role: 'assistant', content: [{ type: 'text', text: 'x' }], model: 'm', stopReason: 'endTurn' },
    { model: undefined },
    { content: { type: 'tool_use', id: 'u', name: 'f' } },
    { role: 'tool' },
  ],
  [
    'ListRootsResult',
    { roots: [{ uri: 'file:///r', name: 'r', _meta: {} }] },
    { roots: [{ name: 'r' }] },
    { roots: {} },
  ],
  [
    'LoggingMessageNotificationParams',
    { level: 'info', logger: 'l', data: { a: 1 }, _meta: { 'io.modelcontextprotocol/subscriptionId': 3 } },
    { level: 'verbose' },
    { data: undefined },
    { logger: 1 },
    { _meta: null },
    { _meta: { 'io.modelcontextprotocol/subscriptionId': 1.5 } },
    { _meta: JSON.parse('{"__proto__":{"a":1}}') },
  ],
  [
    'ProgressNotificationParams',
    { progressToken: 'p', progress: 0.5, total: 1, message: 'm' },
    { progressToken: 1.5 },
    { progressToken: undefined },
    { progress: Number.NaN },
    { total: Number.NEGATIVE_INFINITY },
    { message: null },
  ],
  [
    'CreateTaskResult',
    { ...task, resultType: 'task', statusMessage: 'm', _meta: {} },
    { resultType: 'complete' },
    { requestState: undefined },
    { result: {} },
    { createdAt: '2026-07-28T10:00:00Z' },
    { createdAt: '2026-02-30T10:00:00.000Z' },
    { taskId: '' },
    { status: 'paused' },
    { ttlMs: -1 },
    { ttlMs: undefined },
    { pollIntervalMs: 1.5 },
  ],
  [
    'GetTaskResult',
    { ...task, status: 'failed', error: { code: -1, message: 'm', data: 1 }, resultType: 'complete' },
    { error: { code: 1.5, message: 'm' } },
    { error: undefined },
    { status: 'completed', result: { content: [] } },
    { status: 'completed' },
    { status: 'input_required', inputRequests: { e: elicit } },
    { status: 'input_required' },
    { resultType: 'task' },
  ],
  [
    'DetailedTask',
    { ...task, status: 'completed', result: { content: [] } },
    { result: [] },
    { status: 'cancelled' },
    { lastUpdatedAt: '+012026-07-28T10:00:00.000Z' },
  ],
];

function urlElicit(extra: Record<string, unknown> = {}) {
  return { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x', ...extra } };
}

/** `base` with `change` applied (an `undefined` member removes it). */
function changed(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base, ...change };
  for (const [key, member] of Object.entries(change)) if (member === undefined) delete out[key];
  return out;
}

describe('near misses', () => {
  it.each(table.map(([name, valid, ...misses]) => ({ name, valid, misses })))(
    '$name: the valid value passes the check; every near miss gets zod’s verdict',
    ({ name, valid, misses }) => {
      expect(agree(name, valid)).toBe('fast');
      expect(agree(name, wire(valid))).toBe('fast');
      for (const miss of misses) {
        const value = changed(valid, miss);
        agree(name, value);
        agree(name, wire(value));
      }
    },
  );

  it('judges values that are not objects, and objects zod reads but JSON never makes', () => {
    const odd: unknown[] = [undefined, null, 1, 'x', [], () => {}, new Date(0), new Map(), new Shape()];
    const inherited = Object.create({ level: 'info', data: 1, progressToken: 1, progress: 1 });
    for (const name of names)
      for (const value of [...odd, inherited, Object.create(null)]) agree(name, value);
  });
});

describe('parseLazily', () => {
  it('answers at once, with the value itself, when the check vouches for it', () => {
    const value = { resultType: 'complete', content: [{ type: 'text', text: 'x' }] };
    const parsed = parseLazily('CallToolResult', value);
    expect(parsed).toEqual({ success: true, data: value });
    expect((parsed as { data: unknown }).data).toBe(value);
  });

  it('asks zod, loaded on demand, otherwise: its verdict, output and issues', async () => {
    const cases: [CheckedName, unknown][] = [
      ['ListToolsResult', { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 7 }] }],
      ['CallToolResult', JSON.parse('{"resultType":"complete","content":[],"__proto__":{"x":1}}')],
      ['ProgressNotificationParams', { progressToken: 1, progress: Number.NaN }],
      ['CreateTaskResult', { ...task, resultType: 'task', createdAt: '2026-07-28T10:00:00+02:00' }],
    ];
    for (const [name, value] of cases) {
      const parsed = parseLazily(name, value);
      expect(parsed).toBeInstanceOf(Promise);
      const zods = CHECKED_SCHEMAS[name].safeParse(value);
      const outcome = await parsed;
      expect(outcome.success).toBe(zods.success);
      expect(outcome.data).toEqual(zods.data);
      expect(outcome.error?.issues).toEqual((zods.error as { issues?: unknown } | undefined)?.issues);
    }
  });
});

describe('@boomerang/protocol/internal', () => {
  it('exports exactly what the packages share', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'INPUT_REQUEST_KINDS',
      'LOG_PREFIX',
      'consoleLogger',
      'inputRequestKind',
      'parseLazily',
      'resolveLogger',
      'verdictOf',
    ]);
  });

  it('imports neither zod nor a schema statically: they come with on-demand.ts, through import()', () => {
    const seen = new Set<string>();
    const visit = (url: URL): void => {
      if (seen.has(url.href)) return;
      seen.add(url.href);
      const source = readFileSync(url, 'utf8');
      // Static value imports and re-exports; `import type` and `import()` load nothing at start.
      for (const [, specifier] of source.matchAll(/^(?:import|export) (?!type )[^;]*?from '([^']+)';/gms)) {
        expect(specifier, `${url.pathname} imports ${specifier}`).toMatch(/^\.\.?\//);
        expect(specifier).not.toMatch(/zod|schema\/|schemas|on-demand|fast-parse|tasks\/schema/);
        visit(new URL((specifier as string).replace(/\.js$/, '.ts'), url));
      }
    };
    visit(new URL('./index.ts', import.meta.url));
    expect(seen.size).toBeGreaterThan(5);
  });
});
