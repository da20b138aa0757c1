import { describe, expect, it } from 'vitest';
import { memoryStore } from './store.js';
import { mockAuthorizationServer } from './test-support/mock.js';
import { AS, MCP, requestsTo, world } from './test-support/world.js';

const scopeOf = (q: URLSearchParams | undefined) => q?.get('scope') ?? null;

describe('withOAuth: refusals before any authorization request', () => {
  it('aborts when PRM describes another resource', async () => {
    const w = world({}, { prmResource: 'https://evil.example/mcp' });
    await expect(w.call()).rejects.toMatchObject({ reason: 'resource-mismatch' });
    expect(requestsTo(w.net.requests, AS)).toEqual([]); // not even the AS metadata
  });

  it('rejects AS metadata whose issuer differs from the one the URL was built from', async () => {
    const w = world({ metadataIssuer: 'https://attacker.example' });
    await expect(w.call()).rejects.toMatchObject({ reason: 'issuer-mismatch' });
    expect(w.as.log).toEqual({ authorize: [], token: [], register: [] });
  });

  it('refuses http:// registration and token endpoints in https metadata before sending to them', async () => {
    const register = world({ endpoints: { registration: 'http://as.example/register' } });
    await expect(register.call()).rejects.toMatchObject({ reason: 'insecure' });
    expect(register.net.requests.some((r) => r.includes('/register'))).toBe(false);
    const token = world({ endpoints: { token: 'http://as.example/token' } });
    await expect(token.call()).rejects.toMatchObject({ reason: 'insecure' });
    expect(token.net.requests.some((r) => r.includes('/token'))).toBe(false);
    expect(token.as.log.authorize).toEqual([]); // the metadata is refused before any authorization request
  });

  it('refuses an http:// authorization endpoint: the user is never sent there', async () => {
    const redirects: URL[] = [];
    const w = world(
      { endpoints: { authorization: 'http://as.example/authorize' } },
      {},
      {
        authorize: async (url) => {
          redirects.push(url);
          throw new Error('unreachable');
        },
      },
    );
    await expect(w.call()).rejects.toMatchObject({ reason: 'insecure' });
    expect(redirects).toEqual([]);
    expect(w.as.log).toEqual({ authorize: [], token: [], register: [] });
  });
});

describe('withOAuth: RFC 9207 iss in the authorization response', () => {
  it.each([
    [true, 'correct', undefined],
    [undefined, 'omit', undefined],
    [false, 'correct', undefined],
    [true, 'omit', 'iss-missing'],
    [true, 'wrong', 'iss-mismatch'],
    [undefined, 'wrong', 'iss-mismatch'],
    [true, 'normalized', 'iss-mismatch'], // issuer + "/" is a mismatch: no normalisation
  ] as const)('advertised=%s, iss %s → %s', async (advertised, send, reason) => {
    const w = world({ iss: { ...(advertised !== undefined && { advertised }), send } });
    if (reason === undefined) {
      expect((await w.call()).status).toBe(200);
    } else {
      await expect(w.call()).rejects.toMatchObject({ reason });
      expect(w.as.log.token).toEqual([]); // the code never reaches the token endpoint
    }
  });
});

describe('withOAuth: scopes', () => {
  it('asks exactly the scope of the WWW-Authenticate challenge', async () => {
    const w = world({}, { requiredScopes: () => ['mcp:basic'], scopesSupported: ['mcp:profile'] });
    expect((await w.call()).status).toBe(200);
    expect(scopeOf(w.as.log.authorize[0])).toBe('mcp:basic');
  });

  it('asks all of PRM scopes_supported when the challenge has none', async () => {
    const scopes = ['mcp:basic', 'mcp:read', 'mcp:write'];
    const w = world({}, { requiredScopes: () => scopes, scopesSupported: scopes, scopeInChallenge: false });
    expect((await w.call()).status).toBe(200);
    expect(scopeOf(w.as.log.authorize[0])).toBe('mcp:basic mcp:read mcp:write');
  });

  it('omits scope when neither is there', async () => {
    const w = world();
    expect((await w.call()).status).toBe(200);
    expect(scopeOf(w.as.log.authorize[0])).toBeNull();
  });

  it('adds offline_access only when the AS lists it', async () => {
    const listed = world(
      { scopesSupported: ['mcp:basic', 'offline_access'] },
      { requiredScopes: () => ['mcp:basic'] },
    );
    await listed.call();
    expect(scopeOf(listed.as.log.authorize[0])).toBe('mcp:basic offline_access');
    const unlisted = world({ scopesSupported: ['mcp:basic'] }, { requiredScopes: () => ['mcp:basic'] });
    await unlisted.call();
    expect(scopeOf(unlisted.as.log.authorize[0])).toBe('mcp:basic');
  });

  it('steps up on 403 insufficient_scope with the union of old and new scopes', async () => {
    const needs = (request: Request) =>
      request.headers.get('mcp-method') === 'tools/call' ? ['mcp:write'] : ['mcp:basic'];
    const w = world({}, { requiredScopes: needs });
    expect((await w.call()).status).toBe(200);
    expect((await w.call('{}', { 'mcp-method': 'tools/call' })).status).toBe(200);
    expect(w.as.log.authorize.map(scopeOf)).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    expect((await w.call()).status).toBe(200); // the stepped-up token still serves the basic call
    expect(w.as.log.authorize).toHaveLength(2);
  });

  it('gives up after 3 authorizations when the server keeps refusing', async () => {
    let n = 0;
    const w = world({}, { requiredScopes: () => [`mcp:never-${n++}`] });
    await expect(w.call()).rejects.toMatchObject({ reason: 'retry-limit' });
    expect(w.as.log.authorize).toHaveLength(3);
  });

  it('passes other statuses through untouched (403 without insufficient_scope, 500)', async () => {
    const w = world();
    w.net.routes['https://mcp.example'] = () => new Response('no', { status: 403 });
    expect((await w.call()).status).toBe(403);
    w.net.routes['https://mcp.example'] = () => new Response('boom', { status: 500 });
    expect((await w.call()).status).toBe(500);
    expect(requestsTo(w.net.requests, 'well-known')).toEqual([]);
  });
});

