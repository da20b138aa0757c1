// Task ids and task owners: who may see a task is decided from these two strings alone.
import type { AuthInfo } from '@boomerang/protocol';

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
 * The owner key of a principal: the JSON array `[issuer, clientId, subject]` (absent members as `null`), or `''`
 * for a request without a principal. Scopes are left out, as for sealed request state, so a scope step-up does
 * not lock a client out of its own tasks.
 */
export function ownerOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return '';
  return JSON.stringify([auth.issuer ?? null, auth.clientId ?? null, auth.subject ?? null]);
}
