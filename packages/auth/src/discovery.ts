import type { FetchLike } from '@boomerang/protocol/transport';
import { OAuthError } from './errors.js';
import { requireSecure, requireSecureEndpoint } from './secure.js';

/** The `fetch` this package calls (the one type of `@boomerang/protocol/transport`). */
export type { FetchLike };

/** Protected Resource Metadata (RFC 9728 §2), the fields MCP uses; others are kept. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly [field: string]: unknown;
}

/** Authorization-server metadata (RFC 8414 §2 / OpenID Connect Discovery), the fields MCP uses. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  /** Absent on servers without an authorization-code grant (RFC 8414 §2); the interactive flow needs it. */
  readonly authorization_endpoint?: string;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly client_id_metadata_document_supported?: boolean;
  readonly authorization_response_iss_parameter_supported?: boolean;
  /** DPoP `alg` values the server accepts in proofs (RFC 9449 §5.1); present when it issues DPoP-bound tokens. */
  readonly dpop_signing_alg_values_supported?: readonly string[];
  readonly [field: string]: unknown;
}

/** Options of {@link discoverAuthorizationServer}. */
export interface AuthorizationServerDiscoveryOptions {
  /**
   * Require what the authorization-code grant needs: an `authorization_endpoint` and `S256` PKCE. Default true;
   * machine-to-machine grants (client credentials, JWT bearer) talk to the token endpoint only.
   */
  readonly authorizationCode?: boolean | undefined;
}

const JSON_ACCEPT = { accept: 'application/json' };

/** The MCP server URL as a resource identifier: no query, no fragment. */
export function resourceOf(url: URL | string): string {
  const copy = new URL(url);
  copy.search = '';
  copy.hash = '';
  return copy.href;
}

/**
 * True when the Protected Resource Metadata `resource` names the server at `serverUrl`: same origin (scheme and
 * host compared case-insensitively, as URLs), and the server's path equals the resource's path or lies below it
 * at a segment boundary (a root resource covers `/mcp`; `/mcp` does not cover `/mcp2`).
 */
export function resourceMatches(serverUrl: URL | string, resource: string): boolean {
  let expected: URL;
  try {
    expected = new URL(resource);
  } catch {
    return false;
  }
  const actual = new URL(serverUrl);
  if (expected.origin !== actual.origin || expected.search !== '' || expected.hash !== '') return false;
  const base = expected.pathname.endsWith('/') ? expected.pathname : `${expected.pathname}/`;
  const path = actual.pathname.endsWith('/') ? actual.pathname : `${actual.pathname}/`;
  return path.startsWith(base);
}

/**
 * Finds the Protected Resource Metadata of the MCP server at `serverUrl` (RFC 9728): the `resource_metadata` URL
 * from the 401 challenge when given, then `/.well-known/oauth-protected-resource/<path>` (when the server has a
 * path), then the root `/.well-known/oauth-protected-resource`. The first 2xx answer must be a valid document.
 *
 * Nothing is fetched from a place the server's answer chose freely: `serverUrl` must be `https` (or loopback
 * `http`), else `insecure`; a `resource_metadata` URL off the server's origin (another host, port or scheme: a
 * link-local metadata service, a plain-http URL) is skipped unfetched, noted in the error if nothing else answers;
 * and, like every discovery request of this package, no redirect to another origin is followed.
 */
export async function discoverProtectedResource(
  serverUrl: URL | string,
  fetch: FetchLike,
  resourceMetadataUrl?: string,
): Promise<{ url: string; metadata: ProtectedResourceMetadata }> {
  const server = requireSecure(String(serverUrl), 'MCP server');
  const candidates: string[] = [];
  const tried: string[] = [];
  if (resourceMetadataUrl !== undefined) {
    const announced = URL.canParse(resourceMetadataUrl, server)
      ? new URL(resourceMetadataUrl, server)
      : undefined;
    if (announced?.origin === server.origin) candidates.push(announced.href);
    else tried.push(`${JSON.stringify(resourceMetadataUrl)} skipped: not on the server's origin`);
  }
  const path = server.pathname.replace(/\/$/, '');
  if (path !== '') candidates.push(`${server.origin}/.well-known/oauth-protected-resource${path}`);
  candidates.push(`${server.origin}/.well-known/oauth-protected-resource`);
  for (const url of new Set(candidates)) {
    const document = await getJson(url, fetch, tried);
    if (document === undefined) continue;
    const resource = document.resource;
    const servers = document.authorization_servers;
    if (
      typeof resource !== 'string' ||
      !Array.isArray(servers) ||
      servers.length === 0 ||
      !servers.every((s) => typeof s === 'string')
    ) {
      throw new OAuthError(
        'discovery',
        `${url} is not Protected Resource Metadata with "resource" and "authorization_servers"`,
      );
    }
    return { url, metadata: document as ProtectedResourceMetadata };
  }
  throw new OAuthError(
    'discovery',
    `no Protected Resource Metadata for ${server.href} (${tried.join('; ')})`,
  );
}

