import type { AuthInfo } from '@boomerang/protocol';
import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { TokenVerifier } from './bearer.js';
import { requireSecureEndpoint } from './secure.js';

export { type PrivateKeyJwtOptions, privateKeyJwt } from './client-assertion.js';
export {
  DPOP_ALGORITHMS,
  type DpopAlgorithm,
  type DpopKey,
  type DpopKeyOptions,
  generateDpopKey,
} from './dpop-key.js';
export {
  type DpopNonceSource,
  type DpopReplayCache,
  type DpopVerifierOptions,
  dpopVerifier,
  type MemoryReplayCacheOptions,
  memoryReplayCache,
  type RotatingDpopNonceOptions,
  rotatingDpopNonce,
} from './dpop-verifier.js';

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The authorization server's `issuer`; the `iss` claim must equal it. */
  readonly issuer: string;
  /** This MCP server's canonical URL (the `resource` clients ask for); the `aud` claim must contain it. */
  readonly audience: string | readonly string[];
  /**
   * Where the signing keys are (`jwks_uri` of the AS metadata); fetched, cached and refreshed by `jose`. It must
   * be `https` (loopback `http` only when `issuer` is loopback too): keys fetched in cleartext could be swapped.
   */
  readonly jwksUri?: string | URL | undefined;
  /** A local verification key (public key, or HMAC secret) instead of `jwksUri`. */
  readonly key?: CryptoKey | Uint8Array | undefined;
  /** Accepted `alg` values. Default: the asymmetric algorithms `jose` supports (never `none`). */
  readonly algorithms?: readonly string[] | undefined;
  /** Allowed clock skew in seconds for `exp`/`nbf`. Default 30. */
  readonly clockTolerance?: number | undefined;
  /** Called with the reason a token was refused (an error code, never the token). Default: silent. */
  readonly onReject?: ((reason: string) => void) | undefined;
}

/**
 * A {@link TokenVerifier} for JWT access tokens (RFC 9068), built on `jose`: signature against the AS keys
 * (remote JWKS with caching and rotation, or a local key), `iss` exactly `issuer`, `aud` containing this
 * server's `audience` (tokens for other resources are refused), `exp`/`nbf` with a small tolerance. The
 * principal: `sub` → `subject`, `iss` → `issuer`, `client_id` (else `azp`) → `clientId`, `scope` (space-separated)
 * or `scp` (array) → `scopes`, `exp` → `expiresAt`; the claims are in `extra.claims`. The raw token is not
 * copied into the principal, so handlers cannot pass it through. Throws `OAuthError('insecure')` for a plain-http
 * `jwksUri` of a remote issuer.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  let getKey: JWTVerifyGetKey | CryptoKey | Uint8Array;
  if (options.key !== undefined) getKey = options.key;
  else if (options.jwksUri !== undefined) {
    getKey = createRemoteJWKSet(requireSecureEndpoint(String(options.jwksUri), 'JWKS URI', options.issuer));
  } else throw new TypeError('jwtVerifier expected "jwksUri" or "key"');
  const verifyOptions = {
    issuer: options.issuer,
    audience: typeof options.audience === 'string' ? options.audience : [...options.audience],
    clockTolerance: options.clockTolerance ?? 30,
    ...(options.algorithms !== undefined && { algorithms: [...options.algorithms] }),
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      // Overloads differ only in the key type; one call site keeps the union.
      ({ payload } =
        typeof getKey === 'function'
          ? await jwtVerify(token, getKey, verifyOptions)
          : await jwtVerify(token, getKey, verifyOptions));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      options.onReject?.(typeof code === 'string' ? code : 'ERR_JWT_INVALID');
      return undefined;
    }
    return principalOf(payload);
  };
}

/** Maps verified JWT claims to the principal `ctx.auth` carries. */
function principalOf(payload: JWTPayload): AuthInfo {
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : payload.azp;
  const scopes =
    typeof payload.scope === 'string'
      ? payload.scope.split(' ').filter(Boolean)
      : Array.isArray(payload.scp)
        ? payload.scp.filter((s): s is string => typeof s === 'string')
        : [];
  return {
    ...(typeof clientId === 'string' && { clientId }),
    ...(payload.iss !== undefined && { issuer: payload.iss }),
    ...(payload.sub !== undefined && { subject: payload.sub }),
    scopes,
    ...(payload.exp !== undefined && { expiresAt: payload.exp }),
    // RFC 7800 confirmation (`cnf.jkt` for DPoP, RFC 9449 §6.1): bearerAuth binds the token to that key.
    extra: { claims: payload, ...(isConfirmation(payload.cnf) && { cnf: payload.cnf }) },
  };
}

function isConfirmation(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
