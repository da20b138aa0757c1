// Behaviour of the schemas that the spec fixtures do not pin down: extension fields survive, unions dispatch
// on their tags, number bounds hold, hostile keys do nothing. Runs without ../shared/spec.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CallToolRequest,
  CallToolResult,
  ClientRequest,
  ErrorObject,
  JSONRPCMessage,
  RequestId,
} from '../index.js';
import {
  CallToolRequestSchema,
  CallToolResultResponseSchema,
  CallToolResultSchema,
  ClientCapabilitiesSchema,
  ClientRequestSchema,
  CompleteResultSchema,
  ContentBlockSchema,
  ElicitRequestParamsSchema,
  ElicitResultSchema,
  ErrorSchema,
  InputRequestSchema,
  InputRequiredResultSchema,
  JSONRPCMessageSchema,
  JSONValueSchema,
  ListToolsResultSchema,
  ModelPreferencesSchema,
  ReadResourceResultResponseSchema,
  ReadResourceResultSchema,
  RequestIdSchema,
  ServerNotificationSchema,
  ToolSchema,
} from '../schemas.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const callTool = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { _meta: meta, name: 'get_weather', arguments: { city: 'Lisbon' } },
} as const;

/** Parses `value` with `schema` and returns the JSON round trip of the output. */
function roundTrip(schema: { parse(value: unknown): unknown }, value: unknown): unknown {
  return JSON.parse(JSON.stringify(schema.parse(value)));
}

describe('extension fields survive a parse', () => {
  it('keeps unknown members at every level of a request', () => {
    const message = {
      ...callTool,
      'x-envelope': 1,
      params: {
        ...callTool.params,
        'x-params': { nested: [1, null, 2.5] },
        _meta: {
          ...meta,
          'com.example/trace': { id: 'abc', sampled: true },
          'io.modelcontextprotocol/clientCapabilities': { 'com.example/unknown-capability': { on: true } },
        },
      },
    };
    expect(roundTrip(CallToolRequestSchema, message)).toEqual(message);
    expect(roundTrip(ClientRequestSchema, message)).toEqual(message);
    expect(roundTrip(JSONRPCMessageSchema, message)).toEqual(message);
  });

  it('keeps unknown members and _meta keys in results and content blocks', () => {
    const result = {
      resultType: 'complete',
      _meta: {
        'io.modelcontextprotocol/serverInfo': { name: 's', version: '1', 'x-build': 42 },
        'com.example/cost': 0.25,
      },
      content: [
        { type: 'text', text: 'hi', _meta: { 'com.example/lang': 'en' }, 'x-extra': true },
        { type: 'image', data: 'AAAA', mimeType: 'image/png', annotations: { priority: 0.5, 'x-hint': 'a' } },
      ],
      structuredContent: { temperature: 21.5, unit: null },
      'x-result': 'kept',
    };
    expect(roundTrip(CallToolResultSchema, result)).toEqual(result);
    expect(roundTrip(CallToolResultResponseSchema, { jsonrpc: '2.0', id: 'a', result })).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result,
    });
  });

  it('keeps arbitrary JSON Schema keywords of a tool', () => {
    const tool = {
      name: 't',
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer', 'x-mcp-header': 'N' } },
        oneOf: [{ required: ['n'] }],
        $defs: { a: {} },
      },
      outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array' },
      annotations: { readOnlyHint: true, 'x-hint': 1 },
    };
    expect(roundTrip(ToolSchema, tool)).toEqual(tool);
  });

  it('keeps extra members of capabilities and elicitation answers', () => {
    const caps = {
      elicitation: { form: {}, url: { 'x-limit': 3 } },
      'com.example/cap': { a: [1, { b: null }] },
    };
    expect(roundTrip(ClientCapabilitiesSchema, caps)).toEqual(caps);
    const answer = { action: 'accept', content: { n: 2.5, tags: ['a'] }, _meta: { 'com.example/k': 1 } };
    expect(roundTrip(ElicitResultSchema, answer)).toEqual(answer);
  });
});

