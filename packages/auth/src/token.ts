import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import type { DpopSession } from './dpop.js';
import { OAuthError } from './errors.js';
import { authMethodFor } from './registration.js';
import { requireSecureEndpoint } from './secure.js';
import type { ClientCredentials } from './store.js';

/** What a token endpoint answered (RFC 6749 §5.1), normalised. */
export interface TokenResponse {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch, from `expires_in`. */
  readonly expiresAt?: number;
  /** Granted scopes when the AS said so. */
  readonly scope?: readonly string[];
  /** `DPoP` for a token bound to the DPoP key (present it with a proof); absent or `Bearer` otherwise. */
  readonly tokenType?: 'Bearer' | 'DPoP';
}

/** Options of {@link requestToken}. */
export interface TokenRequestOptions {
  /** The time in epoch milliseconds, for `expiresAt`. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Send a DPoP proof (RFC 9449 §5) unless the server lists DPoP algorithms without the signer's; retry once
   * with the server's nonce on `use_dpop_nonce`. The answer may then be a `DPoP`-bound token.
   */
  readonly dpop?: DpopSession | undefined;
}

/** The `client_assertion_type` of RFC 7523 §2.2 client assertions. */
const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * POSTs a grant to the token endpoint of `as` with client authentication: `client_secret_basic` (HTTP Basic over
 * the form-encoded id and secret, RFC 6749 §2.3.1), `client_secret_post` (both in the body), `private_key_jwt`
 * (a fresh RFC 7523 assertion for the AS `issuer` in the body) or `none` (only `client_id`); no client
 * authentication at all when `client` is undefined (RFC 7523 §2.1 assertion grants allow that). The endpoint must
 * be `https` (or loopback `http`) before anything is sent. Accepts `token_type` `Bearer`, and `DPoP` when a proof
 * was sent (`options.dpop`). Errors carry the HTTP status and the OAuth `error` code, never a secret.
 */
export async function requestToken(
  as: TokenEndpoint,
  client: ClientCredentials | undefined,
  grant: Readonly<Record<string, string>>,
  fetch: FetchLike,
  options: TokenRequestOptions = {},
): Promise<TokenResponse> {
  const now = options.now ?? Date.now;
  const dpop = options.dpop !== undefined && dpopAccepted(as, options.dpop) ? options.dpop : undefined;
  const { endpoint, answer } = await postToTokenEndpoint(as, client, grant, fetch, dpop);
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new OAuthError(
      'token',
      `${endpoint.href} answered the ${grant.grant_type} grant without an access token`,
    );
  }
  const type = typeof answer.token_type === 'string' ? answer.token_type.toLowerCase() : undefined;
  if (type !== 'bearer' && !(type === 'dpop' && dpop !== undefined)) {
    const expected = dpop === undefined ? 'Bearer' : 'DPoP or Bearer';
    throw new OAuthError(
      'token',
      `${endpoint.href} issued a token of type ${String(answer.token_type)}, not ${expected}`,
    );
  }
  const expiresIn = answer.expires_in;
  const scope = typeof answer.scope === 'string' ? answer.scope.split(' ').filter(Boolean) : undefined;
  return {
    accessToken: answer.access_token,
    ...(typeof answer.refresh_token === 'string' && { refreshToken: answer.refresh_token }),
    ...(typeof expiresIn === 'number' &&
      expiresIn > 0 && { expiresAt: Math.floor(now() / 1000) + expiresIn }),
    ...(scope !== undefined && { scope }),
    ...(type === 'dpop' && { tokenType: 'DPoP' as const }),
  };
}

/** Whether `as` may get a proof from `session`: it lists no DPoP algorithms, or lists the signer's. */
function dpopAccepted(as: TokenEndpoint, session: DpopSession): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return !Array.isArray(algs) || algs.includes(session.signer.algorithm);
}

/** What a token request needs of a server's metadata: its `issuer` (assertion audience) and token endpoint. */
export type TokenEndpoint = Pick<
  AuthorizationServerMetadata,
  'issuer' | 'token_endpoint' | 'token_endpoint_auth_methods_supported' | 'dpop_signing_alg_values_supported'
>;

/**
 * The token endpoint exchange under {@link requestToken} and token exchange: checks the endpoint, authenticates
 * the client (none at all when `client` is undefined), POSTs the form (with a DPoP proof when `dpop` is given,
 * once more with the server's nonce after a `use_dpop_nonce` answer), and resolves to the JSON object of a 2xx
 * answer; any other answer rejects with `OAuthError('token')` naming the status and the OAuth `error` code.
 */
export async function postToTokenEndpoint(
  as: TokenEndpoint,
  client: ClientCredentials | undefined,
  grant: Readonly<Record<string, string>>,
  fetch: FetchLike,
  dpop?: DpopSession,
): Promise<{ endpoint: URL; answer: Record<string, unknown> }> {
  const endpoint = requireSecureEndpoint(as.token_endpoint, 'token endpoint', as.issuer);
  let response: Response;
  let answer: Record<string, unknown> | undefined;
  for (let attempt = 1; ; attempt++) {
    // Built afresh for each attempt: a new assertion `jti`, a new proof with the latest nonce.
    const { body, headers } = await authenticate(as, client, grant);
    if (dpop !== undefined) headers.dpop = await dpop.proof('POST', endpoint);
    try {
      // No redirects: a 307 would re-send the code, verifier or secret to a URL nobody checked.
      response = await fetch(endpoint, { method: 'POST', headers, body: body.toString(), redirect: 'error' });
    } catch (error) {
      throw new OAuthError('token', `could not reach ${endpoint.href}`, { cause: error });
    }
    const fresh = dpop?.learn(endpoint, response) ?? false;
    const parsed: unknown = await response.json().catch(() => undefined);
    answer =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : undefined;
    if (!(attempt === 1 && fresh && response.status === 400 && answer?.error === 'use_dpop_nonce')) break;
  }
  if (!response.ok || answer === undefined) {
    const code = typeof answer?.error === 'string' ? ` (${answer.error})` : '';
    throw new OAuthError(
      'token',
      `${endpoint.href} refused the ${grant.grant_type} grant: HTTP ${response.status}${code}`,
    );
  }
  return { endpoint, answer };
}

/** The form body and headers of one token request, with the client's authentication. */
async function authenticate(
  as: TokenEndpoint,
  client: ClientCredentials | undefined,
  grant: Readonly<Record<string, string>>,
): Promise<{ body: URLSearchParams; headers: Record<string, string> }> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (client === undefined) return { body, headers };
  const method = authMethodFor(client, as);
  if (method === 'client_secret_basic') {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`;
    headers.authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
    return { body, headers };
  }
  body.set('client_id', client.clientId);
  if (method === 'client_secret_post' && client.clientSecret !== undefined) {
    body.set('client_secret', client.clientSecret);
  } else if (method === 'private_key_jwt' && client.assertion !== undefined) {
    let assertion: string;
    try {
      assertion = await client.assertion({ clientId: client.clientId, audience: as.issuer });
    } catch (error) {
      throw new OAuthError('token', `could not sign a client assertion for ${as.issuer}`, { cause: error });
    }
    body.set('client_assertion_type', JWT_BEARER_ASSERTION);
    body.set('client_assertion', assertion);
  }
  return { body, headers };
}

/** `application/x-www-form-urlencoded` encoding of one value, as RFC 6749 §2.3.1 requires inside Basic. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
