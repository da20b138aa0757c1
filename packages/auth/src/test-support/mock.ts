// An in-process OAuth world for the tests: a router standing in for the network, a configurable authorization
// server (metadata, DCR, authorize → 302, token with PKCE/auth-method checks) and a protected resource built on
// bearerAuth + protectedResourceMetadata. No sockets.
import type { AuthInfo } from '@boomerang/protocol';
import { bearerAuth } from '../bearer.js';
import { formatDpopChallenge } from '../challenge.js';
import type { FetchLike } from '../discovery.js';
import { base64url } from '../pkce.js';
import { checkProof } from './dpop-check.js';

type Handler = (request: Request) => Promise<Response> | Response;

/** Routes by origin; records every request as `METHOD url`. */
export function network(routes: Record<string, Handler>) {
  const requests: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${request.url}`);
    const handler = routes[new URL(request.url).origin];
    if (handler === undefined) throw new TypeError(`fetch failed: no route to ${request.url}`);
    return handler(request);
  };
  return { fetch, requests, routes };
}

export interface MockAsOptions {
  readonly issuer: string;
  /** Where metadata is served: RFC 8414 insertion (default), OIDC insertion, or OIDC appended. */
  readonly metadataAt?: 'oauth' | 'oidc-insert' | 'oidc-append';
  readonly metadataIssuer?: string;
  readonly iss?: {
    readonly advertised?: boolean;
    readonly send: 'correct' | 'omit' | 'wrong' | 'normalized';
  };
  readonly authMethods?: readonly string[];
  readonly cimd?: boolean;
  readonly registration?: boolean;
  readonly scopesSupported?: readonly string[];
  readonly grantTypes?: readonly string[];
  readonly pkce?: boolean;
  readonly register?: (body: Record<string, unknown>) => Record<string, unknown>;
  readonly expiresIn?: number;
  readonly refresh?: boolean;
  /** Whom the user signs in as. */
  readonly subject?: string;
  /** Endpoint URLs to publish instead of the issuer's own (e.g. an `http://` one, to be refused). */
  readonly endpoints?: {
    readonly authorization?: string;
    readonly token?: string;
    readonly registration?: string;
  };
  /**
   * DPoP at the token endpoint: proofs are checked (independently of the package) and bind the token; `nonce`
   * is required in them when set; `algs` are published (default ES256); `unadvertised` publishes none;
   * `alwaysDpop` answers `token_type: DPoP` even without a proof.
   */
  readonly dpop?: {
    readonly nonce?: string;
    readonly algs?: readonly string[];
    readonly unadvertised?: boolean;
    readonly alwaysDpop?: boolean;
  };
}

export interface IssuedToken extends AuthInfo {
  readonly resource: string | null;
}

