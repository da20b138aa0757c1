import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from './errors.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isPlainObject,
  isRequestId,
  jsonRpcError,
  jsonRpcResult,
  messageKind,
  type ParseMessageResult,
  parseMessage,
} from './jsonrpc.js';
import { normalizeResult } from './result.js';
import { JSONRPCErrorResponseSchema, JSONRPCMessageSchema } from './schema/index.js';

const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
const result = { jsonrpc: '2.0', id: 'a', result: { resultType: 'complete' } };
const error = { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found', data: { m: 1 } } };

/** The error code of a failed parse, or `undefined` when it succeeded. */
const codeOf = (r: ParseMessageResult): number | undefined => (r.ok ? undefined : r.error.error.code);

/** Asserts nothing reachable from `Object.prototype` changed. */
function expectPristinePrototypes(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(pristine);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}
const pristine = Object.getOwnPropertyNames(Object.prototype).sort();

afterEach(() => expectPristinePrototypes());

describe('parseMessage: valid envelopes', () => {
  it.each([
    ['request', request],
    ['request with string id and no params', { jsonrpc: '2.0', id: 'x-1', method: 'ping' }],
    ['request with id 0', { jsonrpc: '2.0', id: 0, method: 'ping' }],
    ['request with negative id', { jsonrpc: '2.0', id: -5, method: 'ping' }],
    ['request with empty params', { jsonrpc: '2.0', id: 1, method: 'a', params: {} }],
    ['notification', notification],
    ['result response', result],
    ['result without resultType (normalised later by the client)', { jsonrpc: '2.0', id: 1, result: {} }],
    ['error response', error],
    ['error response without id', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }],
    ['extra top-level members', { ...request, extension: { a: 1 } }],
  ])('accepts a %s from text, bytes and values', (_name, message) => {
    const text = JSON.stringify(message);
    for (const input of [text, new TextEncoder().encode(text), structuredClone(message)]) {
      const parsed = parseMessage(input);
      expect(parsed).toEqual({ ok: true, message, kind: messageKind(message) });
    }
  });

  it.each([
    ['request', request],
    ['notification', notification],
    ['result', result],
    ['error', error],
  ] as const)('reports the kind its envelope check found: %s', (kind, message) => {
    expect(parseMessage(JSON.stringify(message))).toMatchObject({ ok: true, kind });
  });

  it('returns the parsed value itself for values (no copy on the hot path)', () => {
    const value = structuredClone(request);
    const parsed = parseMessage(value);
    expect(parsed.ok && parsed.message).toBe(value);
  });

  it('drops id: null from an error response (MCP has id?: RequestId) without mutating the input', () => {
    const input = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' }, x: 1 };
    const parsed = parseMessage(input);
    expect(parsed).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, x: 1 },
      kind: 'error',
    });
    expect(parsed.ok && Object.hasOwn(parsed.message, 'id')).toBe(false);
    expect(input.id).toBeNull();
  });

  it('strips a UTF-8 byte order mark from bytes', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify(request))]);
    expect(parseMessage(bytes)).toEqual({ ok: true, message: request, kind: 'request' });
  });

  it('keeps non-ASCII text intact', () => {
    const message = { jsonrpc: '2.0', id: 'ü', method: 'x', params: { s: '日本語 🪃' } };
    expect(parseMessage(new TextEncoder().encode(JSON.stringify(message)))).toEqual({
      ok: true,
      message,
      kind: 'request',
    });
  });
});

