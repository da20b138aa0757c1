import { type AuthInfo, argumentError } from '@boomerang/protocol';
import {
  createRemoteJWKSet,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
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
  type DpopVerifierOptions,
  dpopVerifier,
  type RotatingDpopNonceOptions,
  rotatingDpopNonce,
} from './dpop-verifier.js';
export {
  type DpopReplayCache,
  type DpopReplayVerdict,
  type MemoryReplayCacheOptions,
  memoryReplayCache,
} from './replay-cache.js';

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
  /**
   * The `typ` header values accepted, compared as media types (case aside, `application/` optional), `null` standing
   * for a token without `typ`. Default `['at+jwt']` (RFC 9068 §4): only tokens the issuer minted as access tokens,
   * so that an ID token, a client assertion or any other JWT it signs with the same keys cannot stand for one. For an
   * issuer that cannot type its access tokens, list what it sends, e.g. `['at+jwt', 'jwt', null]`.
   */
  readonly typ?: readonly (string | null)[] | undefined;
  /**
   * Accept tokens without `exp`, which then never expire (unless `verify`'s caller checks something else). Default
   * false (RFC 9068 §2.2 requires `exp`): a token that leaks would otherwise work forever. Only for an issuer that
   * cannot comply, and only with short-lived keys or revocation of your own.
   */
  readonly allowMissingExp?: boolean | undefined;
  /** Called with the reason a token was refused (an error code, never the token). Default: silent. */
  readonly onReject?: ((reason: string) => void) | undefined;
}

/**
 * A {@link TokenVerifier} for JWT access tokens (RFC 9068), built on `jose`: signature against the AS keys
 * (remote JWKS with caching and rotation, or a local key), `typ` `at+jwt` (§4; see `typ`), `iss` exactly `issuer`,
 * `aud` containing this server's `audience` (tokens for other resources are refused), `exp` present (§2.2; see
 * `allowMissingExp`) and `exp`/`nbf` with a small tolerance. The principal: `sub` → `subject`, `iss` → `issuer`,
 * `client_id` (else `azp`) → `clientId`, `scope` (space-separated) or `scp` (array) → `scopes`, `exp` →
 * `expiresAt`; the claims are in `extra.claims`. The raw token is not copied into the principal, so handlers cannot
 * pass it through. `onReject` hears a `jose` error code, with the claim after a colon when a claim or the `typ`
 * failed (`ERR_JWT_CLAIM_VALIDATION_FAILED:exp`).
 *
 * Throws `OAuthError('insecure')` for a plain-http `jwksUri` of a remote issuer; `TypeError` without `jwksUri` or
 * `key`, or for a `typ` that is not a list of media types and `null`; `RangeError` for an empty `typ`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  let getKey: JWTVerifyGetKey | CryptoKey | Uint8Array;
  if (options.key !== undefined) getKey = options.key;
  else if (options.jwksUri !== undefined) {
    getKey = createRemoteJWKSet(requireSecureEndpoint(String(options.jwksUri), 'JWKS URI', options.issuer));
  } else throw new TypeError('jwtVerifier expected "jwksUri" or "key"');
  const typ = typesOf(options.typ ?? ['at+jwt']);
  const verifyOptions = {
    issuer: options.issuer,
    audience: typeof options.audience === 'string' ? options.audience : [...options.audience],
    clockTolerance: options.clockTolerance ?? 30,
    ...(options.allowMissingExp !== true && { requiredClaims: ['exp'] }),
    ...(options.algorithms !== undefined && { algorithms: [...options.algorithms] }),
  };
  return async (token) => {
    let payload: JWTPayload;
    let protectedHeader: JWTHeaderParameters;
    try {
      // Overloads differ only in the key type; one call site keeps the union.
      ({ payload, protectedHeader } =
        typeof getKey === 'function'
          ? await jwtVerify(token, getKey, verifyOptions)
          : await jwtVerify(token, getKey, verifyOptions));
    } catch (error) {
      const { code, claim } = error as { code?: unknown; claim?: unknown };
      const reason = typeof code === 'string' ? code : 'ERR_JWT_INVALID';
      options.onReject?.(typeof claim === 'string' ? `${reason}:${claim}` : reason);
      return undefined;
    }
    if (!typ.has(mediaType(protectedHeader.typ))) {
      options.onReject?.('ERR_JWT_CLAIM_VALIDATION_FAILED:typ');
      return undefined;
    }
    return principalOf(payload);
  };
}

/** The `typ` option as a set of {@link mediaType}s. */
function typesOf(list: readonly (string | null)[]): Set<string | null | undefined> {
  if (!Array.isArray(list)) throw argumentError('typ', 'an array of media types and null', list);
  if (list.length === 0) throw new RangeError('"typ" expected at least one media type (or null), got none');
  for (const entry of list) {
    if (entry !== null && (typeof entry !== 'string' || entry === '')) {
      throw argumentError('typ', 'media types (non-empty strings) and null', entry);
    }
  }
  return new Set(list.map((entry) => (entry === null ? null : mediaType(entry))));
}

/**
 * A `typ` header as a comparable media type (RFC 7515 §4.1.9): lower-cased, `application/` removed; `null` when
 * absent, `undefined` when it is not a string (matches nothing).
 */
function mediaType(typ: unknown): string | null | undefined {
  if (typ === undefined) return null;
  if (typeof typ !== 'string') return undefined;
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
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
