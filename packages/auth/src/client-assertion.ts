import { argumentError } from '@boomerang/protocol';
import { importJWK, importPKCS8, type JWK, SignJWT } from 'jose';
import { randomToken } from './pkce.js';
import type { ClientAssertion } from './store.js';

/** Options of {@link privateKeyJwt}. */
export interface PrivateKeyJwtOptions {
  /**
   * The client's private key: a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), a private JWK, or a `CryptoKey`
   * (e.g. from a keystore, non-extractable). PEMs and JWKs are imported once, as non-extractable keys.
   */
  readonly privateKey: string | JWK | CryptoKey;
  /** The JWS algorithm the authorization server expects (`ES256`, `RS256`, `PS256`, `EdDSA`…); never `none`. */
  readonly algorithm: string;
  /** `kid` header, when the authorization server keeps several of this client's keys. */
  readonly keyId?: string | undefined;
  /** Assertion lifetime in seconds (`exp` − `iat`). Default 60: long enough for one request, short if leaked. */
  readonly lifetimeSeconds?: number | undefined;
  /** The time in epoch milliseconds; for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link ClientAssertion} for `private_key_jwt` client authentication (RFC 7523 §2.2, RFC 7521 §4.2): each call
 * signs `{ iss, sub: clientId, aud: issuer, jti, iat, exp }` with the private key. Put it on the client's
 * credentials (`{ clientId, assertion: privateKeyJwt(...) }`) for any grant. The key is only ever used to sign:
 * it is not exported, and no error message shows it.
 */
export function privateKeyJwt(options: PrivateKeyJwtOptions): ClientAssertion {
  const { privateKey, algorithm } = options ?? {};
  if (
    typeof algorithm !== 'string' ||
    algorithm === '' ||
    algorithm.toLowerCase() === 'none' ||
    /^HS/i.test(algorithm)
  ) {
    throw argumentError('algorithm', 'an asymmetric JWS algorithm', algorithm);
  }
  const isKey = typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey;
  if (typeof privateKey !== 'string' && !isKey && (typeof privateKey !== 'object' || privateKey === null)) {
    throw argumentError('privateKey', 'a PKCS#8 PEM string, a private JWK or a CryptoKey', privateKey);
  }
  const lifetime = options.lifetimeSeconds ?? 60;
  if (!Number.isSafeInteger(lifetime) || lifetime < 1 || lifetime > 3600) {
    throw new RangeError(`"lifetimeSeconds" expected an integer in 1..3600, got ${String(lifetime)}`);
  }
  const now = options.now ?? Date.now;
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  const signingKey = () => {
    key ??= importKey(privateKey, algorithm).catch((error: unknown) => {
      key = undefined;
      throw new TypeError(`"privateKey" could not be imported for ${algorithm}`, { cause: error });
    });
    return key;
  };
  return async ({ clientId, audience }) => {
    const issuedAt = Math.floor(now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: algorithm, ...(options.keyId !== undefined && { kid: options.keyId }) })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(audience)
      .setJti(randomToken())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .sign(await signingKey());
  };
}

async function importKey(
  privateKey: string | JWK | CryptoKey,
  algorithm: string,
): Promise<CryptoKey | Uint8Array> {
  if (typeof privateKey === 'string') return importPKCS8(privateKey, algorithm, { extractable: false });
  if (typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey) return privateKey;
  const jwk = privateKey as JWK;
  if (jwk.d === undefined) throw argumentError('privateKey', 'a private JWK (with "d")', privateKey);
  return importJWK({ ...jwk, ext: false }, algorithm);
}
