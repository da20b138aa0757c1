// Task ids and task owners: who may see a task is decided from these two strings alone.
import { type AuthInfo, principalOf } from '@boomerang/protocol';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * A new task id: 32 bytes from the platform's CSPRNG (`crypto.getRandomValues`), as 64 lowercase hex digits.
 * 256 bits cannot be enumerated or guessed, so the id is safe as a bearer handle even where no principal is
 * known (the spec's MUST on unguessable ids).
 */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The owner key of a request, by the rule sealed request state follows (`principalOf` of `@boomerang/protocol`):
 * - `''` without `auth` (anonymous: the 256-bit task id is then the only handle);
 * - the JSON array `[issuer, clientId, subject]` (absent members as `null`) when `auth` names any of the three.
 *   Scopes are left out, so a scope step-up does not lock a client out of its own tasks;
 * - `{"tokenSha256": "<hex>"}` when `auth` names none of them but carries a token (a verifier that returns only
 *   `{ token }`, such as an API-key check): each token owns its own tasks, and only its digest is stored;
 * - `undefined` when `auth` names neither: nothing tells its holders apart, so callers fail closed (no task is
 *   created for it, and it sees none).
 * The three forms are different JSON types, so they never collide.
 */
export function ownerOf(auth: AuthInfo | undefined): string | undefined {
  const principal = principalOf(auth);
  if (principal === null) return '';
  if (principal === undefined) return undefined;
  if ('token' in principal)
    return JSON.stringify({ tokenSha256: bytesToHex(sha256(utf8ToBytes(principal.token))) });
  const [clientId, issuer, subject] = principal;
  return JSON.stringify([issuer, clientId, subject]);
}
