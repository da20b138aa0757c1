import type { AuthInfo } from '@boomerang/protocol';
import { inputRequired } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf, textOf } from './test-support/wire.js';
import type { McpServerOptions } from './types.js';

const FROZEN = { code: -32602, message: 'Invalid or expired requestState' };
const STATE = 'round-one-plaintext';

/** A server with a tool, a prompt and a template that each emit state `STATE` and complete when it comes back. */
function stateful(name = 'svc', options: McpServerOptions = {}) {
  const logger = recordingLogger();
  const mcp = new McpServer({ name, version: '1' }, { logger, ...options });
  const seen: (string | undefined)[] = [];
  const step = <T>(state: string | undefined, done: T) => {
    seen.push(state);
    return state === STATE ? done : inputRequired({ requestState: STATE });
  };
  mcp.tool('a', { input: z.object({ n: z.number().optional() }) }, (_args, _r, ctx) =>
    step(ctx.requestState, { content: [{ type: 'text' as const, text: 'done' }] }),
  );
  mcp.tool('b', {}, (_args, _r, ctx) => step(ctx.requestState, { content: [] }));
  mcp.tool('plain', {}, (_args, _r, ctx) => ({
    content: [{ type: 'text' as const, text: String(ctx.requestState) }],
  }));
  mcp.prompt('p', {}, (_args, _r, ctx) => step(ctx.requestState, { messages: [] }));
  mcp.resourceTemplate('x://{id}', {}, ({ id }, _r, ctx) =>
    step(ctx.requestState, { contents: [{ uri: `x://${id}`, text: id }] }),
  );
  return { mcp, logger, seen };
}

async function firstState(
  mcp: McpServer,
  params: Record<string, unknown>,
  auth?: AuthInfo,
  method = 'tools/call',
) {
  const result = resultOf(await mcp.handle(request(method, params), auth === undefined ? {} : { auth }));
  expect(result.resultType).toBe('input_required');
  return result.requestState as string;
}

const call = (mcp: McpServer, params: Record<string, unknown>, auth?: AuthInfo, method = 'tools/call') =>
  mcp.handle(request(method, params), auth === undefined ? {} : { auth });

