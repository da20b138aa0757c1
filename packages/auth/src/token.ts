import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import { OAuthError } from './errors.js';
import { authMethodFor } from './registration.js';
import { requireSecure } from './secure.js';
import type { ClientCredentials } from './store.js';

/** What a token endpoint answered (RFC 6749 §5.1), normalised. */
export interface TokenResponse {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Seconds since the epoch, from `expires_in`. */
  readonly expiresAt?: number;
  /** Granted scopes when the AS said so. */
  readonly scope?: readonly string[];
}

/** The `client_assertion_type` of RFC 7523 §2.2 client assertions. */
const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * POSTs a grant to the token endpoint of `as` with client authentication: `client_secret_basic` (HTTP Basic over
 * the form-encoded id and secret, RFC 6749 §2.3.1), `client_secret_post` (both in the body), `private_key_jwt`
 * (a fresh RFC 7523 assertion for the AS `issuer` in the body) or `none` (only `client_id`); no client
 * authentication at all when `client` is undefined (RFC 7523 §2.1 assertion grants allow that). The endpoint must
 * be `https` (or loopback `http`) before anything is sent. Accepts `token_type` `Bearer` only. Errors carry the
 * HTTP status and the OAuth `error` code, never a secret.
 */
export async function requestToken(
  as: TokenEndpoint,
  client: ClientCredentials | undefined,
  grant: Readonly<Record<string, string>>,
  fetch: FetchLike,
  now: () => number = Date.now,
): Promise<TokenResponse> {
  const { endpoint, answer } = await postToTokenEndpoint(as, client, grant, fetch);
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new OAuthError(
      'token',
      `${endpoint.href} answered the ${grant.grant_type} grant without an access token`,
    );
  }
  if (typeof answer.token_type !== 'string' || answer.token_type.toLowerCase() !== 'bearer') {
    throw new OAuthError(
      'token',
      `${endpoint.href} issued a token of type ${String(answer.token_type)}, not Bearer`,
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
  };
}

/** What a token request needs of a server's metadata: its `issuer` (assertion audience) and token endpoint. */
export type TokenEndpoint = Pick<
  AuthorizationServerMetadata,
  'issuer' | 'token_endpoint' | 'token_endpoint_auth_methods_supported'
>;

/**
 * The token endpoint exchange under {@link requestToken} and token exchange: checks the endpoint, authenticates
 * the client (none at all when `client` is undefined), POSTs the form, and resolves to the JSON object of a 2xx
 * answer; any other answer rejects with `OAuthError('token')` naming the status and the OAuth `error` code.
 */
export async function postToTokenEndpoint(
  as: TokenEndpoint,
  client: ClientCredentials | undefined,
  grant: Readonly<Record<string, string>>,
  fetch: FetchLike,
): Promise<{ endpoint: URL; answer: Record<string, unknown> }> {
  const endpoint = requireSecure(as.token_endpoint, 'token endpoint');
  const { body, headers } = await authenticate(as, client, grant);
  let response: Response;
  try {
    response = await fetch(endpoint, { method: 'POST', headers, body: body.toString() });
  } catch (error) {
    throw new OAuthError('token', `could not reach ${endpoint.href}`, { cause: error });
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  const answer =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
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
