/**
 * Why an OAuth step failed. Stable strings, for branching and logs:
 * - `discovery`: no usable Protected Resource Metadata or authorization-server metadata;
 * - `resource-mismatch`: the metadata's `resource` does not name the server being called (RFC 9728 §3.3);
 * - `issuer-mismatch`: authorization-server metadata whose `issuer` differs from the one the URL was built from;
 * - `untrusted-issuer`: the Protected Resource Metadata does not list the issuer a machine grant is bound to
 *   (nothing was sent to any authorization server);
 * - `pkce-unsupported`: the authorization server does not list `S256` in `code_challenge_methods_supported`;
 * - `no-client-identity`: no pre-registered client, no Client ID Metadata Document support, no registration endpoint;
 * - `registration`: Dynamic Client Registration was refused;
 * - `iss-missing` / `iss-mismatch`: the authorization response failed RFC 9207 validation (mix-up defence);
 * - `state-mismatch`: the authorization response does not carry the `state` this client sent;
 * - `access-denied`: the authorization server answered with an `error` (the user declined, …);
 * - `token`: the token endpoint refused the code or the refresh token, or answered something unusable;
 * - `retry-limit`: the server still answered 401/403 after the maximum number of authorizations for one request;
 * - `insecure`: a URL that is not `https` (refused before anything is sent to it or fetched from it): an
 *   authorization server or any endpoint of it (loopback `http` only for a server whose issuer is loopback too),
 *   a discovery URL, or a redirect URI (loopback `http` allowed).
 */
export type OAuthFailure =
  | 'discovery'
  | 'resource-mismatch'
  | 'issuer-mismatch'
  | 'untrusted-issuer'
  | 'pkce-unsupported'
  | 'no-client-identity'
  | 'registration'
  | 'iss-missing'
  | 'iss-mismatch'
  | 'state-mismatch'
  | 'access-denied'
  | 'token'
  | 'retry-limit'
  | 'insecure';

/**
 * A failed OAuth step on the client side. The message names URLs, status codes and OAuth error codes, never a
 * secret (tokens, codes, verifiers, client secrets), so it is safe to log and to show.
 */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  /** What failed; see {@link OAuthFailure}. */
  readonly reason: OAuthFailure;

  /** An error for `reason`; `cause` keeps the underlying network or parse error. */
  constructor(reason: OAuthFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
