// Authorization servers for the machine-to-machine grants: a token endpoint that authenticates clients
// (client_secret_basic / _post, private_key_jwt), grants client_credentials and RFC 7523 jwt-bearer (workload
// tokens, ID-JAGs), and an enterprise identity provider that exchanges ID tokens for ID-JAGs (RFC 8693). Each
// verifies what it receives with jose, independently of the client code under test. No sockets.
import { decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { MachineGrant } from '../grants.js';
import { type MachineOAuthOptions, withOAuth } from '../with-oauth.js';
import { checkProof } from './dpop-check.js';
import { type IssuedToken, type MockResourceOptions, mockResource, network, post } from './mock.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

type Handler = (request: Request) => Promise<Response>;

/** A confidential client the server knows: a secret, or the public key of its assertions. */
export interface KnownClient {
  readonly secret?: string;
  readonly publicKey?: CryptoKey;
}

export interface MachineAsOptions {
  readonly issuer: string;
  readonly clients?: Readonly<Record<string, KnownClient>>;
  readonly authMethods?: readonly string[];
  readonly grantTypes?: readonly string[];
  /** Trusted signers of jwt-bearer assertions (workload tokens, ID-JAGs), by `iss`. */
  readonly assertionIssuers?: Readonly<Record<string, CryptoKey>>;
  readonly expiresIn?: number;
  /** Extra metadata fields (e.g. an `http://` token endpoint). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Scopes to refuse with `invalid_scope`. */
  readonly refuseScopes?: readonly string[];
  /** Check DPoP proofs at the token endpoint (independently of the package) and bind tokens to their key. */
  readonly dpop?: { readonly nonce?: string };
}

export interface TokenRequestLog {
  readonly body: URLSearchParams;
  readonly authorization: string | null;
  readonly dpop: string | null;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A token endpoint for machine grants; `tokens` doubles as the resource server's introspection table. */
export function machineAuthorizationServer(options: MachineAsOptions) {
  const log: TokenRequestLog[] = [];
  const tokens = new Map<string, IssuedToken>();
  const seenJtis = new Set<string>();
  let counter = 0;
  const metadata = {
    issuer: options.issuer,
    token_endpoint: `${options.issuer}/token`,
    grant_types_supported: options.grantTypes ?? ['client_credentials', JWT_BEARER],
    token_endpoint_auth_methods_supported: options.authMethods ?? [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ],
    ...(options.dpop !== undefined && { dpop_signing_alg_values_supported: ['ES256'] }),
    ...options.metadata,
  };

  /** The authenticated client id, `null` for no client authentication, or an error response. */
  const authenticate = async (request: Request, body: URLSearchParams): Promise<string | null | Response> => {
    const refuse = () => json({ error: 'invalid_client' }, 401);
    const basic = request.headers.get('authorization');
    if (basic?.startsWith('Basic ')) {
      const [id = '', secret = ''] = atob(basic.slice(6)).split(':').map(decodeURIComponent);
      return options.clients?.[id]?.secret === secret ? id : refuse();
    }
    const id = body.get('client_id');
    const assertion = body.get('client_assertion');
    if (assertion !== null) {
      if (body.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
        return refuse();
      const key = options.clients?.[id ?? '']?.publicKey;
      if (key === undefined) return refuse();
      try {
        const { payload } = await jwtVerify(assertion, key, { audience: options.issuer, issuer: id ?? '' });
        if (payload.sub !== id || typeof payload.jti !== 'string' || seenJtis.has(payload.jti))
          return refuse();
        seenJtis.add(payload.jti);
        return id;
      } catch {
        return refuse();
      }
    }
    if (body.has('client_secret'))
      return options.clients?.[id ?? '']?.secret === body.get('client_secret') ? id : refuse();
    return id === null ? null : options.clients?.[id] === undefined ? id : refuse(); // a public client id
  };

  const issue = (info: Omit<IssuedToken, 'issuer'>, jkt: string | undefined) => {
    const token = `m2m-${++counter}`;
    const cnf = jkt === undefined ? {} : { extra: { cnf: { jkt } } };
    tokens.set(token, { ...info, issuer: options.issuer, ...cnf });
    return json({
      access_token: token,
      token_type: jkt === undefined ? 'Bearer' : 'DPoP',
      ...(options.expiresIn !== undefined && { expires_in: options.expiresIn }),
      ...(info.scopes !== undefined && info.scopes.length > 0 && { scope: info.scopes.join(' ') }),
    });
  };

  const token: Handler = async (request) => {
    const body = new URLSearchParams(await request.text());
    const proof = request.headers.get('dpop');
    log.push({ body, authorization: request.headers.get('authorization'), dpop: proof });
    let jkt: string | undefined;
    if (options.dpop !== undefined && proof !== null) {
      const { nonce } = options.dpop;
      const checked = await checkProof(proof, {
        htm: 'POST',
        htu: `${options.issuer}/token`,
        ...(nonce !== undefined && { nonce }),
      });
      if (!checked.ok) {
        return json({ error: checked.error }, 400, nonce === undefined ? {} : { 'dpop-nonce': nonce });
      }
      jkt = checked.jkt;
    }
    const client = await authenticate(request, body);
    if (client instanceof Response) return client;
    const scopes = (body.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.some((scope) => options.refuseScopes?.includes(scope)))
      return json({ error: 'invalid_scope' }, 400);
    const resource = body.get('resource');
    if (body.get('grant_type') === 'client_credentials') {
      if (client === null || options.clients?.[client] === undefined)
        return json({ error: 'invalid_client' }, 401);
      return issue({ clientId: client, subject: client, scopes, resource }, jkt);
    }
    if (body.get('grant_type') === JWT_BEARER) {
      const assertion = body.get('assertion') ?? '';
      let payload: JWTPayload;
      try {
        const key = options.assertionIssuers?.[String(decodeJwt(assertion).iss)];
        if (key === undefined) return json({ error: 'invalid_grant' }, 400);
        ({ payload } = await jwtVerify(assertion, key, { audience: options.issuer }));
      } catch {
        return json({ error: 'invalid_grant' }, 400);
      }
      if (decodeProtectedHeader(assertion).typ === 'oauth-id-jag+jwt') {
        if (payload.client_id !== client) return json({ error: 'invalid_grant' }, 400);
        if (payload.resource !== resource) return json({ error: 'invalid_target' }, 400);
      }
      return issue(
        {
          ...(client !== null && { clientId: client }),
          subject: String(payload.sub),
          scopes,
          resource,
        },
        jkt,
      );
    }
    return json({ error: 'unsupported_grant_type' }, 400);
  };

  const handler: Handler = async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === '/.well-known/oauth-authorization-server')
      return json(metadata);
    if (request.method === 'POST' && pathname === '/token') return token(request);
    return json({ error: 'not_found' }, 404);
  };
  return { handler, log, tokens, issuer: options.issuer };
}

export interface IdentityProviderOptions {
  readonly issuer: string;
  /** Verifies the ID tokens it issued earlier. */
  readonly idTokenKey: CryptoKey;
  /** The audience of those ID tokens: this application's client id at the IdP. */
  readonly idTokenAudience: string;
  /** Signs ID-JAGs. */
  readonly jagKey: CryptoKey;
  /** The `client_id` the ID-JAG names (the application's client at the MCP authorization server). */
  readonly jagClientId: string;
  /** Answer a wrong `issued_token_type`. */
  readonly issuedTokenType?: string;
}

/** An enterprise IdP: discovery, and RFC 8693 token exchange of ID tokens for ID-JAGs. */
export function identityProvider(options: IdentityProviderOptions) {
  const log: URLSearchParams[] = [];
  const handler: Handler = async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === '/.well-known/openid-configuration') {
      return json({ issuer: options.issuer, token_endpoint: `${options.issuer}/oauth2/token` });
    }
    if (request.method !== 'POST' || pathname !== '/oauth2/token') return json({ error: 'not_found' }, 404);
    const body = new URLSearchParams(await request.text());
    log.push(body);
    if (body.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange')
      return json({ error: 'unsupported_grant_type' }, 400);
    if (
      body.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:id_token' ||
      body.get('requested_token_type') !== ID_JAG ||
      !body.get('audience') ||
      !body.get('resource')
    ) {
      return json({ error: 'invalid_request' }, 400);
    }
    let sub: string;
    try {
      const { payload } = await jwtVerify(body.get('subject_token') ?? '', options.idTokenKey, {
        issuer: options.issuer,
        audience: options.idTokenAudience,
      });
      sub = String(payload.sub);
    } catch {
      return json({ error: 'invalid_grant' }, 400);
    }
    const jag = await new SignJWT({ resource: body.get('resource'), client_id: options.jagClientId })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(options.issuer)
      .setSubject(sub)
      .setAudience(body.get('audience') ?? '')
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(crypto.randomUUID())
      .sign(options.jagKey);
    return json({
      access_token: jag,
      issued_token_type: options.issuedTokenType ?? ID_JAG,
      token_type: 'N_A',
    });
  };
  return { handler, log, issuer: options.issuer };
}

