import type { AuthInfo } from '@boomerang/protocol';
import { formatBearerChallenge } from './challenge.js';

/**
 * Checks an access token and names its principal: `AuthInfo` for a valid token issued **for this server**
 * (audience checked, RFC 8707), `undefined` for any invalid, expired or foreign token. Throw only for an
 * operational failure (it becomes a 500). `jwtVerifier` from `@boomerang/auth/jwt` is one.
 */
export type TokenVerifier = (
  token: string,
  request: Request,
) => AuthInfo | undefined | Promise<AuthInfo | undefined>;

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
}

/**
 * The `authenticate` hook of `createHttpHandler` for an MCP server that is an OAuth 2.1 resource server:
 * - no `Authorization: Bearer` token → 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (and the
 *   required `scope`), so clients discover the authorization server (RFC 9728 §5.1);
 * - a token `verify` rejects, or past its `expiresAt` → 401 with `error="invalid_token"`;
 * - a token lacking a required scope → 403 with `error="insufficient_scope"` and the scopes the request needs;
 * - otherwise the verified principal, which the handler receives as `ctx.auth` (and sealed request state binds
 *   to its `clientId`, `issuer` and `subject`).
 * Tokens are read from the header only (never the query string) and never echoed.
 */
export function bearerAuth(options: BearerAuthOptions): (request: Request) => Promise<AuthInfo | Response> {
  if (typeof options?.verify !== 'function') throw new TypeError('"verify" expected a function');
  const resourceMetadata = new URL(options.resourceMetadata).href;
  const now = options.now ?? Date.now;
  const hasScope = options.hasScope ?? ((granted, needed) => granted.includes(needed));
  const required = async (request: Request): Promise<readonly string[]> =>
    typeof options.requiredScopes === 'function'
      ? await options.requiredScopes(request)
      : (options.requiredScopes ?? []);

  return async (request) => {
    const header = request.headers.get('authorization');
    const match = header === null ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    const token = match?.[1];
    if (token === undefined) {
      return challenge(401, { resourceMetadata, scope: await required(request) }, 'Authorization required');
    }
    const auth = await options.verify(token, request);
    if (auth === undefined || (auth.expiresAt !== undefined && auth.expiresAt * 1000 <= now())) {
      return challenge(
        401,
        { error: 'invalid_token', resourceMetadata, scope: await required(request) },
        'The access token is invalid or expired',
      );
    }
    const needed = await required(request);
    const granted = auth.scopes ?? [];
    if (needed.some((scope) => !hasScope(granted, scope))) {
      return challenge(
        403,
        { error: 'insufficient_scope', resourceMetadata, scope: needed },
        `This request needs scope ${needed.join(' ')}`,
      );
    }
    return auth;
  };
}

function challenge(
  status: 401 | 403,
  params: { error?: string; resourceMetadata: string; scope: readonly string[] },
  description: string,
): Response {
  const header = formatBearerChallenge({
    ...(params.error !== undefined && { error: params.error }),
    ...(params.scope.length > 0 && { scope: params.scope }),
    resourceMetadata: params.resourceMetadata,
  });
  const body = { error: params.error ?? 'invalid_request', error_description: description };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'www-authenticate': header },
  });
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
    throw new TypeError(`"resource" expected a URL without query or fragment, got ${document.resource}`);
  }
  if (!Array.isArray(document.authorization_servers) || document.authorization_servers.length === 0) {
    throw new TypeError('"authorization_servers" expected at least one issuer');
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
