import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import { OAuthError } from './errors.js';
import { createPkce, randomToken } from './pkce.js';
import { requireSecureEndpoint } from './secure.js';
import type { ClientCredentials } from './store.js';
import { requestToken, type TokenRequestOptions, type TokenResponse } from './token.js';

/**
 * The redirect step: receives the authorization URL, sends the user (or a headless agent) there, and resolves to
 * the URL the authorization server redirected back to (`redirect_uri?code=…&state=…&iss=…`). A browser app opens
 * a window; a CLI uses `loopbackRedirect` from `@boomerang/auth/node`; tests use {@link headlessRedirect}.
 */
export type RedirectStep = (authorizationUrl: URL) => Promise<URL | string>;

/** One authorization-code grant: everything {@link authorizeWithCode} needs. */
export interface AuthorizationCodeRequest {
  readonly as: AuthorizationServerMetadata;
  readonly client: ClientCredentials;
  readonly redirectUri: string;
  /** The RFC 8707 `resource`, exactly as the Protected Resource Metadata published it. */
  readonly resource: string;
  /** Omitted from the request when empty or absent. */
  readonly scopes?: readonly string[] | undefined;
}

/**
 * Runs the authorization-code grant with PKCE S256: builds the authorization URL (`response_type=code`,
 * `client_id`, `redirect_uri`, `state`, `code_challenge`, `resource`, `scope`), hands it to `redirect`,
 * validates the response ({@link validateAuthorizationResponse}) and only then redeems the code at the token
 * endpoint with the verifier and the same `resource` (through {@link requestToken} with `options`: a DPoP
 * session binds the token to its key).
 */
export async function authorizeWithCode(
  request: AuthorizationCodeRequest,
  redirect: RedirectStep,
  fetch: FetchLike,
  options: TokenRequestOptions = {},
): Promise<TokenResponse> {
  const { as, client, redirectUri, resource, scopes } = request;
  if (as.authorization_endpoint === undefined) {
    throw new OAuthError('discovery', `${as.issuer} has no authorization_endpoint`);
  }
  const url = requireSecureEndpoint(as.authorization_endpoint, 'authorization endpoint', as.issuer);
  const pkce = await createPkce();
  const state = randomToken();
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', pkce.method);
  url.searchParams.set('resource', resource);
  if (scopes !== undefined && scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  const returned = new URL(await redirect(url));
  const code = validateAuthorizationResponse(returned.searchParams, {
    issuer: as.issuer,
    issParameterSupported: as.authorization_response_iss_parameter_supported === true,
    state,
  });
  const grant = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
    resource,
  };
  return requestToken(as, client, grant, fetch, options);
}

/** What the authorization response must match. */
export interface ExpectedAuthorizationResponse {
  /** The `issuer` recorded from the validated metadata before redirecting. */
  readonly issuer: string;
  /** `authorization_response_iss_parameter_supported` of that metadata. */
  readonly issParameterSupported: boolean;
  /** The `state` sent. */
  readonly state: string;
}

/**
 * Validates an authorization response and returns its `code`. First RFC 9207: a present `iss` must equal the
 * recorded issuer by simple string comparison (no normalisation of case, port, trailing slash or
 * percent-encoding), advertised or not; an absent `iss` is rejected when the AS advertised it. Only then `state`
 * (exact), then `error` (reported by code only), then `code`. On an `iss` mismatch nothing else in the response
 * is acted on or shown.
 */
export function validateAuthorizationResponse(
  params: URLSearchParams,
  expected: ExpectedAuthorizationResponse,
): string {
  const iss = params.get('iss');
  if (iss === null && expected.issParameterSupported) {
    throw new OAuthError(
      'iss-missing',
      `the authorization response lacks "iss", which ${expected.issuer} advertises`,
    );
  }
  if (iss !== null && iss !== expected.issuer) {
    throw new OAuthError(
      'iss-mismatch',
      `the authorization response names issuer ${JSON.stringify(iss)}, expected ${JSON.stringify(expected.issuer)}`,
    );
  }
  if (params.get('state') !== expected.state) {
    throw new OAuthError(
      'state-mismatch',
      'the authorization response does not carry the state this client sent',
    );
  }
  const error = params.get('error');
  if (error !== null) {
    throw new OAuthError('access-denied', `the authorization server answered error=${error}`);
  }
  const code = params.get('code');
  if (code === null || code === '') {
    throw new OAuthError('access-denied', 'the authorization response carries no code');
  }
  return code;
}

/**
 * A {@link RedirectStep} for authorization servers that redirect at once (test servers, the conformance
 * referee, pre-consented clients): GETs the authorization URL without following redirects and returns its
 * `Location`. No browser, no listener.
 */
export function headlessRedirect(
  fetch: FetchLike = (input, init) => globalThis.fetch(input, init),
): RedirectStep {
  return async (authorizationUrl) => {
    const response = await fetch(authorizationUrl, { method: 'GET', redirect: 'manual' });
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new OAuthError(
        'access-denied',
        `${authorizationUrl.origin}${authorizationUrl.pathname} answered HTTP ${response.status} without a redirect`,
      );
    }
    return new URL(location, authorizationUrl);
  };
}
