import { type AuthInfo, argumentError } from '@boomerang/protocol';
import { type BearerChallenge, formatBearerChallenge, formatDpopChallenge } from './challenge.js';

/**
 * Checks an access token and names its principal: `AuthInfo` for a valid token issued **for this server**
 * (audience checked, RFC 8707), `undefined` for any invalid, expired or foreign token. Throw only for an
 * operational failure (it becomes a 500). `jwtVerifier` from `@boomerang/auth/jwt` is one.
 */
export type TokenVerifier = (
  token: string,
  request: Request,
) => AuthInfo | undefined | Promise<AuthInfo | undefined>;

/**
 * Why a DPoP proof was refused; for logs (the client sees `invalid_dpop_proof`, or `use_dpop_nonce`). `window`: the
 * replay cache could not vouch for a proof that old (it was full and shortened the window, or the clock went back):
 * a proof signed now passes.
 */
export type DpopRejection =
  | 'missing'
  | 'multiple'
  | 'malformed'
  | 'algorithm'
  | 'signature'
  | 'key-mismatch'
  | 'htm'
  | 'htu'
  | 'iat'
  | 'ath'
  | 'nonce'
  | 'replay'
  | 'window';

/** The outcome of a DPoP proof check: the proof key's thumbprint, or why not (with the nonce to demand). */
export type DpopVerification =
  | { readonly valid: true; readonly jkt: string }
  | { readonly valid: false; readonly reason: DpopRejection; readonly nonce?: string };

/**
 * Checks the DPoP proof of a request (RFC 9449 §4.3). `dpopVerifier()` from `@boomerang/auth/jwt` is one.
 * `expected.accessToken` demands a matching `ath`; `expected.jkt` a proof signed by that key (the token's
 * `cnf.jkt`); `expected.origin` is the origin of the protected resource (`bearerAuth` passes its resource
 * metadata's), which `htu` must name unless the verifier was told its own. A valid proof is remembered: the same
 * proof is refused next time (`replay`).
 */
export interface DpopProofVerifier {
  /** Proof algorithms accepted, announced in the `DPoP algs="…"` challenge. */
  readonly algorithms: readonly string[];
  verify(
    request: Request,
    expected?: { readonly accessToken?: string; readonly jkt?: string; readonly origin?: string },
  ): Promise<DpopVerification>;
}

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** Validates a token; see {@link TokenVerifier}. */
  readonly verify: TokenVerifier;
  /** The Protected Resource Metadata URL announced in every challenge (`protectedResourceMetadata(...).url`). */
  readonly resourceMetadata: string | URL;
  /**
   * Scopes a request needs: a list, or a function of the request (e.g. of its `Mcp-Method` / `Mcp-Name`
   * headers, which the HTTP handler checks against the body afterwards). A token missing one gets 403
   * `insufficient_scope` naming them all. Default: none.
   */
  readonly requiredScopes?:
    | readonly string[]
    | ((request: Request) => readonly string[] | Promise<readonly string[]>)
    | undefined;
  /**
   * Whether the granted scopes satisfy one needed scope; override it for scope hierarchies (a broader scope
   * implying narrower ones, e.g. `notes:admin` ⊇ `notes:read`). Default: exact membership.
   */
  readonly hasScope?: ((granted: readonly string[], needed: string) => boolean) | undefined;
  /** The time in epoch milliseconds, to reject tokens past `expiresAt`; for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Accept DPoP-bound tokens (RFC 9449 §7): `Authorization: DPoP <token>` with a proof this verifier accepts,
   * signed by the key the token is bound to (`verify` reports it as `extra.cnf.jkt`, as `jwtVerifier` does).
   * Challenges then offer `DPoP algs="…"` beside `Bearer`. Default: Bearer only (and bound tokens are refused).
   */
  readonly dpop?: DpopProofVerifier | undefined;
  /** With `dpop`: refuse tokens that are not DPoP-bound, and offer only the DPoP challenge. Default false. */
  readonly dpopRequired?: boolean | undefined;
}

