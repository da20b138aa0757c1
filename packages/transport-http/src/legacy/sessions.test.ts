// The session table's policy under pressure: per-principal quotas, who may end whose session to make room,
// and the bound on streams per session (2025-11-25 sessions, spoken by hand: web Requests, no sockets).
import type { AuthInfo } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import type { HttpHandlerOptions } from '../handler.js';
import { bodyOf } from '../test-support/fixture.js';
import {
  callTool,
  initializeRequest,
  legacyRequest,
  openSession,
  until,
  useLegacyHandlers,
} from './test-support/fixture.js';

const { setup } = useLegacyHandlers();

const users: Record<string, AuthInfo> = {
  alice: { subject: 'alice', token: 'a' },
  bob: { subject: 'bob', token: 'b' },
  mallory: { subject: 'mallory', token: 'm' },
};

/** A handler whose `authenticate` maps `Authorization: <user>` to that user, and no header to anonymous. */
function withUsers(legacy: HttpHandlerOptions['legacy']) {
  return setup({ legacy, authenticate: (request) => users[request.headers.get('authorization') ?? ''] });
}

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
const as = (user: string | undefined) => (user === undefined ? {} : { authorization: user });

/** The status of a ping on `session` as `user`: 200 while the session lives, 404 once it ended. */
async function alive(handler: (request: Request) => Promise<Response>, session: string, user?: string) {
  const response = await handler(legacyRequest('POST', ping, { session, headers: as(user) }));
  await response.text();
  return response.status;
}

async function tryOpen(handler: (request: Request) => Promise<Response>, user?: string) {
  const response = await handler(legacyRequest('POST', initializeRequest(), { headers: as(user) }));
  await response.text();
  return response.status;
}

describe('eviction that strangers cannot drive', () => {
  it('an anonymous flood never ends an authenticated principal’s idle session', async () => {
    const { handler } = withUsers({ maxSessions: 3 });
    const alice = await openSession(handler, undefined, as('alice'));
    for (let i = 0; i < 10; i++) expect(await tryOpen(handler)).toBe(200);
    expect(await alive(handler, alice, 'alice')).toBe(200);
  });

  it('one principal’s flood never ends another’s session: it ends its own beyond its quota', async () => {
    const { handler } = withUsers({ maxSessions: 4, maxSessionsPerPrincipal: 2 });
    const alice = await openSession(handler, undefined, as('alice'));
    const opened: string[] = [];
    for (let i = 0; i < 10; i++) opened.push(await openSession(handler, undefined, as('mallory')));
    expect(await alive(handler, alice, 'alice')).toBe(200);
    const living = [];
    for (const session of opened)
      if ((await alive(handler, session, 'mallory')) === 200) living.push(session);
    expect(living).toEqual(opened.slice(-2)); // the quota: her two most recent
  });

  it('a full table of other principals’ busy sessions refuses a newcomer (503) rather than ending theirs', async () => {
    const { handler, observed, release } = withUsers({ maxSessions: 2, maxSessionsPerPrincipal: 1 });
    const alice = await openSession(handler, undefined, as('alice'));
    const bob = await openSession(handler, undefined, as('bob'));
    expect(await tryOpen(handler, 'mallory')).toBe(503); // both are quiet, but neither is hers to end
    expect(await tryOpen(handler)).toBe(503);
    const busy = [
      handler(legacyRequest('POST', callTool('wait'), { session: alice, headers: as('alice') })),
      handler(legacyRequest('POST', callTool('wait'), { session: bob, headers: as('bob') })),
    ];
    await until(() => observed.waits.length === 2);
    expect(await tryOpen(handler, 'alice')).toBe(503); // at her quota, and her one session is busy
    release();
    await Promise.all(busy);
    expect(await alive(handler, alice, 'alice')).toBe(200);
    expect(await alive(handler, bob, 'bob')).toBe(200);
  });

  it('an authenticated principal is never locked out by anonymous sessions, busy or not', async () => {
    const { handler, observed, release } = withUsers({ maxSessions: 2 });
    const anonymous = [await openSession(handler), await openSession(handler)];
    const busy = anonymous.map((session) =>
      handler(legacyRequest('POST', callTool('wait'), { session })).then(bodyOf),
    );
    await until(() => observed.waits.length === 2);
    expect(await tryOpen(handler)).toBe(503); // anonymous newcomers never interrupt a request
    expect(await tryOpen(handler, 'alice')).toBe(200);
    const ended = await Promise.race(busy);
    expect(ended.error).toMatchObject({ code: -32603, message: 'Session ended' });
    release();
    await Promise.all(busy);
  });
});

