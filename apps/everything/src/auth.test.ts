import { generateKeyPairSync } from 'node:crypto';
import type { FetchLike } from '@boomerang/auth';
import { describe, expect, it } from 'vitest';
import { CLIENT_METADATA_URL, machineGrantFor, oauthFetch, preRegisteredFrom, REDIRECT_URI } from './auth.js';

const MCP = 'http://localhost:8123/mcp';
const ISSUER = 'http://127.0.0.1:8124';

/** What the fake MCP server and authorization server saw. */
interface Seen {
  readonly authorizations: URL[];
  readonly tokenRequests: { authorization: string | null; body: URLSearchParams }[];
  readonly registrations: unknown[];
  /** The `DPoP` header of each token request (`null` without one). */
  readonly dpopProofs: (string | null)[];
}

/**
 * One protected MCP endpoint and its authorization server, in a fetch: 401 without `Bearer issued-token`, PRM
 * announced in the challenge, RFC 8414 metadata, an authorization endpoint that redirects at once, a token endpoint.
 */
function world(as: Record<string, unknown> = {}): { fetch: FetchLike; seen: Seen } {
  const seen: Seen = { authorizations: [], tokenRequests: [], registrations: [], dpopProofs: [] };
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    switch (`${init.method ?? 'GET'} ${url.origin}${url.pathname}`) {
      case `POST ${MCP}`:
        return headers.get('authorization') === 'Bearer issued-token'
          ? json({ ok: true })
          : new Response(null, {
              status: 401,
              headers: {
                'www-authenticate': `Bearer resource_metadata="http://localhost:8123/.well-known/oauth-protected-resource/mcp"`,
              },
            });
      case 'GET http://localhost:8123/.well-known/oauth-protected-resource/mcp':
        return json({ resource: MCP, authorization_servers: [ISSUER] });
      case `GET ${ISSUER}/.well-known/oauth-authorization-server`:
        return json({
          issuer: ISSUER,
          authorization_endpoint: `${ISSUER}/authorize`,
          token_endpoint: `${ISSUER}/token`,
          registration_endpoint: `${ISSUER}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
          ...as,
        });
      case `POST ${ISSUER}/register`:
        seen.registrations.push(JSON.parse(String(init.body)));
        return json({ client_id: 'registered-client', token_endpoint_auth_method: 'none' }, 201);
      case `GET ${ISSUER}/authorize`: {
        seen.authorizations.push(url);
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'the-code');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      case `POST ${ISSUER}/token`:
        seen.dpopProofs.push(headers.get('dpop'));
        seen.tokenRequests.push({
          authorization: headers.get('authorization'),
          body: new URLSearchParams(String(init.body)),
        });
        return json({ access_token: 'issued-token', token_type: 'Bearer', expires_in: 3600 });
      default:
        return new Response('not found', { status: 404 });
    }
  };
  return { fetch, seen };
}

const post = (fetch: FetchLike) =>
  fetch(new URL(MCP), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });

describe('preRegisteredFrom', () => {
  it('keys the context credentials by their issuer', () => {
    expect(
      preRegisteredFrom({
        name: 'auth/pre-registration',
        client_id: 'id',
        client_secret: 's',
        issuer: ISSUER,
      }),
    ).toEqual({ [ISSUER]: { clientId: 'id', clientSecret: 's' } });
    expect(preRegisteredFrom({ client_id: 'id', issuer: ISSUER })).toEqual({ [ISSUER]: { clientId: 'id' } });
  });

  it('is undefined without a client id and an issuer', () => {
    expect(preRegisteredFrom({})).toBeUndefined();
    expect(preRegisteredFrom({ client_id: 'id' })).toBeUndefined();
    expect(preRegisteredFrom({ issuer: ISSUER, client_id: 42 })).toBeUndefined();
    expect(preRegisteredFrom({ toolCalls: [] })).toBeUndefined();
  });
});

describe('oauthFetch', () => {
  it('signs in with the pre-registered credentials of the context (client_secret_basic), then retries', async () => {
    const { fetch, seen } = world({ registration_endpoint: undefined });
    const signed = await oauthFetch({ client_id: 'pre', client_secret: 'secret', issuer: ISSUER }, { fetch });
    const response = await post(signed);
    expect(response.status).toBe(200);
    expect(seen.registrations).toEqual([]);
    const [authorization] = seen.authorizations;
    expect(authorization?.searchParams.get('client_id')).toBe('pre');
    expect(authorization?.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(authorization?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization?.searchParams.get('resource')).toBe(MCP);
    const [token] = seen.tokenRequests;
    expect(token?.authorization).toBe(`Basic ${btoa('pre:secret')}`);
    expect(token?.body.get('code')).toBe('the-code');
    expect(token?.body.has('client_secret')).toBe(false);
  });

  it('uses the Client ID Metadata Document URL where the authorization server supports it', async () => {
    const { fetch, seen } = world({ client_id_metadata_document_supported: true });
    expect((await post(await oauthFetch({}, { fetch }))).status).toBe(200);
    expect(seen.registrations).toEqual([]);
    expect(seen.authorizations[0]?.searchParams.get('client_id')).toBe(CLIENT_METADATA_URL);
  });

  it('registers dynamically otherwise, as a native app with the loopback redirect URI', async () => {
    const { fetch, seen } = world({ token_endpoint_auth_methods_supported: ['none'] });
    const events: string[] = [];
    expect((await post(await oauthFetch({}, { fetch, onEvent: (event) => events.push(event) }))).status).toBe(
      200,
    );
    expect(seen.registrations).toEqual([
      expect.objectContaining({ redirect_uris: [REDIRECT_URI], application_type: 'native' }),
    ]);
    expect(seen.authorizations[0]?.searchParams.get('client_id')).toBe('registered-client');
    expect(events.length).toBeGreaterThan(0);
  });

  it('passes responses other than 401/403 through untouched (the non-auth scenarios)', async () => {
    const { fetch, seen } = world();
    const signed = await oauthFetch({}, { fetch });
    expect((await signed(new URL('http://localhost:8123/elsewhere'), { method: 'GET' })).status).toBe(404);
    expect(seen.authorizations).toEqual([]);
  });
});

describe('machineGrantFor (the extension scenarios)', () => {
  it('picks the grant each scenario tests, from its context', () => {
    const { privateKey: pem } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const cases = {
      'auth/client-credentials-basic': [{ client_id: 'c', client_secret: 's' }, 'client_credentials'],
      'auth/client-credentials-jwt': [
        { client_id: 'c', private_key_pem: pem, signing_algorithm: 'ES256' },
        'client_credentials',
      ],
      'auth/wif-jwt-bearer': [
        { client_id: 'w', valid_jwt: 'a.b.c' },
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
      'auth/enterprise-managed-authorization': [
        {
          client_id: 'c',
          client_secret: 's',
          idp_client_id: 'i',
          idp_id_token: 'a.b.c',
          idp_issuer: 'http://localhost:1',
          idp_token_endpoint: 'http://localhost:1/token',
        },
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
    } as const;
    for (const [scenario, [context, grantType]] of Object.entries(cases)) {
      expect(machineGrantFor(scenario, context, 'http://localhost:1')?.grantType).toBe(grantType);
    }
    expect(machineGrantFor('auth/dpop', {}, 'http://localhost:1')).toBeUndefined();
    expect(machineGrantFor(undefined, {}, 'http://localhost:1')).toBeUndefined();
  });

  it('names a missing context field, never a value', () => {
    expect(() =>
      machineGrantFor(
        'auth/client-credentials-basic',
        { client_id: 'c', client_secret: '' },
        'http://localhost:1',
      ),
    ).toThrow('MCP_CONFORMANCE_CONTEXT lacks "client_secret" for auth/client-credentials-basic');
  });

  it('signs in with DPoP-bound tokens in the auth/dpop scenarios', async () => {
    const { fetch, seen } = world({ dpop_signing_alg_values_supported: ['ES256'] });
    const signed = await oauthFetch({}, { fetch, scenario: 'auth/dpop' });
    await post(signed);
    expect(seen.tokenRequests).toHaveLength(1);
    const plain = world();
    await post(await oauthFetch({}, { fetch: plain.fetch, scenario: 'auth/metadata-default' }));
    expect(plain.seen.dpopProofs).toEqual([null]);
    expect(seen.dpopProofs[0]).toMatch(/^eyJ/);
  });
});
