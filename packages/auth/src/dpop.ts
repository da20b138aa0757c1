import { argumentError } from '@boomerang/protocol';
import { resourceOf } from './discovery.js';
import { sha256Base64url } from './pkce.js';

/** What a DPoP proof binds (RFC 9449 §4.2), besides the `jti` and `iat` the signer adds. */
export interface DpopProofClaims {
  /** `htm`: the request's HTTP method, upper case. */
  readonly htm: string;
  /** `htu`: the request URL without query and fragment. */
  readonly htu: string;
  /** `ath`: `BASE64URL(SHA-256(access token))`, on requests that carry one. */
  readonly ath?: string;
  /** `nonce`: the last `DPoP-Nonce` the server gave, when it gave one. */
  readonly nonce?: string;
}

/**
 * Holds a DPoP key pair and signs proofs with it: a JWT with header `{ typ: "dpop+jwt", alg, jwk: <public key> }`
 * and the claims plus a fresh `jti` and `iat`. `generateDpopKey()` from `@boomerang/auth/jwt` makes one whose
 * private key is a non-extractable `CryptoKey`: it signs, but cannot be read out, logged or sent anywhere.
 */
export interface DpopSigner {
  /** The JWS algorithm of its proofs (matched against `dpop_signing_alg_values_supported`). */
  readonly algorithm: string;
  /** The RFC 7638 SHA-256 thumbprint of its public key: the `cnf.jkt` of the tokens bound to it. */
  readonly thumbprint: string;
  /** Signs one proof. */
  sign(claims: DpopProofClaims): Promise<string>;
}

/**
 * One client's DPoP state: a signer, and the nonces servers asked for (RFC 9449 §8, §9), remembered per origin so
 * the next proof to that server carries the latest one. `withOAuth({ dpop })` keeps one; `requestToken`'s `dpop`
 * option takes one.
 */
export interface DpopSession {
  readonly signer: DpopSigner;
  /** A fresh proof for `method` on `url` (query and fragment dropped), with `ath` when `accessToken` is given. */
  proof(method: string, url: URL, accessToken?: string): Promise<string>;
  /** Remembers the `DPoP-Nonce` header of `response` from `url`'s origin; true when it is a new nonce. */
  learn(url: URL, response: Response): boolean;
}

// RFC 9449 §8.1: nonce = 1*NQCHAR (printable ASCII and space, without `"` and `\`); a bound on its size.
const NONCE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,1024}$/;

/** A {@link DpopSession} over `signer`. */
export function createDpopSession(signer: DpopSigner): DpopSession {
  if (typeof signer?.sign !== 'function' || typeof signer.algorithm !== 'string') {
    throw argumentError('dpop', 'a DpopSigner { algorithm, thumbprint, sign(claims) }', signer);
  }
  const nonces = new Map<string, string>();
  return {
    signer,
    proof: async (method, url, accessToken) => {
      const nonce = nonces.get(url.origin);
      return signer.sign({
        htm: method.toUpperCase(),
        htu: resourceOf(url), // the same shape as a resource identifier: no query, no fragment
        ...(accessToken !== undefined && { ath: await sha256Base64url(accessToken) }),
        ...(nonce !== undefined && { nonce }),
      });
    },
    learn: (url, response) => {
      const nonce = response.headers.get('dpop-nonce');
      if (nonce === null || !NONCE.test(nonce) || nonces.get(url.origin) === nonce) return false;
      nonces.set(url.origin, nonce);
      return true;
    },
  };
}
