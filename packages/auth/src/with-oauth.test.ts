import { describe, expect, it } from 'vitest';
import { OAuthError } from './errors.js';
import { base64url } from './pkce.js';
import { AS, MCP, REDIRECT, requestsTo, world } from './test-support/world.js';

describe('withOAuth: the authorization-code flow', () => {
  it('runs PRM → AS metadata → DCR → PKCE authorize → token, then retries with the token', async () => {
    const w = world();
    const response = await w.call();
    expect(response.status).toBe(200);
    expect(w.net.requests).toEqual([
      `POST ${MCP}`,
      `GET https://mcp.example/.well-known/oauth-protected-resource/mcp`,
      `GET ${AS}/.well-known/oauth-authorization-server`,
      `POST ${AS}/register`,
      expect.stringMatching(/^GET https:\/\/as\.example\/authorize\?/),
      `POST ${AS}/token`,
      `POST ${MCP}`,
    ]);
    const [registration] = w.as.log.register;
    expect(registration).toMatchObject({
      redirect_uris: [REDIRECT],
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const query = w.as.log.authorize[0];
    expect(Object.fromEntries(query ?? [])).toMatchObject({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      resource: MCP,
    });
    expect(query?.get('state')).toMatch(/^[\w-]{43}$/);
    expect(query?.has('scope')).toBe(false);
    const token = w.as.log.token[0]?.body;
    expect(token?.get('grant_type')).toBe('authorization_code');
    expect(token?.get('resource')).toBe(MCP);
    expect(token?.get('client_id')).toBe('client-1');
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(token?.get('code_verifier') ?? ''),
    );
    expect(base64url(new Uint8Array(digest))).toBe(query?.get('code_challenge'));
    expect(w.rs.seen[0]).toMatchObject({ clientId: 'client-1', issuer: AS, subject: 'alice' });

    expect((await w.call()).status).toBe(200); // the token is reused: no new authorization
    expect(w.net.requests.slice(7)).toEqual([`POST ${MCP}`]);
  });

  it('var1: PRM path-based but not announced; AS metadata only at openid-configuration', async () => {
    const w = world({ metadataAt: 'oidc-insert' }, { announce: false });
    expect((await w.call()).status).toBe(200);
    expect(requestsTo(w.net.requests, '/.well-known/')).toEqual([
      'GET https://mcp.example/.well-known/oauth-protected-resource/mcp',
      `GET ${AS}/.well-known/oauth-authorization-server`,
      `GET ${AS}/.well-known/openid-configuration`,
    ]);
  });

  it('var2: PRM only at the root; a path issuer is discovered by insertion, never at the root', async () => {
    const w = world({ issuer: `${AS}/tenant1` }, { announce: false, prmAt: 'root' });
    expect((await w.call()).status).toBe(200);
    expect(requestsTo(w.net.requests, '/.well-known/')).toEqual([
      'GET https://mcp.example/.well-known/oauth-protected-resource/mcp',
      'GET https://mcp.example/.well-known/oauth-protected-resource',
      `GET ${AS}/.well-known/oauth-authorization-server/tenant1`,
    ]);
    expect(w.as.log.authorize[0]?.get('resource')).toBe('https://mcp.example'); // exactly as PRM published it
  });

  it('var3: PRM at a custom URL from the header; AS metadata appended to the issuer path', async () => {
    const w = world({ issuer: `${AS}/tenant1`, metadataAt: 'oidc-append' }, { prmAt: 'custom' });
    expect((await w.call()).status).toBe(200);
    expect(requestsTo(w.net.requests, 'GET https://')).toEqual([
      'GET https://mcp.example/custom/metadata/location.json',
      `GET ${AS}/.well-known/oauth-authorization-server/tenant1`,
      `GET ${AS}/.well-known/openid-configuration/tenant1`,
      `GET ${AS}/tenant1/.well-known/openid-configuration`,
      expect.stringContaining(`GET ${AS}/tenant1/authorize?`),
    ]);
  });
});

describe('withOAuth: client identity', () => {
  const CIMD = 'https://client.example/oauth/client.json';

  it('uses the Client ID Metadata Document URL when the AS supports it (no DCR)', async () => {
    const w = world({ cimd: true }, {}, { clientMetadataUrl: CIMD });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.register).toEqual([]);
    expect(w.as.log.authorize[0]?.get('client_id')).toBe(CIMD);
    expect(w.as.log.token[0]?.body.get('client_id')).toBe(CIMD);
  });

  it('falls back to DCR when the AS does not support CIMD', async () => {
    const w = world({ cimd: false }, {}, { clientMetadataUrl: CIMD, applicationType: 'web' });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.register[0]).toMatchObject({ application_type: 'web' });
  });

  it('uses pre-registered credentials for that issuer, with client_secret_basic', async () => {
    const preRegistered = {
      [AS]: { clientId: 'pre-registered-client', clientSecret: 'pre-registered-secret' },
    };
    const w = world({ registration: false, authMethods: ['client_secret_basic'] }, {}, { preRegistered });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.register).toEqual([]);
    const { body, authorization } = w.as.log.token[0] ?? {};
    expect(authorization).toBe(`Basic ${btoa('pre-registered-client:pre-registered-secret')}`);
    expect(body?.has('client_secret')).toBe(false);
  });

  it('fails with no-client-identity when nothing fits, before any authorization request', async () => {
    const w = world({ registration: false });
    await expect(w.call()).rejects.toMatchObject({ reason: 'no-client-identity' });
    expect(w.as.log.authorize).toEqual([]);
  });

  it.each([
    ['client_secret_basic', true, false],
    ['client_secret_post', false, true],
    ['none', false, false],
  ] as const)('authenticates at the token endpoint with %s', async (method, basic, secretInBody) => {
    const w = world({
      authMethods: [method],
      register: () => ({
        client_id: 'c1',
        ...(method !== 'none' && { client_secret: 's3cret' }),
        token_endpoint_auth_method: method,
      }),
    });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.register[0]).toMatchObject({ token_endpoint_auth_method: method });
    const { body, authorization } = w.as.log.token[0] ?? {};
    expect(authorization?.startsWith('Basic ') ?? false).toBe(basic);
    expect(body?.get('client_secret') === 's3cret').toBe(secretInBody);
    expect(body?.has('client_id')).toBe(!basic);
  });

  it('refuses an authorization server without PKCE S256', async () => {
    const w = world({ pkce: false });
    const failure = await w.call().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    expect(failure).toMatchObject({ reason: 'pkce-unsupported' });
    expect(w.as.log.authorize).toEqual([]);
  });

  it('refuses plain-http authorization servers and redirect URIs off loopback', async () => {
    const w = world({ issuer: 'http://as.example' });
    await expect(w.call()).rejects.toMatchObject({ reason: 'insecure' });
    expect(() => world({}, {}, { redirectUri: 'http://app.example/cb' })).toThrow(OAuthError);
  });
});
