import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import { OAuthError } from './errors.js';
import { authMethodFor } from './registration.js';
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

/**
 * POSTs a grant to the token endpoint of `as` with client authentication: `client_secret_basic` (HTTP Basic over
 * the form-encoded id and secret, RFC 6749 §2.3.1), `client_secret_post` (both in the body) or `none` (only
 * `client_id`). Accepts `token_type` `Bearer` only. Errors carry the HTTP status and the OAuth `error` code.
 */
export async function requestToken(
  as: AuthorizationServerMetadata,
  client: ClientCredentials,
  grant: Readonly<Record<string, string>>,
  fetch: FetchLike,
  now: () => number = Date.now,
): Promise<TokenResponse> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const method = authMethodFor(client, as);
  if (method === 'client_secret_basic') {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`;
    headers.authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
  } else {
    body.set('client_id', client.clientId);
    if (method === 'client_secret_post' && client.clientSecret !== undefined) {
      body.set('client_secret', client.clientSecret);
    }
  }
  const endpoint = new URL(as.token_endpoint);
  let response: Response;
  try {
    response = await fetch(endpoint, { method: 'POST', headers, body: body.toString() });
  } catch (error) {
    throw new OAuthError('token', `could not reach ${endpoint.href}`, { cause: error });
  }
  const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof answer?.access_token !== 'string') {
    const code = typeof answer?.error === 'string' ? ` (${answer.error})` : '';
    throw new OAuthError(
      'token',
      `${endpoint.href} refused the ${grant.grant_type} grant: HTTP ${response.status}${code}`,
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

/** `application/x-www-form-urlencoded` encoding of one value, as RFC 6749 §2.3.1 requires inside Basic. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
