import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { canonicalJson, createSealer, generateKey, SealError } from '@boomerang/seal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindingContext, type RequestStateBinding, sealed } from './sealed.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { RequestContext } from './types.js';

const key = generateKey();
const binding: RequestStateBinding = {
  method: 'tools/call',
  target: 'provision',
  arguments: { name: 'orders', options: { size: 2, tier: 'gold' } },
  auth: { clientId: 'app', issuer: 'https://as.example', subject: 'alice', scopes: ['a'] },
};

/** `token` with the character at `index` replaced by another base64url character (a body byte, no padding bits). */
const flip = (token: string, index: number) =>
  token.slice(0, index) + (token[index] === 'A' ? 'B' : 'A') + token.slice(index + 1);

const reasonOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof SealError ? error.reason : `not a SealError: ${String(error)}`;
  }
  return undefined;
};

describe('sealed()', () => {
  it('round-trips state; the token hides it and differs every time', () => {
    const envelope = sealed({ keys: [key] });
    const state = '{"step":2,"secret":"hunter2"}';
    const a = envelope.seal(state, binding) as string;
    const b = envelope.seal(state, binding) as string;
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('hunter2');
    expect(envelope.open(a, binding)).toBe(state);
    expect(envelope.open(b, binding)).toBe(state);
  });

  it('round-trips every string, lone surrogates included', () => {
    const envelope = sealed({ keys: [key] });
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (state) => {
        expect(envelope.open(envelope.seal(state, binding) as string, binding)).toBe(state);
      }),
      { numRuns: 50 },
    );
    expect(envelope.open(envelope.seal('\ud800x', binding) as string, binding)).toBe('\ud800x');
  });

  it.each<[string, Partial<RequestStateBinding>]>([
    ['another method', { method: 'prompts/get' }],
    ['another tool', { target: 'deprovision' }],
    ['other arguments', { arguments: { name: 'billing', options: { size: 2, tier: 'gold' } } }],
    ['a nested argument changed', { arguments: { name: 'orders', options: { size: 3, tier: 'gold' } } }],
    ['another subject', { auth: { ...binding.auth, subject: 'bob' } }],
    ['another client', { auth: { ...binding.auth, clientId: 'other-app' } }],
    ['another issuer', { auth: { ...binding.auth, issuer: 'https://evil.example' } }],
    ['no principal', { auth: undefined }],
  ])('rejects state presented with %s (reason "context")', (_name, change) => {
    const envelope = sealed({ keys: [key] });
    const token = envelope.seal('s', binding) as string;
    expect(reasonOf(() => envelope.open(token, { ...binding, ...change }))).toBe('context');
  });

  it('rejects state minted without a principal when one is presented', () => {
    const envelope = sealed({ keys: [key] });
    const token = envelope.seal('s', { ...binding, auth: undefined }) as string;
    expect(reasonOf(() => envelope.open(token, binding))).toBe('context');
  });

  it('binds arguments by canonical JSON: key order and undefined-vs-{} do not matter; scopes are never bound', () => {
    const envelope = sealed({ keys: [key] });
    const token = envelope.seal('s', binding) as string;
    const reordered = { options: { tier: 'gold', size: 2 }, name: 'orders' };
    expect(
      envelope.open(token, { ...binding, arguments: reordered, auth: { ...binding.auth, scopes: ['b'] } }),
    ).toBe('s');
    const bare = { ...binding, arguments: undefined };
    expect(envelope.open(envelope.seal('s', bare) as string, { ...binding, arguments: {} })).toBe('s');
  });

  it('binds each of many tokens to its own context (long contexts and binder principals too)', () => {
    const bindingFor = (n: number, padding = '') => ({ ...binding, arguments: { n, padding } });
    const count = 300;
    const long = 'x'.repeat(600);
    for (const envelope of [
      sealed({ keys: [key] }),
      sealed({ keys: [key], bindPrincipal: (b) => `tenant-${String(b.arguments?.n)}` }),
    ]) {
      const tokens = Array.from({ length: count }, (_, n) => envelope.seal(`s${n}`, bindingFor(n)) as string);
      const longToken = envelope.seal('long', bindingFor(0, long)) as string;
      for (let n = 0; n < count; n++) {
        expect(envelope.open(tokens[n] as string, bindingFor(n))).toBe(`s${n}`);
        expect(reasonOf(() => envelope.open(tokens[n] as string, bindingFor((n + 1) % count)))).toBe(
          'context',
        );
      }
      expect(envelope.open(longToken, bindingFor(0, long))).toBe('long');
      expect(reasonOf(() => envelope.open(longToken, bindingFor(0, `${long}y`)))).toBe('context');
      expect(reasonOf(() => envelope.open(longToken, bindingFor(0)))).toBe('context');
    }
  });

  it('ignores the principal with bindPrincipal: false', () => {
    const envelope = sealed({ keys: [key], bindPrincipal: false });
    const token = envelope.seal('s', binding) as string;
    expect(envelope.open(token, { ...binding, auth: { subject: 'bob' } })).toBe('s');
    expect(envelope.open(token, { ...binding, auth: undefined })).toBe('s');
  });

  it('expires after ttlSeconds (default 600), measured on the injected clock', () => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const byDefault = sealed({ keys: [key], clock });
    const short = sealed({ keys: [key], clock, ttlSeconds: 5 });
    const a = byDefault.seal('s', binding) as string;
    const b = short.seal('s', binding) as string;
    now += 4_000;
    expect(short.open(b, binding)).toBe('s');
    now += 1_000;
    expect(reasonOf(() => short.open(b, binding))).toBe('expired');
    now += 594_000;
    expect(byDefault.open(a, binding)).toBe('s');
    now += 1_000;
    expect(reasonOf(() => byDefault.open(a, binding))).toBe('expired');
  });

  it('rejects state sealed for another audience', () => {
    const orders = sealed({ keys: [key], audience: 'orders' });
    const billing = sealed({ keys: [key], audience: 'billing' });
    const anyone = sealed({ keys: [key] });
    const token = orders.seal('s', binding) as string;
    expect(reasonOf(() => billing.open(token, binding))).toBe('audience');
    expect(reasonOf(() => anyone.open(token, binding))).toBe('audience');
  });

  it('rotates keys: keys[0] seals, every key opens, a retired key is unknown', () => {
    const [oldKey, newKey] = [generateKey(), generateKey()];
    const token = sealed({ keys: [oldKey] }).seal('s', binding) as string;
    expect(sealed({ keys: [oldKey, newKey] }).open(token, binding)).toBe('s');
    expect(sealed({ keys: [newKey, oldKey] }).open(token, binding)).toBe('s');
    expect(reasonOf(() => sealed({ keys: [newKey] }).open(token, binding))).toBe('unknown-key');
  });

  it('rejects tampered, truncated and foreign tokens', () => {
    const envelope = sealed({ keys: [key] });
    const token = envelope.seal('s', binding) as string;
    for (const bad of [flip(token, 20), token.slice(0, -2), '', 'plain-state', 'v1.AAAA']) {
      expect(reasonOf(() => envelope.open(bad, binding))).toMatch(/malformed|forged|unknown-key/);
    }
  });

  it.each([
    ['an unknown tag', [2, 0x61]],
    ['no tag at all', []],
    ['bytes that are not UTF-8', [0, 0xff, 0xfe]],
    ['an escaped payload that is not a JSON string', [1, ...new TextEncoder().encode('{"a":1}')]],
    ['an unknown tag', [9, 0x61]],
    ['a frame cut short', [2, 0, 0, 0]],
    ['a frame longer than the payload', [2, 0, 0, 0, 1, 0, 9, 0x7b, 0x7d]],
    [
      'a frame whose carried JSON is not an object of strings',
      [2, 0, 0, 0, 1, 0, 7, ...new TextEncoder().encode('{"a":1}')],
    ],
  ])('rejects a payload with %s even under the right key and context', (_what, bytes) => {
    const raw = createSealer({ keys: [key] });
    const token = raw.seal(Uint8Array.from(bytes), { context: bindingContext(binding, true) });
    expect(() => sealed({ keys: [key] }).open(token, binding)).toThrow(TypeError);
  });

  it('carries a well-formed state as its UTF-8 bytes after one tag byte', () => {
    const raw = createSealer({ keys: [key] });
    const token = sealed({ keys: [key] }).seal('{"v":1,"é":"😀"}', binding) as string;
    const payload = raw.unseal(token, { context: bindingContext(binding, true) });
    expect([...payload]).toEqual([0, ...new TextEncoder().encode('{"v":1,"é":"😀"}')]);
  });

  it('seals a frame (round, carried strings) beside the state when there is more than round 0 to say', () => {
    const envelope = sealed({ keys: [key] });
    const raw = createSealer({ keys: [key] });
    const payloadOf = (token: string) => [...raw.unseal(token, { context: bindingContext(binding, true) })];
    // Round 0 with nothing carried: no frame, the payload is the same as without one.
    const plain = envelope.seal('s', binding, { round: 0, carried: {} }) as string;
    expect(payloadOf(plain)).toEqual([0, 0x73]);
    expect(envelope.open(plain, binding)).toBe('s');
    const framed = envelope.seal('s\ud800', binding, { round: 3, carried: { tp: '00-ab' } }) as string;
    expect(payloadOf(framed).slice(0, 7)).toEqual([3, 0, 0, 0, 3, 0, 14]);
    expect(envelope.open(framed, binding)).toEqual({
      state: 's\ud800',
      frame: { round: 3, carried: { tp: '00-ab' } },
    });
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.nat({ max: 2 ** 32 - 1 }),
        fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
        (state, round, carried) => {
          const opened = envelope.open(envelope.seal(state, binding, { round, carried }) as string, binding);
          const expected =
            round === 0 && Object.keys(carried).length === 0 ? state : { state, frame: { round, carried } };
          expect(opened).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('works around a custom codec', () => {
    const codec = {
      seal: (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)),
      unseal: (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)),
    };
    const envelope = sealed({ codec });
    expect(envelope.open(envelope.seal('s', binding) as string, binding)).toBe('s');
    expect(
      reasonOf(() => envelope.open(envelope.seal('s', binding) as string, { ...binding, target: 'x' })),
    ).toBe('context');
  });

  it('checks its options', () => {
    expect(() => sealed({ keys: [new Uint8Array(16)] })).toThrow(RangeError);
    expect(() => sealed({ keys: [key], bindPrincipal: 'yes' as never })).toThrow(TypeError);
    expect(() => sealed({} as never)).toThrow(TypeError);
    expect(() => sealed(null as never)).toThrow(TypeError);
    expect(() => sealed({ keys: [key], ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => sealed({ keys: [key] }).seal(42 as never, binding)).toThrow(TypeError);
  });
});

describe('bindingContext', () => {
  it('is the canonical JSON of ["mcp/request-state/v2", method, target, arguments ?? {}, principal]', () => {
    const auth = fc.option(
      fc.record(
        {
          clientId: fc.string(),
          issuer: fc.string(),
          subject: fc.string(),
          token: fc.string(),
          scopes: fc.array(fc.string()),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    );
    const args = fc.option(
      fc.oneof(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(fc.string(), fc.anything({ withDate: true, withBoxedValues: true, withMap: true })),
      ),
      { nil: undefined },
    );
    const binder = fc.constantFrom<boolean | ((b: RequestStateBinding) => string | undefined)>(
      true,
      false,
      (b) => b.auth?.subject,
      () => '\ud800',
    );
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        args,
        auth,
        binder,
        (method, target, argsValue, authValue, bind) => {
          const binding = { method, target, arguments: argsValue, auth: authValue } as RequestStateBinding;
          // Empty strings name nobody; no identity: the token; neither: no binding at all (fail closed).
          const named = (value: string | undefined) => (value === undefined || value === '' ? null : value);
          const identity = authValue && [
            named(authValue.clientId),
            named(authValue.issuer),
            named(authValue.subject),
          ];
          const token = named(authValue?.token);
          const principal =
            typeof bind === 'function'
              ? (bind(binding) ?? null)
              : !bind || identity === undefined
                ? null
                : identity.some((member) => member !== null)
                  ? identity
                  : token !== null
                    ? { token }
                    : undefined;
          if (principal === undefined) {
            expect(() => bindingContext(binding, bind)).toThrow(TypeError);
          } else {
            expect(bindingContext(binding, bind)).toBe(
              canonicalJson(['mcp/request-state/v2', method, target, argsValue ?? {}, principal]),
            );
          }
        },
      ),
    );
  });
});

describe('a Server with requestState: sealed(...)', () => {
  const askRegion = elicitRequest({
    message: 'Which region?',
    requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
  });
  const caps = { elicitation: {} };
  const FROZEN = { code: -32602, message: 'Invalid or expired requestState' };

  function setup(options: { clock?: () => number } = {}) {
    const logger = recordingLogger();
    const seen: RequestContext[] = [];
    const handlerParams: unknown[] = [];
    const respond = (params: unknown, ctx: RequestContext) => {
      seen.push(ctx);
      handlerParams.push(params);
      if (ctx.requestState === 'asked-region') return { done: true as const, state: ctx.requestState };
      return inputRequired({ inputRequests: { region: askRegion }, requestState: 'asked-region' });
    };
    const server = new Server(
      { name: 'provisioner', version: '1.0.0' },
      {
        logger,
        requestState: sealed({ keys: [key], ...options }),
        onCallTool: (params, ctx) => {
          const r = respond(params, ctx);
          return 'done' in r ? { content: [{ type: 'text', text: `state ${r.state}` }] } : r;
        },
        onGetPrompt: (params, ctx) => {
          const r = respond(params, ctx);
          return 'done' in r ? { messages: [] } : r;
        },
        onReadResource: (params, ctx) => {
          const r = respond(params, ctx);
          return 'done' in r ? { contents: [] } : r;
        },
        onListTools: () => ({ tools: [] }),
      },
    );
    return { server, logger, seen, handlerParams };
  }

  const first = { name: 'provision', arguments: { name: 'orders' } };
  const answers = { region: { action: 'accept', content: { region: 'eu-west-1' } } };

  it('seals outbound state and opens it for the handler, which sees plaintext', async () => {
    const { server, seen, handlerParams } = setup();
    const round1 = resultOf(await server.handle(request('tools/call', first, { caps })));
    expect(round1.resultType).toBe('input_required');
    expect(typeof round1.requestState).toBe('string');
    expect(round1.requestState).not.toBe('asked-region');
    const retry = { ...first, inputResponses: answers, requestState: round1.requestState };
    const round2 = resultOf(await server.handle(request('tools/call', retry, { caps })));
    expect(round2).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'state asked-region' }],
    });
    expect(seen[1]?.requestState).toBe('asked-region');
    expect(seen[1]?.inputResponses).toEqual(answers);
    expect(handlerParams[1]).toMatchObject({ requestState: 'asked-region' });
  });

  it.each([
    [
      'prompts/get',
      { name: 'greet', arguments: { who: 'ada' } },
      { name: 'greet', arguments: { who: 'bob' } },
    ],
    ['resources/read', { uri: 'file:///a' }, { uri: 'file:///b' }],
  ])('does the same on %s, bound to its name or URI', async (method, params, other) => {
    const { server } = setup();
    const round1 = resultOf(await server.handle(request(method, params, { caps })));
    const state = round1.requestState;
    expect(
      resultOf(await server.handle(request(method, { ...params, requestState: state }, { caps }))).resultType,
    ).toBe('complete');
    expect(
      errorOf(await server.handle(request(method, { ...other, requestState: state }, { caps }))),
    ).toEqual(FROZEN);
  });

  const rejections: [string, (token: string) => Record<string, unknown>, string][] = [
    ['a tampered token', (t) => ({ ...first, requestState: flip(t, 30) }), 'forged'],
    ['plaintext the server never minted', () => ({ ...first, requestState: 'asked-region' }), 'malformed'],
    ['an empty string', () => ({ ...first, requestState: '' }), 'malformed'],
    ['a non-string', () => ({ ...first, requestState: { forged: true } }), 'not a string'],
    ['another tool', (t) => ({ ...first, name: 'deprovision', requestState: t }), 'context'],
    ['other arguments', (t) => ({ ...first, arguments: { name: 'billing' }, requestState: t }), 'context'],
  ];

  it.each(rejections)(
    'rejects %s with the one frozen error, before the handler',
    async (_n, params, reason) => {
      const { server, logger, seen } = setup();
      const token = resultOf(await server.handle(request('tools/call', first, { caps })))
        .requestState as string;
      const response = await server.handle(request('tools/call', params(token), { caps, id: 'x' }));
      expect(response).toEqual({ jsonrpc: '2.0', id: 'x', error: FROZEN });
      expect(seen).toHaveLength(1);
      expect(logger.lines).toEqual([
        { level: 'warn', message: `requestState rejected on tools/call: ${reason}` },
      ]);
      expect(JSON.stringify(logger.lines)).not.toContain(token);
    },
  );

  it('rejects state presented by another principal', async () => {
    const { server, logger } = setup();
    const alice = { auth: { clientId: 'app', subject: 'alice' } };
    const round1 = resultOf(await server.handle(request('tools/call', first, { caps }), alice));
    const retry = request('tools/call', { ...first, requestState: round1.requestState }, { caps });
    expect(errorOf(await server.handle(retry, { auth: { clientId: 'app', subject: 'bob' } }))).toEqual(
      FROZEN,
    );
    expect(errorOf(await server.handle(retry))).toEqual(FROZEN);
    expect(resultOf(await server.handle(retry, alice)).resultType).toBe('complete');
    expect(logger.lines.map((l) => l.message)).toEqual([
      'requestState rejected on tools/call: context',
      'requestState rejected on tools/call: context',
    ]);
  });

  it('rejects expired state', async () => {
    let now = Date.now();
    const { server, logger } = setup({ clock: () => now });
    const round1 = resultOf(await server.handle(request('tools/call', first, { caps })));
    now += 601_000;
    const retry = request('tools/call', { ...first, requestState: round1.requestState }, { caps });
    expect(errorOf(await server.handle(retry))).toEqual(FROZEN);
    expect(logger.lines[0]?.message).toBe('requestState rejected on tools/call: expired');
  });

  it('verifies inbound state even for handlers that never emit state', async () => {
    const server = new Server(
      { name: 's', version: '1' },
      {
        logger: recordingLogger(),
        requestState: sealed({ keys: [key] }),
        onCallTool: () => ({ content: [] }),
      },
    );
    expect(
      errorOf(await server.handle(request('tools/call', { name: 'x', requestState: 'forged' }))),
    ).toEqual(FROZEN);
    expect(resultOf(await server.handle(request('tools/call', { name: 'x' }))).resultType).toBe('complete');
  });

  it('leaves an InputRequiredResult without requestState untouched', async () => {
    const server = new Server(
      { name: 's', version: '1' },
      {
        requestState: sealed({ keys: [key] }),
        onCallTool: () => inputRequired({ inputRequests: { region: askRegion } }),
      },
    );
    const result = resultOf(await server.handle(request('tools/call', { name: 'x' }, { caps })));
    expect(result).not.toHaveProperty('requestState');
  });

  it('answers -32603 when sealing fails, and reports a custom envelope’s reason to the log only', async () => {
    const logger = recordingLogger();
    const server = new Server(
      { name: 's', version: '1' },
      {
        logger,
        requestState: {
          seal: () => {
            throw new Error('KMS unavailable');
          },
          open: async () => {
            throw Object.assign(new Error('nope'), { reason: 'kms-denied' });
          },
        },
        onCallTool: () => inputRequired({ requestState: 's' }),
      },
    );
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' })))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(errorOf(await server.handle(request('tools/call', { name: 'x', requestState: 't' })))).toEqual(
      FROZEN,
    );
    expect(logger.lines).toMatchObject([
      { level: 'error', message: expect.stringMatching(/^internal error on tools\/call/) },
      { level: 'warn', message: 'requestState rejected on tools/call: kms-denied' },
    ]);
  });

  it('never touches requestState-like members of other methods', async () => {
    const { server } = setup();
    const result = resultOf(await server.handle(request('tools/list', { requestState: 'x' })));
    expect(result.resultType).toBe('complete');
  });
});