/** A mock authorization server; `tokens` doubles as its introspection table. */
export function mockAuthorizationServer(options: MockAsOptions) {
  const issuer = new URL(options.issuer);
  const path = issuer.pathname.replace(/\/$/, '');
  const at = options.metadataAt ?? 'oauth';
  const metadataPath =
    at === 'oauth'
      ? `/.well-known/oauth-authorization-server${path}`
      : at === 'oidc-insert'
        ? `/.well-known/openid-configuration${path}`
        : `${path}/.well-known/openid-configuration`;
  const log = {
    authorize: [] as URLSearchParams[],
    token: [] as { body: URLSearchParams; authorization: string | null; dpop: string | null }[],
    register: [] as Record<string, unknown>[],
  };
  const tokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, IssuedToken>();
  const pending = new Map<string, { challenge: string; clientId: string; scope: string; resource: string }>();
  let counter = 0;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const issue = (clientId: string, scope: string, resource: string | null, jkt?: string) => {
    const token = `at-${++counter}.${options.subject ?? 'alice'}.${new URL(options.issuer).host}`;
    const info: IssuedToken = {
      clientId,
      issuer: options.issuer,
      subject: options.subject ?? 'alice',
      scopes: scope.split(' ').filter(Boolean),
      resource,
      ...(jkt !== undefined && { extra: { cnf: { jkt } } }),
    };
    tokens.set(token, info);
    const refresh = options.refresh === false ? undefined : `rt-${counter}`;
    if (refresh !== undefined) refreshTokens.set(refresh, info);
    return json({
      access_token: token,
      token_type: jkt !== undefined || options.dpop?.alwaysDpop ? 'DPoP' : 'Bearer',
      ...(options.expiresIn !== undefined && { expires_in: options.expiresIn }),
      ...(refresh !== undefined && { refresh_token: refresh }),
    });
  };

  const handler: Handler = async (request) => {
    const url = new URL(request.url);
    const base = `${issuer.origin}${path}`;
    if (request.method === 'GET' && url.pathname === metadataPath) {
      return json({
        issuer: options.metadataIssuer ?? options.issuer,
        authorization_endpoint: options.endpoints?.authorization ?? `${base}/authorize`,
        token_endpoint: options.endpoints?.token ?? `${base}/token`,
        ...(options.registration !== false && {
          registration_endpoint: options.endpoints?.registration ?? `${base}/register`,
        }),
        response_types_supported: ['code'],
        grant_types_supported: options.grantTypes ?? ['authorization_code', 'refresh_token'],
        ...(options.pkce !== false && { code_challenge_methods_supported: ['S256'] }),
        token_endpoint_auth_methods_supported: options.authMethods ?? ['none'],
        ...(options.iss?.advertised !== undefined && {
          authorization_response_iss_parameter_supported: options.iss.advertised,
        }),
        ...(options.scopesSupported !== undefined && { scopes_supported: options.scopesSupported }),
        ...(options.cimd !== undefined && { client_id_metadata_document_supported: options.cimd }),
        ...(options.dpop !== undefined &&
          !options.dpop.unadvertised && {
            dpop_signing_alg_values_supported: options.dpop.algs ?? ['ES256'],
          }),
      });
    }
    if (request.method === 'POST' && url.pathname === `${path}/register`) {
      const body = (await request.json()) as Record<string, unknown>;
      log.register.push(body);
      return json(options.register?.(body) ?? { client_id: `client-${log.register.length}` }, 201);
    }
    if (request.method === 'GET' && url.pathname === `${path}/authorize`) {
      const q = url.searchParams;
      log.authorize.push(q);
      const code = `code-${++counter}`;
      pending.set(code, {
        challenge: q.get('code_challenge') ?? '',
        clientId: q.get('client_id') ?? '',
        scope: q.get('scope') ?? '',
        resource: q.get('resource') ?? '',
      });
      const back = new URL(q.get('redirect_uri') ?? 'http://127.0.0.1/none');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      const send = options.iss?.send ?? 'correct';
      if (send !== 'omit') {
        const iss =
          send === 'correct'
            ? options.issuer
            : send === 'wrong'
              ? 'https://evil.example'
              : `${options.issuer}/`;
        back.searchParams.set('iss', iss);
      }
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (request.method === 'POST' && url.pathname === `${path}/token`) {
      const body = new URLSearchParams(await request.text());
      const proof = request.headers.get('dpop');
      log.token.push({ body, authorization: request.headers.get('authorization'), dpop: proof });
      let jkt: string | undefined;
      if (options.dpop !== undefined && proof !== null) {
        const checked = await checkProof(proof, {
          htm: 'POST',
          htu: `${base}/token`,
          ...(options.dpop.nonce !== undefined && { nonce: options.dpop.nonce }),
        });
        if (!checked.ok) {
          const nonce = options.dpop.nonce;
          return new Response(JSON.stringify({ error: checked.error }), {
            status: 400,
            headers: {
              'content-type': 'application/json',
              ...(nonce !== undefined && { 'dpop-nonce': nonce }),
            },
          });
        }
        jkt = checked.jkt;
      }
      if (body.get('grant_type') === 'refresh_token') {
        const previous = refreshTokens.get(body.get('refresh_token') ?? '');
        if (previous === undefined) return json({ error: 'invalid_grant' }, 400);
        refreshTokens.delete(body.get('refresh_token') ?? '');
        return issue(previous.clientId ?? '', (previous.scopes ?? []).join(' '), body.get('resource'), jkt);
      }
      const grant = pending.get(body.get('code') ?? '');
      pending.delete(body.get('code') ?? '');
      const digest = await crypto.subtle.digest(
        'SHA-256',
        new TextEncoder().encode(body.get('code_verifier') ?? ''),
      );
      if (grant === undefined || base64url(new Uint8Array(digest)) !== grant.challenge) {
        return json({ error: 'invalid_grant' }, 400);
      }
      if (body.get('resource') !== grant.resource) return json({ error: 'invalid_target' }, 400);
      return issue(grant.clientId, grant.scope, grant.resource, jkt);
    }
    return json({ error: 'not_found' }, 404);
  };
  return { handler, log, tokens, issuer: options.issuer };
}

export interface MockResourceOptions {
  /** The MCP endpoint, e.g. `https://mcp.example/mcp`. */
  readonly url: string;
  /** The authorization servers PRM names (read on every request, so a test can switch). */
  readonly authorizationServers: () => readonly string[];
  /** Where PRM lives: path-aware (default), root only, or a custom path announced in the header. */
  readonly prmAt?: 'path' | 'root' | 'custom';
  /** Announce `resource_metadata` in the challenge. Default true. */
  readonly announce?: boolean;
  readonly prmResource?: string;
  readonly scopesSupported?: readonly string[];
  /** Put the required scopes into 401 challenges. Default true. */
  readonly scopeInChallenge?: boolean;
  readonly requiredScopes?: (request: Request) => readonly string[];
  /** Token lookup: the issued-token tables of the authorization servers. */
  readonly tokens: () => readonly Map<string, IssuedToken>[];
  /**
   * Accept DPoP-bound tokens, checked independently of the package (`Authorization: DPoP` + a proof with `ath`,
   * the token's `cnf.jkt`, no replayed `jti`, `nonce` when set); challenge with `DPoP` instead of `Bearer`.
   */
  readonly dpop?: { readonly nonce?: string };
}

/** A protected resource: PRM endpoint + bearerAuth; the endpoint answers `{ ok: true, auth }` as JSON. */
export function mockResource(options: MockResourceOptions) {
  const url = new URL(options.url);
  const prmAt = options.prmAt ?? 'path';
  const prmPath =
    prmAt === 'path'
      ? `/.well-known/oauth-protected-resource${url.pathname}`
      : prmAt === 'root'
        ? '/.well-known/oauth-protected-resource'
        : '/custom/metadata/location.json';
  const resource = options.prmResource ?? (prmAt === 'root' ? url.origin : url.href);
  const prmUrl = `${url.origin}${prmPath}`;
  const seen: AuthInfo[] = [];
  const dpopSeen: { scheme: string; proof: string | null; jti?: string }[] = [];
  const lookup = (token: string) => {
    for (const table of options.tokens()) {
      const info = table.get(token);
      if (info !== undefined && info.resource !== null && sameResource(info.resource, resource)) return info;
    }
    return undefined;
  };
  const jktOf = (info: IssuedToken | undefined) => (info?.extra?.cnf as { jkt?: string } | undefined)?.jkt;
  /** The DPoP side of the resource: a refusal, the principal, or `undefined` to let bearerAuth decide. */
  const dpopGate = async (request: Request, dpop: { readonly nonce?: string }) => {
    const refuse = (error?: string, nonce?: string) =>
      new Response(null, {
        status: 401,
        headers: {
          'www-authenticate': formatDpopChallenge({
            ...(error !== undefined && { error }),
            algs: ['ES256'],
            resourceMetadata: prmUrl,
          }),
          ...(nonce !== undefined && { 'dpop-nonce': nonce }),
        },
      });
    const [scheme = '', token = ''] = (request.headers.get('authorization') ?? '').split(' ');
    const proof = request.headers.get('dpop');
    if (scheme === '') return refuse();
    const info = lookup(token);
    const jkt = jktOf(info);
    if (scheme.toLowerCase() !== 'dpop') return jkt === undefined ? undefined : refuse('invalid_token');
    if (info === undefined || jkt === undefined) return refuse('invalid_token');
    const htu = new URL(request.url);
    htu.search = '';
    const checked = await checkProof(proof, {
      htm: request.method,
      htu: htu.href,
      accessToken: token,
      ...(dpop.nonce !== undefined && { nonce: dpop.nonce }),
    });
    dpopSeen.push({ scheme, proof, ...(checked.ok && { jti: checked.jti }) });
    if (!checked.ok)
      return refuse(checked.error, checked.error === 'use_dpop_nonce' ? dpop.nonce : undefined);
    if (checked.jkt !== jkt) return refuse('invalid_dpop_proof');
    if (dpopSeen.filter((entry) => entry.jti === checked.jti).length > 1) return refuse('invalid_dpop_proof');
    return info;
  };
  const handler: Handler = async (request) => {
    const path = new URL(request.url).pathname;
    if (path === prmPath && request.method === 'GET') {
      const document = {
        resource,
        authorization_servers: options.authorizationServers(),
        ...(options.scopesSupported !== undefined && { scopes_supported: options.scopesSupported }),
      };
      return new Response(JSON.stringify(document), { headers: { 'content-type': 'application/json' } });
    }
    if (path !== url.pathname) return new Response('Not Found', { status: 404 });
    if (options.dpop !== undefined) {
      const outcome = await dpopGate(request, options.dpop);
      if (outcome instanceof Response) return outcome;
      if (outcome !== undefined) {
        seen.push(outcome);
        return new Response(JSON.stringify({ ok: true }), {
          headers: { 'content-type': 'application/json' },
        });
      }
    }
    const authenticate = bearerAuth({
      resourceMetadata: prmUrl,
      requiredScopes: options.requiredScopes ?? [],
      verify: lookup,
    });
    const outcome = await authenticate(request);
    if (outcome instanceof Response) {
      let header = outcome.headers.get('www-authenticate') ?? '';
      if (options.announce === false) header = header.replace(/,? ?resource_metadata="[^"]*"/, '');
      if (options.scopeInChallenge === false && outcome.status === 401)
        header = header.replace(/ ?scope="[^"]*",?/, '');
      return new Response(outcome.body, { status: outcome.status, headers: { 'www-authenticate': header } });
    }
    seen.push(outcome);
    return new Response(JSON.stringify({ ok: true, body: await request.text() }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { handler, seen, dpopSeen, prmUrl, resource };
}

function sameResource(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/** POSTs a JSON body through `fetch` and returns the status. */
export async function post(
  fetch: FetchLike,
  url: string,
  body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
) {
  return fetch(new URL(url), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}