describe('tagged unions', () => {
  it('dispatches content blocks on type and rejects unknown types', () => {
    expect(ContentBlockSchema.parse({ type: 'audio', data: 'AA', mimeType: 'audio/wav' }).type).toBe('audio');
    expect(ContentBlockSchema.safeParse({ type: 'video', data: 'AA' }).success).toBe(false);
    expect(ContentBlockSchema.safeParse({ type: 'text' }).success).toBe(false);
  });

  it('dispatches client requests and server notifications on method', () => {
    const parsed: ClientRequest = ClientRequestSchema.parse(callTool);
    if (parsed.method !== 'tools/call') throw new Error('expected tools/call');
    expectTypeOf(parsed.params.name).toEqualTypeOf<string>();
    expect(ClientRequestSchema.safeParse({ ...callTool, method: 'tools/delete' }).success).toBe(false);
    expect(ClientRequestSchema.safeParse({ ...callTool, params: { name: 'x' } }).success).toBe(false);
    expect(
      ServerNotificationSchema.parse({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 0.5 },
      }).method,
    ).toBe('notifications/progress');
  });

  it('tells a final result from input_required by resultType', () => {
    const asking = {
      resultType: 'input_required',
      inputRequests: { who: { method: 'roots/list' } },
      requestState: 'opaque',
    };
    const response = CallToolResultResponseSchema.parse({ jsonrpc: '2.0', id: 1, result: asking });
    expect(response.result.resultType).toBe('input_required');
    expect(
      CallToolResultResponseSchema.safeParse({ jsonrpc: '2.0', id: 1, result: { content: [] } }).success,
    ).toBe(false);
    expect(CallToolResultSchema.safeParse({ resultType: 'pending', content: [] }).success).toBe(false);
  });

  it('requires inputRequests or requestState on an InputRequiredResult', () => {
    expect(InputRequiredResultSchema.safeParse({ resultType: 'input_required' }).success).toBe(false);
    expect(
      InputRequiredResultSchema.safeParse({ resultType: 'input_required', requestState: '' }).success,
    ).toBe(true);
    expect(InputRequiredResultSchema.safeParse({ resultType: 'complete', requestState: 's' }).success).toBe(
      false,
    );
  });

  it('dispatches input requests on method', () => {
    expect(InputRequestSchema.safeParse({ method: 'roots/list' }).success).toBe(true);
    expect(InputRequestSchema.safeParse({ method: 'sampling/createMessage', params: {} }).success).toBe(
      false,
    );
    expect(InputRequestSchema.safeParse({ method: 'ping' }).success).toBe(false);
  });

  it('treats an elicitation without mode as a form', () => {
    const form = {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
    };
    expect(ElicitRequestParamsSchema.safeParse(form).success).toBe(true);
    expect(ElicitRequestParamsSchema.safeParse({ ...form, mode: 'form' }).success).toBe(true);
    expect(ElicitRequestParamsSchema.safeParse({ mode: 'url', message: 'Go' }).success).toBe(false);
    expect(
      ElicitRequestParamsSchema.safeParse({ mode: 'url', message: 'Go', url: 'https://x' }).success,
    ).toBe(true);
    expect(ElicitRequestParamsSchema.safeParse({ ...form, mode: 'voice' }).success).toBe(false);
  });

  it('accepts a resources/read response without cache fields, but not a bare result without them', () => {
    const contents = [{ uri: 'file:///a', text: 'a' }];
    const result = { resultType: 'complete', contents };
    expect(ReadResourceResultResponseSchema.safeParse({ jsonrpc: '2.0', id: 1, result }).success).toBe(true);
    expect(ReadResourceResultSchema.safeParse(result).success).toBe(false);
  });
});

describe('number bounds', () => {
  it('enforces integers and ranges from schema.json', () => {
    expect(RequestIdSchema.safeParse(1.5).success).toBe(false);
    expect(RequestIdSchema.safeParse(1e300).success).toBe(false);
    expect(ErrorSchema.safeParse({ code: -32600.5, message: 'x' }).success).toBe(false);
    const list = { resultType: 'complete', tools: [], cacheScope: 'public' };
    expect(ListToolsResultSchema.safeParse({ ...list, ttlMs: -1 }).success).toBe(false);
    expect(ListToolsResultSchema.safeParse({ ...list, ttlMs: 0 }).success).toBe(true);
    expect(ModelPreferencesSchema.safeParse({ costPriority: 1.01 }).success).toBe(false);
    const values = Array.from({ length: 101 }, (_, i) => String(i));
    expect(CompleteResultSchema.safeParse({ resultType: 'complete', completion: { values } }).success).toBe(
      false,
    );
  });
});

describe('JSON values', () => {
  it('accepts any JSON, including null and fractions, and rejects what JSON cannot carry', () => {
    const value = { a: [1, 2.5, null, true, 'x', { b: {} }] };
    expect(JSONValueSchema.parse(value)).toEqual(value);
    expect(JSONValueSchema.safeParse(undefined).success).toBe(false);
    expect(JSONValueSchema.safeParse({ a: undefined }).success).toBe(false);
    expect(JSONValueSchema.safeParse(() => 1).success).toBe(false);
  });
});

describe('hostile keys', () => {
  it('never lets __proto__ reach a prototype', () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","__proto__":{"polluted":1},
      "params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
      "io.modelcontextprotocol/clientCapabilities":{"__proto__":{"polluted":2}},"__proto__":{"polluted":3}},
      "name":"t","arguments":{"__proto__":{"polluted":4}}}}`;
    const parsed = CallToolRequestSchema.parse(JSON.parse(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(parsed.params.arguments)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('types', () => {
  it('infers precise types', () => {
    expectTypeOf<RequestId>().toEqualTypeOf<string | number>();
    expectTypeOf<ErrorObject['code']>().toEqualTypeOf<number>();
    expectTypeOf<CallToolRequest['method']>().toEqualTypeOf<'tools/call'>();
    expectTypeOf<CallToolResult['resultType']>().toEqualTypeOf<'complete'>();
    expectTypeOf<JSONRPCMessage>().not.toBeAny();
    expectTypeOf<
      CallToolRequest['params']['_meta']['io.modelcontextprotocol/protocolVersion']
    >().toEqualTypeOf<string>();
  });
});
