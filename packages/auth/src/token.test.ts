import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { privateKeyJwt } from './client-assertion.js';
import type { AuthorizationServerMetadata } from './discovery.js';
import { OAuthError } from './errors.js';
import type { ClientCredentials } from './store.js';
import { network } from './test-support/mock.js';
import { requestToken } from './token.js';

const ISSUER = 'https://as.example';
const as: AuthorizationServerMetadata = { issuer: ISSUER, token_endpoint: `${ISSUER}/token` };
const grant = { grant_type: 'client_credentials', resource: 'https://mcp.example/mcp' };
const bearer = { access_token: 'at-1', token_type: 'Bearer', expires_in: 60, scope: 'a b' };

/** A token endpoint that records what it received and answers `answer` with `status`. */
function tokenEndpoint(answer: unknown = bearer, status = 200) {
  const seen: { body: URLSearchParams; authorization: string | null }[] = [];
  const net = network({
    [ISSUER]: async (request) => {
      seen.push({
        body: new URLSearchParams(await request.text()),
        authorization: request.headers.get('authorization'),
      });
      return new Response(JSON.stringify(answer), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { ...net, seen };
}

describe('requestToken: client authentication', () => {
  it('client_secret_basic: form-encoded id and secret in HTTP Basic, nothing secret in the body', async () => {
    const endpoint = tokenEndpoint();
    const client = {
      clientId: 'svc:1',
      clientSecret: 's3cr=t&',
      tokenEndpointAuthMethod: 'client_secret_basic' as const,
    };
    const got = await requestToken(as, client, grant, endpoint.fetch, { now: () => 1_000_000 });
    expect(got).toEqual({ accessToken: 'at-1', expiresAt: 1060, scope: ['a', 'b'] });
    const [{ body, authorization } = { body: new URLSearchParams(), authorization: null }] = endpoint.seen;
    expect(atob((authorization ?? '').replace(/^Basic /, ''))).toBe('svc%3A1:s3cr%3Dt%26');
    expect(Object.fromEntries(body)).toEqual(grant);
  });

  it('client_secret_post: both in the body', async () => {
    const endpoint = tokenEndpoint();
    const client = {
      clientId: 'svc',
      clientSecret: 'shh',
      tokenEndpointAuthMethod: 'client_secret_post' as const,
    };
    await requestToken(as, client, grant, endpoint.fetch);
    expect(endpoint.seen[0]?.authorization).toBeNull();
    expect(Object.fromEntries(endpoint.seen[0]?.body ?? [])).toEqual({
      ...grant,
      client_id: 'svc',
      client_secret: 'shh',
    });
  });

  it('private_key_jwt: a fresh RFC 7523 assertion for the issuer on every request', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const client: ClientCredentials = {
      clientId: 'svc',
      assertion: privateKeyJwt({ privateKey: pem, algorithm: 'ES256' }),
    };
    const endpoint = tokenEndpoint();
    await requestToken(as, client, grant, endpoint.fetch);
    await requestToken(as, client, grant, endpoint.fetch);
    const jtis = new Set<unknown>();
    for (const { body, authorization } of endpoint.seen) {
      expect(authorization).toBeNull();
      expect(body.get('client_id')).toBe('svc');
      expect(body.get('client_assertion_type')).toBe(
        'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      );
      expect(body.has('client_secret')).toBe(false);
      const { payload } = await jwtVerify(body.get('client_assertion') ?? '', publicKey, {
        audience: ISSUER,
      });
      expect(payload).toMatchObject({ iss: 'svc', sub: 'svc', aud: ISSUER });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
      jtis.add(payload.jti);
    }
    expect(jtis.size).toBe(2);
  });

  it('none: only client_id', async () => {
    const endpoint = tokenEndpoint();
    await requestToken(as, { clientId: 'public' }, grant, endpoint.fetch);
    expect(Object.fromEntries(endpoint.seen[0]?.body ?? [])).toEqual({ ...grant, client_id: 'public' });
  });
});

describe('requestToken: refusals', () => {
  it('refuses an http:// token endpoint before sending anything; loopback http is allowed', async () => {
    const endpoint = tokenEndpoint();
    const client = { clientId: 'svc', clientSecret: 'never-sent' };
    const insecure = { issuer: ISSUER, token_endpoint: 'http://as.example/token' };
    await expect(requestToken(insecure, client, grant, endpoint.fetch)).rejects.toMatchObject({
      reason: 'insecure',
      message: expect.not.stringContaining('never-sent'),
    });
    expect(endpoint.requests).toEqual([]);
    const loopback = network({ 'http://127.0.0.1:8080': () => Response.json(bearer) });
    const local = { issuer: 'http://127.0.0.1:8080', token_endpoint: 'http://127.0.0.1:8080/token' };
    await expect(requestToken(local, client, grant, loopback.fetch)).resolves.toMatchObject({
      accessToken: 'at-1',
    });
  });

  it('refuses a loopback http token endpoint named by a remote (https) issuer', async () => {
    const loopback = network({ 'http://127.0.0.1:8080': () => Response.json(bearer) });
    const downgrade = { issuer: ISSUER, token_endpoint: 'http://127.0.0.1:8080/token' };
    const client = { clientId: 'svc', clientSecret: 'never-sent' };
    await expect(requestToken(downgrade, client, grant, loopback.fetch)).rejects.toMatchObject({
      reason: 'insecure',
    });
    expect(loopback.requests).toEqual([]);
  });

  it('never follows a redirect from the token endpoint (it would re-send the grant unchecked)', async () => {
    const seen: RequestInit[] = [];
    const fetch = async (_input: URL, init: RequestInit) => {
      seen.push(init);
      return Response.json(bearer);
    };
    await requestToken(as, { clientId: 'svc', clientSecret: 's' }, grant, fetch);
    expect(seen.map((init) => init.redirect)).toEqual(['error']);
  });

  it('names the status and the OAuth error code, never the secret or the description', async () => {
    const endpoint = tokenEndpoint(
      { error: 'invalid_client', error_description: 'secret s3cret is wrong' },
      401,
    );
    const error = await requestToken(
      as,
      { clientId: 'svc', clientSecret: 's3cret' },
      grant,
      endpoint.fetch,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).message).toBe(
      'https://as.example/token refused the client_credentials grant: HTTP 401 (invalid_client)',
    );
  });

  it('refuses answers without an access token, of another token type, or not JSON', async () => {
    for (const [answer, message] of [
      [{ token_type: 'Bearer' }, /without an access token/],
      [{ access_token: 'x', token_type: 'mac' }, /of type mac, not Bearer/],
      ['not an object', /HTTP 200/],
    ] as const) {
      await expect(requestToken(as, { clientId: 'c' }, grant, tokenEndpoint(answer).fetch)).rejects.toThrow(
        message,
      );
    }
  });

  it('wraps a failing assertion signer without showing its cause in the message', async () => {
    const client: ClientCredentials = {
      clientId: 'svc',
      assertion: async () => {
        throw new Error('HSM unavailable: key material abc');
      },
    };
    const error = (await requestToken(as, client, grant, tokenEndpoint().fetch).catch(
      (e: unknown) => e,
    )) as OAuthError;
    expect(error.reason).toBe('token');
    expect(error.message).toBe('could not sign a client assertion for https://as.example');
  });
});