describe('parseMessage: -32700 for text that is not JSON', () => {
  it.each([
    ['empty string', ''],
    ['whitespace', '   \n'],
    ['truncated object', '{"jsonrpc":"2.0","id":1,"method":"pi'],
    ['truncated after colon', '{"jsonrpc":'],
    ['single brace', '{'],
    ['trailing garbage', '{"jsonrpc":"2.0","method":"x"} x'],
    ['two messages', '{"jsonrpc":"2.0","method":"x"}{"jsonrpc":"2.0","method":"y"}'],
    ['single quotes', "{'jsonrpc':'2.0'}"],
    ['NaN literal', '{"jsonrpc":"2.0","id":NaN,"method":"x"}'],
    ['comment', '// hi\n{}'],
    ['undefined', 'undefined'],
  ])('%s', (_name, text) => {
    const parsed = parseMessage(text);
    expect(parsed).toEqual({
      ok: false,
      error: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
    });
  });

  it.each([
    ['lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['overlong encoding', [0x22, 0xc0, 0xaf, 0x22]],
    ['truncated multi-byte sequence', [0x22, 0xe6, 0x97, 0x22]],
    ['encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ['0xff byte', [0xff]],
  ])('invalid UTF-8: %s', (_name, bytes) => {
    expect(codeOf(parseMessage(new Uint8Array(bytes)))).toBe(ErrorCode.ParseError);
  });

  it('works on a Buffer (a Uint8Array subclass)', () => {
    expect(parseMessage(Buffer.from(JSON.stringify(request)))).toEqual({
      ok: true,
      message: request,
      kind: 'request',
    });
    expect(codeOf(parseMessage(Buffer.from('{')))).toBe(ErrorCode.ParseError);
  });
});

describe('parseMessage: -32600 for JSON that is not a JSON-RPC message', () => {
  it.each([
    ['batch (array)', [request], undefined],
    ['empty batch', [], undefined],
    ['null', null, undefined],
    ['number', 42, undefined],
    ['string value', undefined, undefined],
    ['boolean', true, undefined],
    ['missing jsonrpc', { id: 1, method: 'x' }, 1],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'x' }, 1],
    ['jsonrpc as number', { jsonrpc: 2.0, id: 1, method: 'x' }, 1],
    ['method not a string', { jsonrpc: '2.0', id: 1, method: 5 }, 1],
    ['params an array', { jsonrpc: '2.0', id: 1, method: 'x', params: [1] }, 1],
    ['params null', { jsonrpc: '2.0', id: 1, method: 'x', params: null }, 1],
    ['params a string', { jsonrpc: '2.0', id: 'q', method: 'x', params: 's' }, 'q'],
    ['null request id', { jsonrpc: '2.0', id: null, method: 'x' }, undefined],
    ['fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }, undefined],
    ['boolean id', { jsonrpc: '2.0', id: true, method: 'x' }, undefined],
    ['object id', { jsonrpc: '2.0', id: {}, method: 'x' }, undefined],
    ['huge id (not exactly representable)', { jsonrpc: '2.0', id: 2 ** 53, method: 'x' }, undefined],
    ['request with result', { jsonrpc: '2.0', id: 1, method: 'x', result: {} }, 1],
    ['result and error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: '' } }, 1],
    ['result without id', { jsonrpc: '2.0', result: {} }, undefined],
    ['result with null id', { jsonrpc: '2.0', id: null, result: {} }, undefined],
    ['result not an object', { jsonrpc: '2.0', id: 1, result: 'ok' }, 1],
    ['result an array', { jsonrpc: '2.0', id: 1, result: [] }, 1],
    ['result null', { jsonrpc: '2.0', id: 1, result: null }, 1],
    ['error not an object', { jsonrpc: '2.0', id: 1, error: 'boom' }, 1],
    ['error without code', { jsonrpc: '2.0', id: 1, error: { message: 'm' } }, 1],
    ['error code fractional', { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } }, 1],
    ['error code a string', { jsonrpc: '2.0', id: 1, error: { code: '-32600', message: 'm' } }, 1],
    ['error without message', { jsonrpc: '2.0', id: 1, error: { code: 1 } }, 1],
    ['error with bad id', { jsonrpc: '2.0', id: 1.5, error: { code: 1, message: 'm' } }, undefined],
    ['nothing but jsonrpc', { jsonrpc: '2.0', id: 3 }, 3],
  ])('%s', (_name, value, echoedId) => {
    for (const input of value === undefined ? ['"just a string"'] : [JSON.stringify(value), value]) {
      const parsed = parseMessage(input);
      expect(codeOf(parsed)).toBe(ErrorCode.InvalidRequest);
      if (parsed.ok) continue;
      expect(parsed.error.jsonrpc).toBe('2.0');
      expect(parsed.error.error.message).toMatch(/^Invalid Request: /);
      if (echoedId === undefined) expect(Object.hasOwn(parsed.error, 'id')).toBe(false);
      else expect(parsed.error.id).toBe(echoedId);
    }
  });

  it('reads only own members: inherited jsonrpc/method do not count', () => {
    const inherited = Object.create({ jsonrpc: '2.0', method: 'x' }) as object;
    expect(codeOf(parseMessage(inherited))).toBe(ErrorCode.InvalidRequest);
  });

  it.each([
    ['a Map', new Map([['jsonrpc', '2.0']])],
    [
      'a class instance',
      new (class Msg {
        jsonrpc = '2.0';
        method = 'x';
      })(),
    ],
    ['a Date', new Date()],
    ['a function', () => 1],
    ['a symbol', Symbol('x')],
    ['a bigint', 1n],
    ['undefined', undefined],
  ])('refuses %s (not a JSON value)', (_name, value) => {
    expect(codeOf(parseMessage(value))).toBe(ErrorCode.InvalidRequest);
  });

  it('accepts a null-prototype object (what some parsers produce)', () => {
    const value = Object.assign(Object.create(null) as object, request);
    expect(parseMessage(value).ok).toBe(true);
  });

  it('does not throw on a hostile Proxy or throwing getter', () => {
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          return Object.prototype;
        },
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    );
    expect(codeOf(parseMessage(proxy))).toBe(ErrorCode.InvalidRequest);
    const getter = {
      jsonrpc: '2.0',
      get method(): string {
        throw new Error('getter');
      },
    };
    expect(codeOf(parseMessage(getter))).toBe(ErrorCode.InvalidRequest);
  });
});

