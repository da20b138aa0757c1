import { inputRequired } from '@boomerang/protocol';
import { generateKey, SealError } from '@boomerang/seal';
import { describe, expect, it } from 'vitest';
import { type PrincipalBinder, type RequestStateBinding, sealed } from './sealed.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const key = generateKey();
const binding: RequestStateBinding = {
  method: 'tools/call',
  target: 'provision',
  arguments: { name: 'orders' },
  auth: { clientId: 'app', subject: 'alice', extra: { tenant: 't1' } },
};
const tenantOf: PrincipalBinder = (b) => b.auth?.extra?.tenant as string | undefined;

const reasonOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof SealError
      ? error.reason
      : `${(error as Error).name}: ${(error as Error).message}`;
  }
  return undefined;
};

describe('sealed({ bindPrincipal: function })', () => {
  it('binds the string the function returns, and nothing else of auth', () => {
    const envelope = sealed({ keys: [key], bindPrincipal: tenantOf });
    const token = envelope.seal('s', binding) as string;
    const sameTenant = { ...binding, auth: { subject: 'bob', extra: { tenant: 't1' } } };
    expect(envelope.open(token, sameTenant)).toBe('s');
    const otherTenant = { ...binding, auth: { ...binding.auth, extra: { tenant: 't2' } } };
    expect(reasonOf(() => envelope.open(token, otherTenant))).toBe('context');
    expect(reasonOf(() => envelope.open(token, { ...binding, auth: undefined }))).toBe('context');
  });

  it('treats undefined and null as "no principal", distinct from any string', () => {
    const envelope = sealed({ keys: [key], bindPrincipal: tenantOf });
    const anonymous = envelope.seal('s', { ...binding, auth: undefined }) as string;
    expect(envelope.open(anonymous, { ...binding, auth: { extra: { tenant: null } } })).toBe('s');
    expect(reasonOf(() => envelope.open(anonymous, binding))).toBe('context');
  });

  it('never collides with the default [clientId, issuer, subject] principal', () => {
    const byDefault = sealed({ keys: [key] });
    const custom = sealed({ keys: [key], bindPrincipal: () => '["app",null,"alice"]' });
    const token = byDefault.seal('s', binding) as string;
    expect(reasonOf(() => custom.open(token, binding))).toBe('context');
  });

  it('fails closed when the function throws or returns another type', () => {
    const throwing = sealed({
      keys: [key],
      bindPrincipal: () => {
        throw new Error('directory down');
      },
    });
    expect(reasonOf(() => throwing.seal('s', binding))).toBe('Error: directory down');
    const token = sealed({ keys: [key], bindPrincipal: tenantOf }).seal('s', binding) as string;
    expect(reasonOf(() => throwing.open(token, binding))).toBe('Error: directory down');
    const numeric = sealed({ keys: [key], bindPrincipal: (() => 42) as unknown as PrincipalBinder });
    expect(reasonOf(() => numeric.seal('s', binding))).toMatch(/^TypeError: "bindPrincipal" returned number/);
  });

  it('through a Server: a throwing binder is -32603 on the way out and the frozen -32602 on the way in', async () => {
    let fail = false;
    const logger = recordingLogger();
    const server = new Server(
      { name: 's', version: '1' },
      {
        logger,
        requestState: sealed({
          keys: [key],
          bindPrincipal: (b) => {
            if (fail) throw new Error('directory down');
            return b.auth?.subject;
          },
        }),
        onCallTool: (_params, ctx) =>
          ctx.requestState === 'r1' ? { content: [] } : inputRequired({ requestState: 'r1' }),
      },
    );
    const alice = { auth: { subject: 'alice' } };
    const round1 = resultOf(await server.handle(request('tools/call', { name: 'x' }), alice));
    const retry = request('tools/call', { name: 'x', requestState: round1.requestState });
    expect(resultOf(await server.handle(retry, alice)).resultType).toBe('complete');
    expect(errorOf(await server.handle(retry, { auth: { subject: 'bob' } })).code).toBe(-32602);
    fail = true;
    expect(errorOf(await server.handle(retry, alice))).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }), alice))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(logger.lines.map((l) => l.message)).toContain(
      'requestState rejected on tools/call: directory down',
    );
  });

  it('checks its type', () => {
    expect(() => sealed({ keys: [key], bindPrincipal: 'yes' as never })).toThrow(
      /"bindPrincipal" expected boolean or function/,
    );
  });
});

describe('sealed(): an AuthInfo without identity (a verifier returning only { token, scopes })', () => {
  const serve = () => {
    const logger = recordingLogger();
    const server = new Server(
      { name: 's', version: '1' },
      {
        logger,
        requestState: sealed({ keys: [key] }),
        onListTools: () => ({ tools: [] }),
        onCallTool: (_params, ctx) =>
          ctx.requestState === 'r1' ? { content: [] } : inputRequired({ requestState: 'r1' }),
      },
    );
    return { server, logger };
  };
  const alice = { auth: { token: 'alice-key', scopes: ['notes'] } };
  const mallory = { auth: { token: 'mallory-key', scopes: ['notes'] } };

  it("binds to the token: Alice's state does not open for Mallory", async () => {
    const { server, logger } = serve();
    const round1 = resultOf(await server.handle(request('tools/call', { name: 'x' }), alice));
    const retry = request('tools/call', { name: 'x', requestState: round1.requestState });
    expect(errorOf(await server.handle(retry, mallory))).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(resultOf(await server.handle(retry, alice)).resultType).toBe('complete');
    const warnings = logger.lines.filter((l) => l.message.startsWith('ctx.auth names no'));
    expect(warnings).toHaveLength(1); // once per server, however many requests
    expect(warnings[0]?.message).toMatch(/bound to the token itself/);
  });

  it('fails closed when the AuthInfo names neither an identity nor a token', async () => {
    const { server, logger } = serve();
    const nobody = { auth: { scopes: ['notes'] } };
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }), nobody))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    const minted = resultOf(await server.handle(request('tools/call', { name: 'x' }), alice));
    const retry = request('tools/call', { name: 'x', requestState: minted.requestState });
    expect(errorOf(await server.handle(retry, nobody)).code).toBe(-32602);
    expect(logger.lines.some((l) => /fails closed/.test(l.message))).toBe(true);
  });

  it('envelope level: the token binds, and nothing else of auth', () => {
    const envelope = sealed({ keys: [key] });
    const token = envelope.seal('s', { ...binding, auth: { token: 'k1' } }) as string;
    expect(envelope.open(token, { ...binding, auth: { token: 'k1', scopes: ['more'] } })).toBe('s');
    expect(reasonOf(() => envelope.open(token, { ...binding, auth: { token: 'k2' } }))).toBe('context');
    expect(reasonOf(() => envelope.seal('s', { ...binding, auth: {} }))).toMatch(
      /^TypeError: requestState cannot be bound/,
    );
  });
});
