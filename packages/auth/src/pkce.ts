import { encode } from 'jose/base64url';

/** A PKCE pair (RFC 7636): the secret `verifier` and its S256 `challenge`. */
export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

/** Unpadded base64url of `bytes` (RFC 4648 §5), as `jose` writes it for every JWT. */
export const base64url: (bytes: Uint8Array) => string = encode;

/** 32 random bytes as base64url (256 bits): `state` values and PKCE verifiers. */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** `BASE64URL(SHA-256(text))` over the UTF-8 bytes: PKCE S256 challenges and DPoP `ath` values. */
export async function sha256Base64url(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/**
 * A fresh PKCE pair with the `S256` method: a 43-character verifier from 32 random bytes (Web Crypto), and
 * `BASE64URL(SHA-256(verifier))` as the challenge. Plain PKCE is never used.
 */
export async function createPkce(): Promise<Pkce> {
  const verifier = randomToken();
  return { verifier, challenge: await sha256Base64url(verifier), method: 'S256' };
}