/**
 * The `authenticate` hook of `createHttpHandler` for an MCP server that is an OAuth 2.1 resource server:
 * - no `Authorization: Bearer` (or, with `dpop`, `DPoP`) token → 401 with `WWW-Authenticate: Bearer
 *   resource_metadata="…"` (and the required `scope`; with `dpop` a `DPoP algs="…"` challenge too), so clients
 *   discover the authorization server (RFC 9728 §5.1);
 * - a token `verify` rejects, or past its `expiresAt` → 401 with `error="invalid_token"`; so is a DPoP-bound
 *   token presented as Bearer (RFC 9449 §7.2), a plain one presented as DPoP, and with `dpopRequired` any
 *   plain one;
 * - a DPoP token whose proof fails → 401 `DPoP error="invalid_dpop_proof"`, or `error="use_dpop_nonce"` with a
 *   `DPoP-Nonce` header when the verifier wants its nonce;
 * - a token lacking a required scope → 403 with `error="insufficient_scope"` and the scopes the request needs;
 * - otherwise the verified principal, which the handler receives as `ctx.auth` (and sealed request state binds
 *   to its `clientId`, `issuer` and `subject`).
 * Tokens and proofs are read from the headers only (never the query string) and never echoed.
 */
export function bearerAuth(options: BearerAuthOptions): (request: Request) => Promise<AuthInfo | Response> {
  if (typeof options?.verify !== 'function') throw argumentError('verify', 'a function', options?.verify);
  const { dpop } = options;
  if (dpop !== undefined && (typeof dpop.verify !== 'function' || !Array.isArray(dpop.algorithms))) {
    throw argumentError('dpop', 'a DpopProofVerifier { algorithms, verify(request, expected) }', dpop);
  }
  if (options.dpopRequired === true && dpop === undefined) {
    throw new TypeError('"dpopRequired" needs a "dpop" verifier');
  }
  const resourceMetadata = new URL(options.resourceMetadata).href;
  // RFC 9728 §3.1: the metadata URL is the resource's own URL with the well-known path inserted, on its origin.
  const origin = new URL(resourceMetadata).origin;
  const now = options.now ?? Date.now;
  const hasScope = options.hasScope ?? ((granted, needed) => granted.includes(needed));
  const required = async (request: Request): Promise<readonly string[]> =>
    typeof options.requiredScopes === 'function'
      ? await options.requiredScopes(request)
      : (options.requiredScopes ?? []);
  const schemes: Scheme[] =
    dpop === undefined ? ['bearer'] : options.dpopRequired === true ? ['dpop'] : ['dpop', 'bearer'];
  const refuse = (
    status: 401 | 403,
    scheme: Scheme | undefined,
    params: { error?: string; scope: readonly string[]; nonce?: string },
    description: string,
  ): Response => {
    const challenges = schemes.map((offered) => {
      const challenge: BearerChallenge = {
        ...(params.error !== undefined &&
          (scheme === undefined || scheme === offered) && { error: params.error }),
        ...(params.scope.length > 0 && { scope: params.scope }),
        resourceMetadata,
      };
      return offered === 'dpop'
        ? formatDpopChallenge({ ...challenge, algs: dpop?.algorithms ?? [] })
        : formatBearerChallenge(challenge);
    });
    const body = { error: params.error ?? 'invalid_request', error_description: description };
    return new Response(JSON.stringify(body), {
      status,
      headers: {
        'content-type': 'application/json',
        'www-authenticate': challenges.join(', '),
        ...(params.nonce !== undefined && { 'dpop-nonce': params.nonce }),
      },
    });
  };

  return async (request) => {
    const header = request.headers.get('authorization');
    const match = header === null ? null : /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    const scheme = match?.[1]?.toLowerCase() as Scheme | undefined;
    const token = match?.[2];
    if (token === undefined || scheme === undefined || !schemes.includes(scheme)) {
      return refuse(401, undefined, { scope: await required(request) }, 'Authorization required');
    }
    const invalid = async (description: string) =>
      refuse(401, scheme, { error: 'invalid_token', scope: await required(request) }, description);
    const auth = await options.verify(token, request);
    if (auth === undefined || (auth.expiresAt !== undefined && auth.expiresAt * 1000 <= now())) {
      return invalid('The access token is invalid or expired');
    }
    const jkt = boundKey(auth);
    if (scheme === 'bearer' && jkt !== undefined) return invalid('A DPoP-bound token needs a DPoP proof');
    if (scheme === 'dpop') {
      if (jkt === undefined) return invalid('The access token is not DPoP-bound');
      const proof = await (dpop as DpopProofVerifier).verify(request, { accessToken: token, jkt, origin });
      if (!proof.valid) {
        const scope = await required(request);
        return proof.reason === 'nonce'
          ? refuse(
              401,
              scheme,
              { error: 'use_dpop_nonce', scope, ...(proof.nonce !== undefined && { nonce: proof.nonce }) },
              'A DPoP nonce is required',
            )
          : refuse(
              401,
              scheme,
              { error: 'invalid_dpop_proof', scope },
              DPOP_REFUSALS[proof.reason] ?? INVALID,
            );
      }
    }
    const needed = await required(request);
    const granted = auth.scopes ?? [];
    if (needed.some((scope) => !hasScope(granted, scope))) {
      return refuse(
        403,
        scheme,
        { error: 'insufficient_scope', scope: needed },
        `This request needs scope ${needed.join(' ')}`,
      );
    }
    return auth;
  };
}

