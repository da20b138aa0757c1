import type { AuthInfo } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { bearerAuth, protectedResourceMetadata } from './bearer.js';
import { parseBearerChallenge } from './challenge.js';

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