describe('GET streams and the stream bound', () => {
  it('sessions that each hold a GET stream do not lock newcomers out', async () => {
    const { handler } = setup({ legacy: { maxSessions: 2 } });
    const first = await openSession(handler);
    const second = await openSession(handler);
    const streams = await Promise.all(
      [first, second].map((session) => handler(legacyRequest('GET', undefined, { session }))),
    );
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    expect(await tryOpen(handler)).toBe(200);
    expect(await alive(handler, first)).toBe(404); // the least recently active one made room
    expect(await alive(handler, second)).toBe(200);
    await streams[0]?.text(); // its stream ended with it
    await streams[1]?.body?.cancel();
  });

  it('refuses a request POST or a GET beyond maxStreamsPerSession with 429, and serves again once one ends', async () => {
    const { handler, observed, release } = setup({ legacy: { maxStreamsPerSession: 2 } });
    const session = await openSession(handler);
    const waits = [1, 2].map((id) =>
      handler(legacyRequest('POST', callTool('wait', `w${id}`), { session })).then(bodyOf),
    );
    await until(() => observed.waits.length === 2);
    const third = await handler(legacyRequest('POST', callTool('wait', 'w3'), { session }));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await bodyOf(third)).error.message).toMatch(/^Too Many Requests/);
    expect((await handler(legacyRequest('GET', undefined, { session }))).status).toBe(429);
    const note = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    };
    expect((await handler(legacyRequest('POST', note, { session }))).status).toBe(202); // not a stream
    release();
    await Promise.all(waits);
    expect(await alive(handler, session)).toBe(200);
  });

  it('rejects bad quota and stream settings at construction', () => {
    expect(() => setup({ legacy: { maxSessionsPerPrincipal: 0 } })).toThrow(RangeError);
    expect(() => setup({ legacy: { maxStreamsPerSession: 2.5 } })).toThrow(RangeError);
  });
});

describe('sessions of an AuthInfo without identity', () => {
  it("binds to the token: Mallory's token does not open Alice's session; no token at all gets no session", async () => {
    const errors: unknown[] = [];
    const keys: Record<string, AuthInfo> = {
      'alice-key': { token: 'alice-key', scopes: ['notes'] },
      'mallory-key': { token: 'mallory-key', scopes: ['notes'] },
      nobody: { scopes: ['notes'] },
    };
    const { handler } = setup({
      authenticate: (request) => keys[request.headers.get('authorization') ?? ''],
      onError: (error) => errors.push(error),
    });
    const session = await openSession(handler, undefined, as('alice-key'));
    expect(await alive(handler, session, 'mallory-key')).toBe(404);
    expect(await alive(handler, session, 'alice-key')).toBe(200);
    expect(await tryOpen(handler, 'nobody')).toBe(403);
    expect(errors).toHaveLength(1); // warned once
    expect(String(errors[0])).toMatch(/without clientId, issuer or subject/);
  });
});

describe('sessionIdPrefix', () => {
  it('starts every session id with the prefix (for routing by Mcp-Session-Id), the random part intact', async () => {
    const { handler } = setup({ legacy: { sessionIdPrefix: 'i2.' } });
    const first = await openSession(handler);
    const second = await openSession(handler);
    expect(first).toMatch(/^i2\.[0-9a-f]{48}$/);
    expect(second).not.toBe(first);
    expect(await alive(handler, first)).toBe(200);
  });

  it('refuses a prefix that cannot start a session id', () => {
    for (const bad of ['has space', 'x'.repeat(33), 'é', 7]) {
      expect(() => setup({ legacy: { sessionIdPrefix: bad as string } })).toThrow(
        new TypeError(
          `"legacy.sessionIdPrefix" expected at most 32 visible ASCII characters, got ${JSON.stringify(bad)}`,
        ),
      );
    }
  });
});