type Scheme = 'bearer' | 'dpop';

const INVALID = 'The DPoP proof is invalid';

/** What a client can do about a refused proof, where it can do something (its reason stays in the logs). */
const DPOP_REFUSALS: Partial<Record<DpopRejection, string>> = {
  iat: 'The DPoP proof is too old or too far ahead: sign a new one (and check the clock)',
  window: 'The DPoP proof is older than this server can accept now: sign a new one',
  replay: 'The DPoP proof was used already: sign a new one for every request',
};

/** The DPoP key a token is bound to: `extra.cnf.jkt` of the principal (RFC 7800 / RFC 9449 §6). */
function boundKey(auth: AuthInfo): string | undefined {
  const cnf = auth.extra?.cnf;
  const jkt = typeof cnf === 'object' && cnf !== null && 'jkt' in cnf ? cnf.jkt : undefined;
  return typeof jkt === 'string' ? jkt : undefined;
}

/** The Protected Resource Metadata of an MCP server (RFC 9728 §2); snake_case as on the wire. */
export interface ProtectedResourceDocument {
  /** The MCP server's canonical URL, e.g. `https://mcp.example.com/mcp`. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers (at least one). */
  readonly authorization_servers: readonly string[];
  /** Scopes for basic use (not `offline_access`). */
  readonly scopes_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly bearer_methods_supported?: readonly string[];
  readonly [field: string]: unknown;
}

/** What {@link protectedResourceMetadata} returns. */
export interface ProtectedResourceEndpoint {
  /** Where the document is served: `/.well-known/oauth-protected-resource` + the resource's path. */
  readonly url: string;
  /** Serves the document on GET/HEAD at `url`'s path (CORS-open), 405 for other methods, 404 elsewhere. */
  readonly handler: (request: Request) => Promise<Response>;
}

/**
 * Serves the Protected Resource Metadata document at its path-aware well-known URL (RFC 9728 §3.1): for
 * resource `https://h/mcp`, `https://h/.well-known/oauth-protected-resource/mcp`. Route that path to
 * `handler`, and pass `url` to {@link bearerAuth} as `resourceMetadata`.
 */
export function protectedResourceMetadata(document: ProtectedResourceDocument): ProtectedResourceEndpoint {
  const resource = new URL(document.resource);
  if (resource.hash !== '' || resource.search !== '') {
    throw argumentError('resource', 'a URL without query or fragment', document.resource);
  }
  if (!Array.isArray(document.authorization_servers) || document.authorization_servers.length === 0) {
    throw argumentError('authorization_servers', 'at least one issuer', document.authorization_servers);
  }
  const path = `/.well-known/oauth-protected-resource${resource.pathname.replace(/\/$/, '')}`;
  const body = JSON.stringify(document);
  const headers = {
    'content-type': 'application/json',
    'cache-control': 'max-age=3600',
    'access-control-allow-origin': '*',
  };
  return {
    url: `${resource.origin}${path}`,
    handler: async (request) => {
      if (new URL(request.url).pathname !== path) return new Response('Not Found', { status: 404 });
      if (request.method === 'GET') return new Response(body, { headers });
      if (request.method === 'HEAD') return new Response(null, { headers });
      return new Response('Method Not Allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    },
  };
}
