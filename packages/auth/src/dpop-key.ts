import { argumentError } from '@boomerang/protocol';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { DpopSigner } from './dpop.js';
import { randomToken } from './pkce.js';

/** Algorithms {@link generateDpopKey} makes keys for: asymmetric JWS algorithms Web Crypto implements. */
export const DPOP_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
] as const;

/** A JWS algorithm for DPoP proofs. */
export type DpopAlgorithm = (typeof DPOP_ALGORITHMS)[number];

/** Options of {@link generateDpopKey}. */
export interface DpopKeyOptions {
  /** The proof algorithm. Default `ES256` (what MCP authorization servers are expected to support). */
  readonly algorithm?: DpopAlgorithm | undefined;
  /**
   * An existing key pair to use instead of a new one (e.g. kept in IndexedDB across page loads, so DPoP-bound
   * refresh tokens stay usable). Its private key should be non-extractable.
   */
  readonly keyPair?: CryptoKeyPair | undefined;
  /** The time in epoch milliseconds, for `iat`; for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** A DPoP key pair held in memory: a {@link DpopSigner} plus its public JWK. */
export interface DpopKey extends DpopSigner {
  readonly algorithm: DpopAlgorithm;
  /** The public key as sent in every proof's `jwk` header. */
  readonly publicJwk: Readonly<JWK>;
}

/**
 * Generates a DPoP key pair with Web Crypto (RFC 9449): the private key is a non-extractable `CryptoKey` (it
 * signs proofs, and nothing can read it out: not a log line, not an error, not `JSON.stringify`); the public key
 * is exported once as the proofs' `jwk` header, and its RFC 7638 thumbprint is the `cnf.jkt` of bound tokens.
 * One key per client instance; pass it as `withOAuth(fetch, { dpop: key, ... })`.
 */
export async function generateDpopKey(options: DpopKeyOptions = {}): Promise<DpopKey> {
  const algorithm = options.algorithm ?? 'ES256';
  const known: readonly string[] = DPOP_ALGORITHMS;
  if (!known.includes(algorithm)) {
    throw argumentError('algorithm', `one of ${DPOP_ALGORITHMS.join(', ')}`, algorithm);
  }
  const { privateKey, publicKey } =
    options.keyPair ?? (await generateKeyPair(algorithm, { extractable: false }));
  if (privateKey?.type !== 'private' || publicKey?.type !== 'public') {
    throw argumentError('keyPair', 'a CryptoKeyPair { privateKey, publicKey }', options.keyPair);
  }
  const { kty, crv, n, e, x, y } = await exportJWK(publicKey);
  const publicJwk: JWK = Object.fromEntries(
    Object.entries({ kty, crv, n, e, x, y }).filter(([, value]) => value !== undefined),
  );
  const thumbprint = await calculateJwkThumbprint(publicJwk, 'sha256');
  const now = options.now ?? Date.now;
  return {
    algorithm,
    thumbprint,
    publicJwk,
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: algorithm, jwk: publicJwk })
        .setJti(randomToken())
        .setIssuedAt(Math.floor(now() / 1000))
        .sign(privateKey),
  };
}
