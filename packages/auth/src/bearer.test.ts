import type { AuthInfo } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { bearerAuth, protectedResourceMetadata } from './bearer.js';
import { parseBearerChallenge, parseDpopChallenge } from './challenge.js';
import type { DpopProofClaims } from './dpop.js';
import { generateDpopKey } from './dpop-key.js';
import { dpopVerifier, rotatingDpopNonce } from './dpop-verifier.js';
import { sha256Base64url } from './pkce.js';

const PRM = 'https://mcp.example/.well-known/oauth-protected-resource/mcp';
const alice: AuthInfo = {
  clientId: 'c1',
  issuer: 'https://as.example',
  subject: 'alice',
  scopes: ['mcp:basic'],
};
const verify = (token: string) =>
  token === 'good' ? alice : token === 'old' ? { ...alice, expiresAt: 1 } : undefined;
const request = (authorization?: string, method = 'tools/list') =>
  new Request('https://mcp.example/mcp', {
    method: 'POST',
    headers: { 'mcp-method': method, ...(authorization !== undefined && { authorization }) },
  });

async function refused(outcome: AuthInfo | Response) {
  expect(outcome).toBeInstanceOf(Response);
  const response = outcome as Response;
  return {
    status: response.status,
    challenge: parseBearerChallenge(response.headers.get('www-authenticate')),
    body: await response.json(),
  };
}

describe('bearerAuth', () => {
  const authenticate = bearerAuth({ verify, resourceMetadata: PRM, requiredScopes: ['mcp:basic'] });

  it('answers 401 with resource_metadata and the scope when the token is missing or malformed', async () => {
    for (const header of [undefined, 'Basic abc', 'Bearer', 'Bearer a b', 'Bearer tok"en']) {
      const { status, challenge, body } = await refused(await authenticate(request(header)));
      expect(status).toBe(401);
      expect(challenge).toEqual({ resourceMetadata: PRM, scope: ['mcp:basic'] });
      expect(body.error).toBe('invalid_request');
    }
  });

  it('answers 401 invalid_token for an unknown or expired token, without echoing it', async () => {
    for (const token of ['forged', 'old']) {
      const response = (await authenticate(request(`Bearer ${token}`))) as Response;
      const text = JSON.stringify([...response.headers]) + (await response.clone().text());
      expect(text).not.toContain(token);
      const { status, challenge } = await refused(response);
      expect(status).toBe(401);
      expect(challenge).toMatchObject({ error: 'invalid_token', resourceMetadata: PRM });
    }
  });

  it('answers 403 insufficient_scope with the scopes the request needs', async () => {
    const perMethod = bearerAuth({
      verify,
      resourceMetadata: new URL(PRM),
      requiredScopes: (r) => (r.headers.get('mcp-method') === 'tools/call' ? ['mcp:basic', 'mcp:write'] : []),
    });
    expect(await perMethod(request('Bearer good'))).toEqual(alice);
    const { status, challenge } = await refused(await perMethod(request('Bearer good', 'tools/call')));
    expect(status).toBe(403);
    expect(challenge).toEqual({
      error: 'insufficient_scope',
      scope: ['mcp:basic', 'mcp:write'],
      resourceMetadata: PRM,
    });
  });

  it('lets hasScope model scope hierarchies', async () => {
    const admin = bearerAuth({
      verify: () => ({ ...alice, scopes: ['notes:admin'] }),
      resourceMetadata: PRM,
      requiredScopes: ['notes:read'],
      hasScope: (granted, needed) => granted.includes(needed) || granted.includes('notes:admin'),
    });
    expect(await admin(request('Bearer t'))).toMatchObject({ scopes: ['notes:admin'] });
  });

  it('returns the verified principal, which the HTTP handler passes on as ctx.auth', async () => {
    expect(await authenticate(request('bearer good'))).toEqual(alice);
  });

  it('rejects a missing verify at construction', () => {
    expect(() => bearerAuth({ resourceMetadata: PRM } as never)).toThrow(TypeError);
  });
});

describe('protectedResourceMetadata', () => {
  const document = {
    resource: 'https://mcp.example/mcp',
    authorization_servers: ['https://as.example'],
    scopes_supported: ['mcp:basic'],
  };
  const endpoint = protectedResourceMetadata(document);

  it('serves the document at the path-aware well-known URL', async () => {
    expect(endpoint.url).toBe(PRM);
    const response = await endpoint.handler(new Request(PRM));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual(document);
    expect((await endpoint.handler(new Request(PRM, { method: 'HEAD' }))).status).toBe(200);
    expect((await endpoint.handler(new Request(PRM, { method: 'POST' }))).status).toBe(405);
    expect((await endpoint.handler(new Request('https://mcp.example/other'))).status).toBe(404);
  });

  it('uses the root URL for a root resource and validates its input', () => {
    const root = protectedResourceMetadata({ ...document, resource: 'https://mcp.example' });
    expect(root.url).toBe('https://mcp.example/.well-known/oauth-protected-resource');
    expect(() => protectedResourceMetadata({ ...document, resource: 'https://h/mcp#x' })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ ...document, authorization_servers: [] })).toThrow(TypeError);
  });
});

