import type { FetchLike } from './discovery.js';
import { OAuthError } from './errors.js';
import type { ClientCredentials } from './store.js';
import { postToTokenEndpoint, type TokenEndpoint } from './token.js';

/** RFC 8693 token type URIs used by MCP's enterprise-managed authorization (SEP-990). */
export const TokenTypes = {
  /** An OpenID Connect ID token (RFC 8693 §3). */
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
  /** An Identity Assertion JWT Authorization Grant (ID-JAG, draft-ietf-oauth-identity-assertion-authz-grant). */
  idJag: 'urn:ietf:params:oauth:token-type:id-jag',
  /** An OAuth access token (RFC 8693 §3). */
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
} as const;

/** One RFC 8693 token exchange: the token to exchange and what to ask for. */
export interface TokenExchangeRequest {
  /** `subject_token`: the token being exchanged (secret: never logged). */
  readonly subjectToken: string;
  /** `subject_token_type`, e.g. {@link TokenTypes}`.idToken`. */
  readonly subjectTokenType: string;
  /** `requested_token_type`; when given, the answer's `issued_token_type` must equal it. */
  readonly requestedTokenType?: string | undefined;
  /** `audience`: the logical name of the party that will accept the new token (an authorization server's issuer). */
  readonly audience?: string | undefined;
  /** `resource` (RFC 8707): where the new token will be used. */
  readonly resource?: string | undefined;
  /** `scope`, omitted when empty. */
  readonly scopes?: readonly string[] | undefined;
}

/** What a token exchange issued (RFC 8693 §2.2.1). */
export interface ExchangedToken {
  /** The new token (the answer's `access_token`, whatever its type). Secret: never logged. */
  readonly token: string;
  /** `issued_token_type`. */
  readonly issuedTokenType: string;
  /** Seconds since the epoch, from `expires_in`. */
  readonly expiresAt?: number;
}

/**
 * Runs an RFC 8693 token exchange at `server`'s token endpoint (`grant_type` =
 * `urn:ietf:params:oauth:grant-type:token-exchange`), authenticated as `client` like any token request (none when
 * undefined). The answer must carry an `access_token` and an `issued_token_type` (equal to `requestedTokenType`
 * when one was asked); its `token_type` may be `N_A`, since the issued token need not be an access token.
 */
export async function exchangeToken(
  server: TokenEndpoint,
  client: ClientCredentials | undefined,
  request: TokenExchangeRequest,
  fetch: FetchLike,
  now: () => number = Date.now,
): Promise<ExchangedToken> {
  const grant: Record<string, string> = {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType,
  };
  if (request.requestedTokenType !== undefined) grant.requested_token_type = request.requestedTokenType;
  if (request.audience !== undefined) grant.audience = request.audience;
  if (request.resource !== undefined) grant.resource = request.resource;
  if (request.scopes !== undefined && request.scopes.length > 0) grant.scope = request.scopes.join(' ');
  const { endpoint, answer } = await postToTokenEndpoint(server, client, grant, fetch);
  const issued = answer.issued_token_type;
  if (typeof answer.access_token !== 'string' || answer.access_token === '' || typeof issued !== 'string') {
    throw new OAuthError(
      'token',
      `${endpoint.href} answered the token exchange without a token and its type`,
    );
  }
  if (request.requestedTokenType !== undefined && issued !== request.requestedTokenType) {
    throw new OAuthError(
      'token',
      `${endpoint.href} issued a token of type ${issued}, not the requested ${request.requestedTokenType}`,
    );
  }
  const expiresIn = answer.expires_in;
  return {
    token: answer.access_token,
    issuedTokenType: issued,
    ...(typeof expiresIn === 'number' &&
      expiresIn > 0 && { expiresAt: Math.floor(now() / 1000) + expiresIn }),
  };
}