describe('withOAuth: refresh', () => {
  it('refreshes an access token shortly before it expires, with the same resource', async () => {
    let clock = 1_000_000_000_000;
    const w = world({ expiresIn: 60 }, {}, { now: () => clock });
    await w.call();
    clock += 45_000; // within the 30 s margin
    expect((await w.call()).status).toBe(200);
    const refresh = w.as.log.token[1]?.body;
    expect(refresh?.get('grant_type')).toBe('refresh_token');
    expect(refresh?.get('refresh_token')).toBe('rt-2');
    expect(refresh?.get('resource')).toBe(MCP);
    expect(w.as.log.authorize).toHaveLength(1);
  });

  it('authorizes again when a token without a refresh token expires', async () => {
    let now = 1_000_000_000_000;
    const w = world({ expiresIn: 60, refresh: false }, {}, { now: () => now });
    expect((await w.call()).status).toBe(200);
    now += 120_000;
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.authorize).toHaveLength(2);
  });

  it('refreshes on a 401 for a revoked token, and authorizes again when the refresh fails', async () => {
    const w = world();
    await w.call();
    w.as.tokens.clear(); // every access token revoked: the refresh token still works
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.token.map((t) => t.body.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    w.as.tokens.clear();
    await w.store.saveTokens(MCP, { ...(await w.store.getTokens(MCP))!, refreshToken: 'rt-unknown' });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.authorize).toHaveLength(2);
  });
});

describe('withOAuth: credentials are bound to their authorization server', () => {
  it('re-registers at a new AS and never presents the old client id or tokens there', async () => {
    const store = memoryStore();
    const as2 = mockAuthorizationServer({ issuer: 'https://as2.example' });
    let current = AS;
    const w = world(
      {
        register: () => ({ client_id: 'as1-client', client_secret: 'as1-secret' }),
        authMethods: ['client_secret_post'],
      },
      {
        authorizationServers: () => [current],
        tokens: () => (current === AS ? [w.as.tokens] : [as2.tokens]),
      },
      { store },
    );
    w.net.routes['https://as2.example'] = as2.handler;
    await w.call();
    current = as2.issuer; // PRM now names AS2; AS1 tokens are refused
    expect((await w.call()).status).toBe(200);
    expect(as2.log.register).toHaveLength(1);
    expect(as2.log.authorize[0]?.get('client_id')).toBe('client-1');
    expect(JSON.stringify(as2.log)).not.toMatch(/as1-client|as1-secret/);
    expect(w.as.log.token).toHaveLength(1); // no refresh attempted at the old AS
    expect(await store.getClient(AS)).toMatchObject({ clientId: 'as1-client' });
    expect(await store.getClient(as2.issuer)).toMatchObject({ clientId: 'client-1' });
    expect(await store.getTokens(MCP)).toMatchObject({ issuer: as2.issuer });
  });
});

describe('withOAuth: hygiene', () => {
  it('never puts a secret in events or error messages', async () => {
    const secret = 'client-secret-value';
    const w = world({
      authMethods: ['client_secret_post'],
      register: () => ({ client_id: 'c', client_secret: secret }),
    });
    await w.call();
    const failing = world({ iss: { advertised: true, send: 'wrong' } });
    const error = (await failing.call().catch((e: unknown) => e)) as Error;
    const text = [...w.events, ...failing.events, error.message, String(error)].join('\n');
    const secrets = [
      secret,
      ...w.as.tokens.keys(),
      'rt-',
      'code-',
      ...w.as.log.token.map((t) => t.body.get('code_verifier') ?? ''),
    ];
    for (const value of secrets) expect(text).not.toContain(value);
    expect(w.events.length).toBeGreaterThan(2);
  });

  it('a shared store carries the sign-in to another wrapper (e.g. the next run)', async () => {
    const store = memoryStore();
    const first = world({}, {}, { store });
    await first.call();
    const second = world({}, { tokens: () => [first.as.tokens] }, { store });
    expect((await second.call()).status).toBe(200);
    expect(second.net.requests).toEqual([`POST ${MCP}`]);
  });

  it('shares one authorization among concurrent requests', async () => {
    const w = world();
    const statuses = await Promise.all(Array.from({ length: 5 }, () => w.call().then((r) => r.status)));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(w.as.log.authorize).toHaveLength(1);
  });
});