/**
 * The well-known URLs for `issuer`, in the order MCP requires: for `https://h/p`,
 * `/.well-known/oauth-authorization-server/p`, `/.well-known/openid-configuration/p`,
 * `/p/.well-known/openid-configuration`; for `https://h`, `/.well-known/oauth-authorization-server`, then
 * `/.well-known/openid-configuration`. A path issuer never falls back to the root documents.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      `${url.origin}/.well-known/oauth-authorization-server`,
      `${url.origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The endpoints of authorization server metadata that this package sends to; each must be secure. */
const ENDPOINTS = [
  ['authorization_endpoint', 'authorization endpoint'],
  ['token_endpoint', 'token endpoint'],
  ['registration_endpoint', 'registration endpoint'],
] as const;

/**
 * Fetches and validates the metadata of the authorization server `issuer` (RFC 8414 §3.3, OIDC Discovery §4.3):
 * `issuer` must be `https` (or loopback `http`: a server on this machine), else `insecure` before any request;
 * the first well-known URL that answers 2xx wins; its `issuer` must equal `issuer` exactly (else
 * `issuer-mismatch`: the metadata is not used), it must name a `token_endpoint` and, for the authorization-code
 * grant (the default), an `authorization_endpoint` and `S256` in `code_challenge_methods_supported` (else
 * `pkce-unsupported`). Every authorization, token and registration endpoint it names must be `https` (loopback
 * `http` only for a loopback issuer), else `insecure`: MCP requires HTTPS for every authorization server endpoint.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  fetch: FetchLike,
  options: AuthorizationServerDiscoveryOptions = {},
): Promise<AuthorizationServerMetadata> {
  const interactive = options.authorizationCode !== false;
  requireSecure(issuer, 'authorization server');
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const document = await getJson(url, fetch, tried);
    if (document === undefined) continue;
    if (document.issuer !== issuer) {
      throw new OAuthError(
        'issuer-mismatch',
        `metadata at ${url} names issuer ${JSON.stringify(document.issuer)}, expected ${JSON.stringify(issuer)}`,
      );
    }
    if (typeof document.token_endpoint !== 'string') {
      throw new OAuthError('discovery', `metadata at ${url} lacks token_endpoint`);
    }
    for (const [field, what] of ENDPOINTS) {
      if (document[field] !== undefined) requireSecureEndpoint(document[field], what, issuer);
    }
    if (!interactive) return document as AuthorizationServerMetadata;
    if (typeof document.authorization_endpoint !== 'string') {
      throw new OAuthError('discovery', `metadata at ${url} lacks authorization_endpoint`);
    }
    const methods = document.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes('S256')) {
      throw new OAuthError(
        'pkce-unsupported',
        `${issuer} does not list S256 in code_challenge_methods_supported`,
      );
    }
    return document as AuthorizationServerMetadata;
  }
  throw new OAuthError('discovery', `no authorization server metadata for ${issuer} (${tried.join('; ')})`);
}

/** Same-origin redirects followed per discovery request (a trailing-slash fix, a moved document). */
const MAX_REDIRECTS = 3;

/**
 * GETs a JSON object; `undefined` (and a note in `tried`) for a non-2xx answer or a network error. Redirects are
 * followed by hand, only within `url`'s origin: a redirect elsewhere (or one a browser keeps opaque) is a miss.
 */
async function getJson(
  url: string,
  fetch: FetchLike,
  tried: string[],
): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    try {
      response = await fetch(target, { method: 'GET', headers: JSON_ACCEPT, redirect: 'manual' });
    } catch (error) {
      tried.push(`${target.href}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const redirected =
      response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
    if (!redirected) break;
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    const next = location !== null && URL.canParse(location, target) ? new URL(location, target) : undefined;
    if (next?.origin !== target.origin || hop >= MAX_REDIRECTS) {
      tried.push(`${target.href}: redirect not followed (another origin, or too many)`);
      return undefined;
    }
    target = next;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    tried.push(`${target.href}: HTTP ${response.status}`);
    return undefined;
  }
  let document: unknown;
  try {
    document = await response.json();
  } catch (error) {
    throw new OAuthError('discovery', `${url} did not answer JSON`, { cause: error });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new OAuthError('discovery', `${url} did not answer a JSON object`);
  }
  return document as Record<string, unknown>;
}