describe('bearerAuth with DPoP', async () => {
  const key = await generateDpopKey();
  const bound: AuthInfo = { ...alice, extra: { cnf: { jkt: key.thumbprint } } };
  const verify = (token: string) =>
    token === 'b0und-t0ken' ? bound : token === 'pl4in-t0ken' ? alice : undefined;
  const URL_ = 'https://mcp.example/mcp';
  const dpopRequest = async (token: string, claims: Partial<DpopProofClaims> = {}, method = 'POST') =>
    new Request(URL_, {
      method,
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await key.sign({ htm: 'POST', htu: URL_, ath: await sha256Base64url(token), ...claims }),
      },
    });
  const headerOf = (outcome: AuthInfo | Response) => (outcome as Response).headers.get('www-authenticate');

  it('offers both schemes without a token (only DPoP when required)', async () => {
    const authenticate = bearerAuth({
      verify,
      resourceMetadata: PRM,
      dpop: dpopVerifier({ algorithms: ['ES256'] }),
    });
    const offered = headerOf(await authenticate(new Request(URL_, { method: 'POST' })));
    expect(offered).toBe(`DPoP algs="ES256", resource_metadata="${PRM}", Bearer resource_metadata="${PRM}"`);
    const strict = bearerAuth({ verify, resourceMetadata: PRM, dpop: dpopVerifier(), dpopRequired: true });
    const only = await strict(
      new Request(URL_, { method: 'POST', headers: { authorization: 'Bearer pl4in-t0ken' } }),
    );
    expect((only as Response).status).toBe(401);
    expect(parseBearerChallenge(headerOf(only))).toBeUndefined();
    expect(parseDpopChallenge(headerOf(only))).toEqual({
      algs: expect.arrayContaining(['ES256', 'EdDSA']),
      resourceMetadata: PRM,
    });
  });

  it('accepts a bound token with a fresh proof of its key, once', async () => {
    const authenticate = bearerAuth({ verify, resourceMetadata: PRM, dpop: dpopVerifier() });
    const request = await dpopRequest('b0und-t0ken');
    expect(await authenticate(request.clone())).toEqual(bound);
    const replayed = await authenticate(request);
    expect(parseDpopChallenge(headerOf(replayed))).toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('refuses wrong htm, htu or ath, a bound token as Bearer, and a plain token as DPoP', async () => {
    const authenticate = bearerAuth({ verify, resourceMetadata: PRM, dpop: dpopVerifier() });
    for (const request of [
      await dpopRequest('b0und-t0ken', { htm: 'GET' }),
      await dpopRequest('b0und-t0ken', { htu: 'https://mcp.example/other' }),
      await dpopRequest('b0und-t0ken', { ath: await sha256Base64url('another-token') }),
      new Request(URL_, { method: 'POST', headers: { authorization: 'DPoP b0und-t0ken' } }), // no proof
    ]) {
      const outcome = await authenticate(request);
      expect((outcome as Response).status).toBe(401);
      expect(parseDpopChallenge(headerOf(outcome))).toMatchObject({ error: 'invalid_dpop_proof' });
      expect(parseBearerChallenge(headerOf(outcome))?.error).toBeUndefined();
    }
    const asBearer = await authenticate(request('Bearer b0und-t0ken'));
    expect(parseBearerChallenge(headerOf(asBearer))).toMatchObject({ error: 'invalid_token' });
    const plainAsDpop = await authenticate(await dpopRequest('pl4in-t0ken'));
    expect(parseDpopChallenge(headerOf(plainAsDpop))).toMatchObject({ error: 'invalid_token' });
    const text = JSON.stringify([...(asBearer as Response).headers]) + (await (asBearer as Response).text());
    expect(text).not.toContain('b0und-t0ken');
    expect(await authenticate(request('Bearer pl4in-t0ken'))).toEqual(alice); // plain Bearer still works
  });

  it('refuses a bound token as Bearer even without DPoP support, and DPoP itself then', async () => {
    const plainOnly = bearerAuth({ verify, resourceMetadata: PRM });
    expect(((await plainOnly(request('Bearer b0und-t0ken'))) as Response).status).toBe(401);
    const asDpop = await plainOnly(await dpopRequest('b0und-t0ken'));
    expect(parseBearerChallenge(headerOf(asDpop))).toEqual({ resourceMetadata: PRM });
  });

  it('asks for its nonce with use_dpop_nonce and a DPoP-Nonce header, then accepts it', async () => {
    const nonce = rotatingDpopNonce();
    const authenticate = bearerAuth({ verify, resourceMetadata: PRM, dpop: dpopVerifier({ nonce }) });
    const first = (await authenticate(await dpopRequest('b0und-t0ken'))) as Response;
    expect(first.status).toBe(401);
    expect(parseDpopChallenge(headerOf(first))).toMatchObject({ error: 'use_dpop_nonce' });
    expect(first.headers.get('dpop-nonce')).toBe(nonce.current());
    expect(await authenticate(await dpopRequest('b0und-t0ken', { nonce: nonce.current() }))).toEqual(bound);
  });

  it('answers insufficient_scope on the DPoP challenge', async () => {
    const authenticate = bearerAuth({
      verify,
      resourceMetadata: PRM,
      dpop: dpopVerifier(),
      requiredScopes: ['mcp:admin'],
    });
    const outcome = (await authenticate(await dpopRequest('b0und-t0ken'))) as Response;
    expect(outcome.status).toBe(403);
    expect(parseDpopChallenge(headerOf(outcome))).toMatchObject({
      error: 'insufficient_scope',
      scope: ['mcp:admin'],
    });
  });

  it('rejects a malformed dpop option and dpopRequired without one', () => {
    expect(() => bearerAuth({ verify, resourceMetadata: PRM, dpopRequired: true })).toThrow(TypeError);
    expect(() => bearerAuth({ verify, resourceMetadata: PRM, dpop: {} as never })).toThrow(TypeError);
  });
});