describe('request state is sealed by default', () => {
  it('the client sees an opaque token; the handler sees plaintext on the retry', async () => {
    const { mcp, seen } = stateful();
    const token = await firstState(mcp, { name: 'a', arguments: { n: 1 } });
    expect(token).not.toContain(STATE);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const done = resultOf(await call(mcp, { name: 'a', arguments: { n: 1 }, requestState: token }));
    expect(textOf(done)).toBe('done');
    expect(seen).toEqual([undefined, STATE]);
  });

  it('on prompts/get and on templates too', async () => {
    const { mcp } = stateful();
    const p = await firstState(mcp, { name: 'p' }, undefined, 'prompts/get');
    expect(
      resultOf(await call(mcp, { name: 'p', requestState: p }, undefined, 'prompts/get')).messages,
    ).toEqual([]);
    const r = await firstState(mcp, { uri: 'x://1' }, undefined, 'resources/read');
    expect(
      resultOf(await call(mcp, { uri: 'x://1', requestState: r }, undefined, 'resources/read')).contents,
    ).toHaveLength(1);
    // bound to the URI: another URI of the same template does not open it
    expect(errorOf(await call(mcp, { uri: 'x://2', requestState: r }, undefined, 'resources/read'))).toEqual(
      FROZEN,
    );
  });

  it('tampered or foreign state is the one frozen error; the reason goes to the log only', async () => {
    const { mcp, logger } = stateful();
    const token = await firstState(mcp, { name: 'a' });
    const flipped = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
    for (const bad of [flipped, `${token}x`, STATE, '', token.slice(0, -4)]) {
      expect(errorOf(await call(mcp, { name: 'a', requestState: bad }))).toEqual(FROZEN);
    }
    expect(errorOf(await call(mcp, { name: 'a', requestState: 42 }))).toEqual(FROZEN);
    expect(
      logger.lines.map((l) => l.message).every((m) => m.startsWith('requestState rejected on tools/call: ')),
    ).toBe(true);
    expect(JSON.stringify(logger.lines)).not.toContain(token);
  });

  it('inbound state is verified even for a handler that never emits state', async () => {
    const { mcp } = stateful();
    expect(errorOf(await call(mcp, { name: 'plain', requestState: 'forged' }))).toEqual(FROZEN);
    expect(textOf(resultOf(await call(mcp, { name: 'plain' })))).toBe('undefined');
  });

  it.each<[string, Record<string, unknown>, string?]>([
    ['another tool', { name: 'b' }],
    ['other arguments', { name: 'a', arguments: { n: 2 } }],
    ['another method', { name: 'a' }, 'prompts/get'],
  ])('replay on %s is rejected', async (_what, params, method) => {
    const { mcp } = stateful();
    const token = await firstState(mcp, { name: 'a', arguments: { n: 1 } });
    expect(errorOf(await call(mcp, { ...params, requestState: token }, undefined, method))).toEqual(FROZEN);
  });

  it('replay by another principal is rejected (clientId/issuer/subject; scopes are not bound)', async () => {
    const { mcp } = stateful();
    const alice: AuthInfo = { clientId: 'app', issuer: 'https://as', subject: 'alice', scopes: ['read'] };
    const token = await firstState(mcp, { name: 'a' }, alice);
    for (const other of [{ ...alice, subject: 'bob' }, { ...alice, clientId: 'evil' }, undefined]) {
      expect(errorOf(await call(mcp, { name: 'a', requestState: token }, other))).toEqual(FROZEN);
    }
    const stepUp = { ...alice, scopes: ['read', 'write'] };
    expect(resultOf(await call(mcp, { name: 'a', requestState: token }, stepUp)).resultType).toBe('complete');
  });

  it('replay across audiences: same keys, different names are rejected; same keys and name (or audience) work', async () => {
    const keys = [generateKey()];
    const one = stateful('orders', { requestStateSecurity: { keys } });
    const other = stateful('billing', { requestStateSecurity: { keys } });
    const twin = stateful('orders', { requestStateSecurity: { keys } });
    const token = await firstState(one.mcp, { name: 'a' });
    expect(errorOf(await call(other.mcp, { name: 'a', requestState: token }))).toEqual(FROZEN);
    expect(other.logger.lines[0]?.message).toBe('requestState rejected on tools/call: audience');
    expect(resultOf(await call(twin.mcp, { name: 'a', requestState: token })).resultType).toBe('complete');
    const shared = { keys, audience: 'fleet' };
    const x = stateful('x', { requestStateSecurity: shared });
    const y = stateful('y', { requestStateSecurity: shared });
    const fleetToken = await firstState(x.mcp, { name: 'a' });
    expect(resultOf(await call(y.mcp, { name: 'a', requestState: fleetToken })).resultType).toBe('complete');
  });

  it('two default instances (per-instance random keys) reject each other’s state', async () => {
    const a = stateful();
    const b = stateful();
    const token = await firstState(a.mcp, { name: 'a' });
    expect(errorOf(await call(b.mcp, { name: 'a', requestState: token }))).toEqual(FROZEN);
    expect(b.logger.lines[0]?.message).toBe('requestState rejected on tools/call: unknown-key');
  });

  it('expires after ttlSeconds on the injected clock (each round is resealed)', async () => {
    let now = 1_900_000_000_000;
    const { mcp, logger } = stateful('svc', { requestStateSecurity: { ttlSeconds: 60, clock: () => now } });
    const token = await firstState(mcp, { name: 'a' });
    now += 59_000;
    expect(resultOf(await call(mcp, { name: 'a', requestState: token })).resultType).toBe('complete');
    now += 2_000;
    expect(errorOf(await call(mcp, { name: 'a', requestState: token }))).toEqual(FROZEN);
    expect(logger.lines.at(-1)?.message).toBe('requestState rejected on tools/call: expired');
  });

  it('state minted more than 60 s in the future (clock skew across a fleet) is rejected', async () => {
    const now = 1_900_000_000_000;
    const keys = [generateKey()];
    const ahead = stateful('svc', { requestStateSecurity: { keys, clock: () => now + 120_000 } });
    const slightlyAhead = stateful('svc', { requestStateSecurity: { keys, clock: () => now + 30_000 } });
    const here = stateful('svc', { requestStateSecurity: { keys, clock: () => now } });
    const far = await firstState(ahead.mcp, { name: 'a' });
    const near = await firstState(slightlyAhead.mcp, { name: 'a' });
    expect(errorOf(await call(here.mcp, { name: 'a', requestState: far }))).toEqual(FROZEN);
    expect(here.logger.lines[0]?.message).toBe('requestState rejected on tools/call: not-yet-valid');
    expect(resultOf(await call(here.mcp, { name: 'a', requestState: near })).resultType).toBe('complete');
  });

  it('rotates keys: [old] → [new, old] opens old state → [new] rejects it', async () => {
    const [oldKey, newKey] = [generateKey(), generateKey()];
    const before = stateful('svc', { requestStateSecurity: { keys: [oldKey] } });
    const during = stateful('svc', { requestStateSecurity: { keys: [newKey, oldKey] } });
    const after = stateful('svc', { requestStateSecurity: { keys: [newKey] } });
    const oldToken = await firstState(before.mcp, { name: 'a' });
    expect(resultOf(await call(during.mcp, { name: 'a', requestState: oldToken })).resultType).toBe(
      'complete',
    );
    const newToken = await firstState(during.mcp, { name: 'a' });
    expect(resultOf(await call(after.mcp, { name: 'a', requestState: newToken })).resultType).toBe(
      'complete',
    );
    expect(errorOf(await call(after.mcp, { name: 'a', requestState: oldToken }))).toEqual(FROZEN);
  });

  it('bindPrincipal: a function names the principal; one that throws fails closed', async () => {
    let fail = false;
    const tenant = (b: { auth: AuthInfo | undefined }) => {
      if (fail) throw new Error('directory down');
      return b.auth?.extra?.tenant as string | undefined;
    };
    const { mcp } = stateful('svc', { requestStateSecurity: { bindPrincipal: tenant } });
    const t1 = { subject: 'alice', extra: { tenant: 't1' } };
    const token = await firstState(mcp, { name: 'a' }, t1);
    expect(
      resultOf(
        await call(mcp, { name: 'a', requestState: token }, { subject: 'bob', extra: { tenant: 't1' } }),
      ).resultType,
    ).toBe('complete');
    expect(errorOf(await call(mcp, { name: 'a', requestState: token }, { extra: { tenant: 't2' } }))).toEqual(
      FROZEN,
    );
    fail = true;
    expect(errorOf(await call(mcp, { name: 'a', requestState: token }, t1))).toEqual(FROZEN);
    expect(errorOf(await call(mcp, { name: 'a' }, t1))).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('bindPrincipal: false lets another principal finish the round', async () => {
    const { mcp } = stateful('svc', { requestStateSecurity: { bindPrincipal: false } });
    const token = await firstState(mcp, { name: 'a' }, { subject: 'alice' });
    expect(resultOf(await call(mcp, { name: 'a', requestState: token }, { subject: 'bob' })).resultType).toBe(
      'complete',
    );
  });

  it('resolver state is sealed and bound like hand-built state', async () => {
    const mcp = new McpServer({ name: 'svc', version: '1' }, { logger: recordingLogger() });
    const who = resolver({}, () => elicit('Who?', z.object({ name: z.string() })));
    const ask = resolver({ uses: { who } }, () => elicit('Sure?', z.object({ ok: z.boolean() })));
    mcp.tool('r', { resolve: { ask } }, (_a, { ask: a }) => ({
      content: [{ type: 'text', text: String(a.ok) }],
    }));
    mcp.tool('s', { resolve: { ask } }, () => ({ content: [] }));
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'r' }, caps)));
    const [k1] = Object.keys(first.inputRequests as object);
    const round1 = { inputResponses: { [k1 as string]: { action: 'accept', content: { name: 'ada' } } } };
    const second = resultOf(await mcp.handle(request('tools/call', { name: 'r', ...round1 }, caps)));
    expect(second.requestState).toEqual(expect.any(String)); // the answer to "Who?" rides sealed
    expect(second.requestState).not.toContain('ada');
    const [k2] = Object.keys(second.inputRequests as object);
    const retry = {
      inputResponses: { [k2 as string]: { action: 'accept', content: { ok: true } } },
      requestState: second.requestState,
    };
    expect(textOf(resultOf(await mcp.handle(request('tools/call', { name: 'r', ...retry }, caps))))).toBe(
      'true',
    );
    expect(errorOf(await mcp.handle(request('tools/call', { name: 's', ...retry }, caps)))).toEqual(FROZEN);
  });
});