/** A signed JWT for tests: `claims` with `iss`, `aud`, `sub` and an expiry `expiresIn` seconds away. */
export function signJwt(
  key: CryptoKey,
  claims: { iss: string; aud: string; sub: string; expiresIn?: number; [claim: string]: unknown },
): Promise<string> {
  const { iss, aud, sub, expiresIn = 300, ...rest } = claims;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(rest)
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .setJti(crypto.randomUUID())
    .sign(key);
}

/** One MCP server behind bearerAuth (PRM, optional DPoP) and a machine authorization server, plus an IdP. */
export function machineServers(
  as: Partial<MachineAsOptions>,
  extra: {
    readonly rs?: Partial<MockResourceOptions>;
    readonly idp?: ReturnType<typeof identityProvider>;
  } = {},
) {
  const server = machineAuthorizationServer({ issuer: 'https://as.example', ...as });
  const resource = mockResource({
    url: 'https://mcp.example/mcp',
    authorizationServers: () => [server.issuer],
    tokens: () => [server.tokens],
    ...extra.rs,
  });
  const net = network({
    [new URL(server.issuer).origin]: server.handler,
    'https://mcp.example': resource.handler,
    ...(extra.idp !== undefined && { [new URL(extra.idp.issuer).origin]: extra.idp.handler }),
  });
  return { as: server, rs: resource, net };
}

/** {@link machineServers} and `withOAuth({ grant })` in front of them; `call()` POSTs to the MCP server. */
export function machineWorld(
  as: Partial<MachineAsOptions>,
  grant: MachineGrant,
  extra: {
    readonly rs?: Partial<MockResourceOptions>;
    readonly idp?: ReturnType<typeof identityProvider>;
    readonly oauth?: Partial<MachineOAuthOptions>;
  } = {},
) {
  const servers = machineServers(as, extra);
  const events: string[] = [];
  const fetch = withOAuth(servers.net.fetch, { grant, onEvent: (m) => events.push(m), ...extra.oauth });
  const call = () => post(fetch, 'https://mcp.example/mcp');
  return { ...servers, fetch, events, call };
}