describe('parseMessage: hostile input', () => {
  it('huge numbers: params are not inspected, ids must be safe integers', () => {
    const text =
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"n":1e400,"m":-1e400,"big":123456789012345678901234567890}}';
    const parsed = parseMessage(text);
    expect(parsed.ok).toBe(true);
    expect(codeOf(parseMessage('{"jsonrpc":"2.0","id":12345678901234567890,"method":"x"}'))).toBe(
      ErrorCode.InvalidRequest,
    );
    const noEcho = parseMessage('{"jsonrpc":"2.0","id":1e400,"method":"x"}');
    expect(!noEcho.ok && Object.hasOwn(noEcho.error, 'id')).toBe(false);
    expect(parseMessage(`{"jsonrpc":"2.0","id":${Number.MAX_SAFE_INTEGER},"method":"x"}`).ok).toBe(true);
  });

  it('10k-deep nesting in params (arrays and objects)', () => {
    const depth = 10_000;
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const inner of [arrays, objects]) {
      expect(parseMessage(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"deep":${inner}}}`).ok).toBe(true);
      expect(codeOf(parseMessage(inner))).toBe(ErrorCode.InvalidRequest);
    }
  });

  it('1M-deep nesting never throws (parse error or invalid request, whatever the engine can do)', () => {
    const depth = 1_000_000;
    const parsed = parseMessage(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect([ErrorCode.ParseError, ErrorCode.InvalidRequest as number]).toContain(codeOf(parsed));
    expect(codeOf(parseMessage('['.repeat(depth)))).toBe(ErrorCode.ParseError);
  });

  it('__proto__ and constructor keys stay plain data and pollute nothing', () => {
    const texts = [
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":true}}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"polluted":true}}',
      '{"__proto__":{"jsonrpc":"2.0","method":"x","polluted":true}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"constructor":{"prototype":{"polluted":true}}}}',
      '{"jsonrpc":"2.0","id":null,"__proto__":{"polluted":true},"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":true},"resultType":"complete"}}',
    ];
    const outcomes = texts.map((t) => parseMessage(t).ok);
    expect(outcomes).toEqual([true, true, false, true, true, true]);
    const nullIdError = parseMessage(texts[4]!);
    expect(nullIdError.ok && Object.getPrototypeOf(nullIdError.message)).toBe(Object.prototype);
    expect(nullIdError.ok && Object.hasOwn(nullIdError.message, '__proto__')).toBe(true);
    expectPristinePrototypes();
  });

  it('a wrapped __proto__ envelope (prototype jsonrpc/method) is not a message', () => {
    const value = JSON.parse('{"__proto__":{"jsonrpc":"2.0","method":"x"}}') as unknown;
    expect(codeOf(parseMessage(value))).toBe(ErrorCode.InvalidRequest);
  });

  it('a 16 MB string param parses', () => {
    const big = 'x'.repeat(16 * 1024 * 1024);
    const parsed = parseMessage(`{"jsonrpc":"2.0","method":"x","params":{"s":"${big}"}}`);
    expect(parsed.ok).toBe(true);
  });
});

describe('parseMessage: properties', () => {
  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const parsed = parseMessage(text);
        const codes: number[] = [ErrorCode.ParseError, ErrorCode.InvalidRequest];
        return parsed.ok || codes.includes(parsed.error.error.code);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => typeof parseMessage(bytes).ok === 'boolean'),
    );
  });

  it('never throws on arbitrary JSON text and values, and answers -32600 or ok', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = parseMessage(text);
        const fromValue = parseMessage(JSON.parse(text));
        return (
          parsed.ok === fromValue.ok && (parsed.ok || parsed.error.error.code === ErrorCode.InvalidRequest)
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on arbitrary JS values', () => {
    fc.assert(
      fc.property(
        fc.anything({ withMap: true, withSet: true, withBigInt: true }),
        (v) => 'ok' in parseMessage(v),
      ),
    );
  });

  it('accepts every well-formed envelope with arbitrary params, and the guards agree', () => {
    const id = fc.oneof(fc.string(), fc.maxSafeInteger());
    const params = fc.dictionary(fc.string(), fc.jsonValue());
    const envelope = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.string(), params }),
      fc.record(
        { jsonrpc: fc.constant('2.0'), method: fc.string(), params },
        { requiredKeys: ['jsonrpc', 'method'] },
      ),
      fc.record({ jsonrpc: fc.constant('2.0'), id, result: params }),
      fc.record(
        {
          jsonrpc: fc.constant('2.0'),
          id,
          error: fc.record(
            { code: fc.integer(), message: fc.string(), data: fc.jsonValue() },
            { requiredKeys: ['code', 'message'] },
          ),
        },
        { requiredKeys: ['jsonrpc', 'error'] },
      ),
    );
    fc.assert(
      fc.property(envelope, (message) => {
        const parsed = parseMessage(JSON.stringify(message));
        if (!parsed.ok) return false;
        const guards = [
          isJSONRPCRequest,
          isJSONRPCNotification,
          isJSONRPCResultResponse,
          isJSONRPCErrorResponse,
        ];
        return guards.filter((g) => g(parsed.message)).length === 1;
      }),
    );
  });
});

describe('parseMessage agrees with the zod schemas', () => {
  // Near-envelopes: a valid message of each kind, then maybe one member replaced, added or removed.
  const id = fc.oneof(fc.string(), fc.integer());
  const object = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 });
  const valid = fc.oneof(
    fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.string(), params: object }),
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string() }),
    fc.record({ jsonrpc: fc.constant('2.0'), id, result: object }),
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id,
      error: fc.record({ code: fc.integer(), message: fc.string() }),
    }),
  );
  const key = fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error');
  const odd = fc.oneof(fc.jsonValue(), fc.constantFrom(null, 1.5, 2 ** 53, '1.0', [], {}));
  const nearEnvelope = fc
    .tuple(valid, fc.option(fc.tuple(key, fc.option(odd, { nil: undefined })), { nil: undefined, freq: 2 }))
    .map(([message, change]) => {
      const copy: Record<string, unknown> = { ...message };
      if (change) {
        if (change[1] === undefined) delete copy[change[0]];
        else copy[change[0]] = change[1];
      }
      return JSON.parse(JSON.stringify(copy)) as unknown;
    });

  it('everything parseMessage accepts is a JSONRPCMessage for zod too', () => {
    fc.assert(
      fc.property(nearEnvelope, (value) => {
        const parsed = parseMessage(value);
        if (!parsed.ok) return true;
        // The envelope leaves `resultType` to the client, which normalises before validating.
        const message: Record<string, unknown> = { ...parsed.message };
        if ('result' in message) message.result = normalizeResult(message.result);
        return JSONRPCMessageSchema.safeParse(message).success;
      }),
      { numRuns: 5000 },
    );
  });

  it('every error parseMessage answers with is a valid JSONRPCErrorResponse', () => {
    fc.assert(
      fc.property(fc.oneof(nearEnvelope, fc.string()), (input) => {
        const parsed = parseMessage(input);
        return parsed.ok || JSONRPCErrorResponseSchema.safeParse(parsed.error).success;
      }),
      { numRuns: 2000 },
    );
  });

  it('generates both outcomes (the property above is not vacuous)', () => {
    const outcomes = fc.sample(nearEnvelope, 2000).map((v) => parseMessage(v).ok);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(400);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(400);
  });
});

describe('type guards and messageKind', () => {
  it('classify each kind exactly', () => {
    expect([request, notification, result, error].map(messageKind)).toEqual([
      'request',
      'notification',
      'result',
      'error',
    ]);
    expect(isJSONRPCRequest(request)).toBe(true);
    expect(isJSONRPCRequest(notification)).toBe(false);
    expect(isJSONRPCNotification(notification)).toBe(true);
    expect(isJSONRPCNotification(request)).toBe(false);
    expect(isJSONRPCResultResponse(result)).toBe(true);
    expect(isJSONRPCResultResponse(error)).toBe(false);
    expect(isJSONRPCErrorResponse(error)).toBe(true);
    expect(isJSONRPCErrorResponse(result)).toBe(false);
  });

  it('are exact: id null on an error response, junk and non-objects are no message', () => {
    expect(isJSONRPCErrorResponse({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'm' } })).toBe(
      false,
    );
    for (const junk of [null, undefined, 1, 'x', [], [request], { jsonrpc: '2.0' }]) {
      expect(messageKind(junk)).toBeUndefined();
    }
  });

  it('isRequestId accepts strings and safe integers only', () => {
    expect([0, -1, 2 ** 53 - 1, '', 'a'].every(isRequestId)).toBe(true);
    expect([1.5, 2 ** 53, Number.NaN, Infinity, null, undefined, true, {}, 1n].some(isRequestId)).toBe(false);
  });
});

describe('jsonRpcResult / jsonRpcError', () => {
  it('jsonRpcResult builds a result response that parses back', () => {
    const built = jsonRpcResult(3, { resultType: 'complete', tools: [] });
    expect(built).toEqual({ jsonrpc: '2.0', id: 3, result: { resultType: 'complete', tools: [] } });
    expect(parseMessage(JSON.stringify(built))).toEqual({ ok: true, message: built, kind: 'result' });
  });

  it('jsonRpcResult refuses a bad id or result with TypeError', () => {
    expect(() => jsonRpcResult(1.5, { resultType: 'complete' })).toThrow(
      new TypeError('"id" expected string or safe integer, got number'),
    );
    expect(() => jsonRpcResult(null as never, { resultType: 'complete' })).toThrow(TypeError);
    expect(() => jsonRpcResult(1, [] as never)).toThrow(
      new TypeError('"result" expected plain object, got array'),
    );
  });

  it('jsonRpcError from an McpError keeps code, message and data, never the cause', () => {
    const err = new McpError(ErrorCode.InvalidParams, 'Bad', { field: 'x' }, { cause: new Error('secret') });
    const built = jsonRpcError(9, err);
    expect(built).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32602, message: 'Bad', data: { field: 'x' } },
    });
    expect(JSON.stringify(built)).not.toContain('secret');
    expect(isJSONRPCErrorResponse(built)).toBe(true);
  });

  it('jsonRpcError from a plain object copies only code, message and data', () => {
    const built = jsonRpcError('r', { code: -32601, message: 'Method not found', extra: 'leak' } as never);
    expect(built).toEqual({ jsonrpc: '2.0', id: 'r', error: { code: -32601, message: 'Method not found' } });
  });

  it('jsonRpcError omits the id when it is unknown (undefined or null)', () => {
    for (const id of [undefined, null]) {
      const built = jsonRpcError(id, { code: ErrorCode.ParseError, message: 'Parse error' });
      expect(Object.hasOwn(built, 'id')).toBe(false);
      expect(parseMessage(JSON.stringify(built)).ok).toBe(true);
    }
  });

  it('jsonRpcError refuses wrong argument types with TypeError', () => {
    expect(() => jsonRpcError(1.5, { code: 1, message: 'm' })).toThrow(TypeError);
    expect(() => jsonRpcError(1, { code: 1.5, message: 'm' })).toThrow(
      new TypeError('"error.code" expected integer, got number'),
    );
    expect(() => jsonRpcError(1, { code: 1, message: 2 } as never)).toThrow(
      new TypeError('"error.message" expected string, got number'),
    );
    expect(() => jsonRpcError(1, new Error('x') as never)).toThrow(TypeError);
    expect(() => jsonRpcError(1, null as never)).toThrow(
      new TypeError('"error" expected McpError or { code, message }, got null'),
    );
  });
});

describe('isPlainObject', () => {
  it('is true for JSON objects and object literals, with or without a prototype', () => {
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it('is false for arrays, class instances, null and primitives', () => {
    for (const value of [[], new Map(), new Date(), null, undefined, 'x', 1, true]) {
      expect(isPlainObject(value)).toBe(false);
    }
  });
});