describe('requestStateSecurity options', () => {
  it('an explicit policy on a nameless server throws unless it sets an audience; the default does not', () => {
    expect(
      () => new McpServer({ name: '', version: '1' }, { requestStateSecurity: { keys: [generateKey()] } }),
    ).toThrow(/no name/);
    expect(() => new McpServer({ name: '', version: '1' }, { requestStateSecurity: {} })).toThrow(TypeError);
    expect(
      () => new McpServer({ name: '', version: '1' }, { requestStateSecurity: { audience: 'a' } }),
    ).not.toThrow();
    expect(() => new McpServer({ name: '', version: '1' })).not.toThrow();
  });

  it('rejects keys with codec, unknown members, short keys and bad TTLs', () => {
    const codec = {
      seal: (b: Uint8Array) => Buffer.from(b).toString('base64url'),
      unseal: (t: string) => Buffer.from(t, 'base64url'),
    };
    const make = (requestStateSecurity: unknown) =>
      new McpServer({ name: 's', version: '1' }, { requestStateSecurity: requestStateSecurity as never });
    expect(() => make({ keys: [generateKey()], codec })).toThrow(/not both/);
    expect(() => make({ key: generateKey() })).toThrow(/unknown "requestStateSecurity" option "key"/);
    expect(() => make({ keys: [new Uint8Array(16)] })).toThrow(RangeError);
    expect(() => make({ ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => make('on')).toThrow(TypeError);
  });

  it('a custom codec: claims are still enforced around it', async () => {
    const codec = {
      seal: (b: Uint8Array) => Buffer.from(b).toString('base64url'),
      unseal: (t: string) => new Uint8Array(Buffer.from(t, 'base64url')),
    };
    const { mcp } = stateful('svc', { requestStateSecurity: { codec } });
    const token = await firstState(mcp, { name: 'a' });
    expect(resultOf(await call(mcp, { name: 'a', requestState: token })).resultType).toBe('complete');
    expect(errorOf(await call(mcp, { name: 'b', requestState: token }))).toEqual(FROZEN);
  });
});
