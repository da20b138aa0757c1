import type { AuthInfo } from './transport.js';

/**
 * Who an {@link AuthInfo} stands for, as state and sessions are bound to it: its `[clientId, issuer, subject]`
 * (`null` for each absent member; never scopes, so a scope step-up keeps the same principal), or, when it names
 * none of the three, `{ token }`: the token itself stands for the principal.
 */
export type Principal =
  | readonly [clientId: string | null, issuer: string | null, subject: string | null]
  | { readonly token: string };

/**
 * The principal of `auth`, the one rule every binding follows (sealed request state, 2025-11-25 HTTP sessions):
 * - `null` without `auth`: anonymous;
 * - `[clientId, issuer, subject]` when any of the three is a non-empty string;
 * - `{ token }` when none is but `auth.token` is (a verifier returning only `{ token, scopes }`, such as an API key
 *   check): each token is then its own principal, so one user's state never opens for another, and a refreshed
 *   token is a new principal. Bindings keep it out of anything they send: a sealed context holds only a digest;
 * - `undefined` when `auth` names neither: nothing tells its holders apart, and callers must fail closed rather
 *   than bind everyone to the same empty principal.
 */
export function principalOf(auth: AuthInfo | undefined): Principal | null | undefined {
  if (auth === undefined) return null;
  const { clientId, issuer, subject, token } = auth;
  if (named(clientId) || named(issuer) || named(subject)) {
    return [
      named(clientId) ? clientId : null,
      named(issuer) ? issuer : null,
      named(subject) ? subject : null,
    ];
  }
  return named(token) ? { token } : undefined;
}

function named(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
