import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import type { DpopProofVerifier, DpopRejection, DpopVerification } from './bearer.js';
import { resourceOf } from './discovery.js';
import { DPOP_ALGORITHMS } from './dpop-key.js';
import { randomToken, sha256Base64url } from './pkce.js';

/**
 * Remembers the proofs a server has accepted, so that none is accepted twice (RFC 9449 §11.1). Shared by every
 * instance of a server that runs several (implement it over Redis `SET NX EX`, or a SQL unique key).
 */
export interface DpopReplayCache {
  /** Records `key` until `expiresAt` (epoch seconds); `false` when it is already recorded (a replay). */
  remember(key: string, expiresAt: number): boolean | Promise<boolean>;
}

/** The server nonces of RFC 9449 §9: the one to hand out, and which ones a proof may carry. */
export interface DpopNonceSource {
  /** The nonce to send in `DPoP-Nonce` with a `use_dpop_nonce` challenge. */
  current(): string;
  /** Whether a proof carrying `nonce` (or none) is fresh enough. */
  accepts(nonce: string | undefined): boolean;
}

/** Options of {@link dpopVerifier}. */
export interface DpopVerifierOptions {
  /** Proof algorithms accepted (announced as `algs`). Default: the asymmetric ones Web Crypto implements. */
  readonly algorithms?: readonly string[] | undefined;
  /** How old a proof's `iat` may be, in seconds; also how long its `jti` is remembered. Default 60. */
  readonly maxAgeSeconds?: number | undefined;
  /** How far in the future `iat` may be (clock skew), in seconds. Default 5. */
  readonly clockSkewSeconds?: number | undefined;
  /** Where accepted proofs are remembered. Default {@link memoryReplayCache} (one process, 10 000 entries). */
  readonly replay?: DpopReplayCache | undefined;
  /** Require server nonces in proofs (see {@link rotatingDpopNonce}). Default: none required. */
  readonly nonce?: DpopNonceSource | undefined;
  /**
   * The URL the client addressed, for the `htu` check. Default `request.url`; behind a proxy that rewrites
   * scheme, host or path, give the public URL.
   */
  readonly url?: ((request: Request) => string | URL) | undefined;
  /** Called with the reason a proof was refused (never the proof). Default: silent. */
  readonly onReject?: ((reason: DpopRejection) => void) | undefined;
  /** The time in epoch milliseconds; for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** JWK members that only private (or symmetric) keys have. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * Checks DPoP proofs (RFC 9449 §4.3) for `bearerAuth({ dpop })`, or for an authorization server's token
 * endpoint: exactly one `DPoP` header; a JWS with `typ` `dpop+jwt`, an accepted asymmetric `alg` and a public
 * `jwk` that verifies its signature; the key's RFC 7638 thumbprint equal to the token's `cnf.jkt` when one is
 * expected; `htm` equal to the request method; `htu` equal to the request URL (query and fragment ignored); `iat`
 * within `maxAgeSeconds` (and `clockSkewSeconds` ahead); `ath` equal to the hash of the presented access token;
 * the server nonce when required; and a `jti` never seen before under that key in that window. Only proofs that
 * pass everything else are remembered, so a flood of self-signed proofs cannot evict real ones unless it also
 * holds a valid token.
 */
export function dpopVerifier(options: DpopVerifierOptions = {}): DpopProofVerifier {
  const algorithms = [...(options.algorithms ?? DPOP_ALGORITHMS)];
  if (algorithms.length === 0 || algorithms.some((a) => typeof a !== 'string' || /^(none|HS)/i.test(a))) {
    throw new TypeError('"algorithms" expected asymmetric JWS algorithms (not none, not HS*)');
  }
  const maxAge = options.maxAgeSeconds ?? 60;
  const skew = options.clockSkewSeconds ?? 5;
  for (const [name, value] of [
    ['maxAgeSeconds', maxAge],
    ['clockSkewSeconds', skew],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0 || value > 3600) {
      throw new RangeError(`"${name}" expected an integer in 0..3600, got ${String(value)}`);
    }
  }
  const now = options.now ?? Date.now;
  const replay = options.replay ?? memoryReplayCache({ now });
  const urlOf = options.url ?? ((request: Request) => request.url);

  const check = async (
    request: Request,
    expected: { readonly accessToken?: string; readonly jkt?: string },
  ): Promise<DpopVerification> => {
    const proof = request.headers.get('dpop');
    if (proof === null || proof === '') return { valid: false, reason: 'missing' };
    if (proof.includes(',')) return { valid: false, reason: 'multiple' }; // repeated headers arrive joined
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(proof);
    } catch {
      return { valid: false, reason: 'malformed' };
    }
    const jwk = header.jwk as JWK | undefined;
    if (header.typ !== 'dpop+jwt' || typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) {
      return { valid: false, reason: 'malformed' };
    }
    if (typeof header.alg !== 'string' || !algorithms.includes(header.alg)) {
      return { valid: false, reason: 'algorithm' };
    }
    if (PRIVATE_MEMBERS.some((member) => member in jwk)) return { valid: false, reason: 'malformed' };
    let payload: JWTPayload;
    try {
      const key = await importJWK({ ...jwk, ext: true }, header.alg);
      ({ payload } = await jwtVerify(proof, key, {
        algorithms,
        typ: 'dpop+jwt',
        currentDate: new Date(now()),
      }));
    } catch {
      return { valid: false, reason: 'signature' };
    }
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    if (expected.jkt !== undefined && jkt !== expected.jkt) return { valid: false, reason: 'key-mismatch' };
    const { jti, htm, htu, iat, ath } = payload;
    if (typeof jti !== 'string' || jti.length < 8 || jti.length > 256)
      return { valid: false, reason: 'malformed' };
    if (htm !== request.method) return { valid: false, reason: 'htm' };
    if (typeof htu !== 'string' || !sameTarget(htu, urlOf(request))) return { valid: false, reason: 'htu' };
    const seconds = now() / 1000;
    if (typeof iat !== 'number' || iat < seconds - maxAge || iat > seconds + skew) {
      return { valid: false, reason: 'iat' };
    }
    if (expected.accessToken !== undefined && ath !== (await sha256Base64url(expected.accessToken))) {
      return { valid: false, reason: 'ath' };
    }
    if (options.nonce !== undefined) {
      const nonce = typeof payload.nonce === 'string' ? payload.nonce : undefined;
      if (!options.nonce.accepts(nonce))
        return { valid: false, reason: 'nonce', nonce: options.nonce.current() };
    }
    if (!(await replay.remember(`${jkt}:${jti}`, Math.ceil(iat + maxAge + skew)))) {
      return { valid: false, reason: 'replay' };
    }
    return { valid: true, jkt };
  };

  return {
    algorithms,
    verify: async (request, expected = {}) => {
      const outcome = await check(request, expected);
      if (!outcome.valid) options.onReject?.(outcome.reason);
      return outcome;
    },
  };
}

/** Whether the proof's `htu` names the request URL: same URL once normalised, query and fragment ignored. */
function sameTarget(htu: string, url: string | URL): boolean {
  try {
    return resourceOf(htu) === resourceOf(url);
  } catch {
    return false;
  }
}

/** Options of {@link memoryReplayCache}. */
export interface MemoryReplayCacheOptions {
  /** Entries kept at most; past it the oldest is forgotten. Default 10 000. */
  readonly max?: number | undefined;
  /** The time in epoch milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link DpopReplayCache} in one `Map`, for a single process: expired entries are dropped as new ones arrive
 * (entries expire in arrival order, since every proof gets the same window), and at `max` the oldest is
 * forgotten, so memory stays bounded whatever the traffic. Several instances of a server need a shared cache.
 */
export function memoryReplayCache(options: MemoryReplayCacheOptions = {}): DpopReplayCache {
  const max = options.max ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new RangeError(`"max" expected an integer ≥ 1, got ${String(max)}`);
  const now = options.now ?? Date.now;
  const entries = new Map<string, number>();
  return {
    remember: (key, expiresAt) => {
      const seconds = now() / 1000;
      for (const [oldest, expiry] of entries) {
        if (expiry > seconds && entries.size < max) break;
        entries.delete(oldest);
      }
      const known = entries.get(key);
      if (known !== undefined && known > seconds) return false;
      entries.set(key, expiresAt);
      return true;
    },
  };
}

/** Options of {@link rotatingDpopNonce}. */
export interface RotatingDpopNonceOptions {
  /** How long one nonce is handed out, in seconds; the previous one stays accepted as long again. Default 300. */
  readonly periodSeconds?: number | undefined;
  /** The time in epoch milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link DpopNonceSource} for one process: a random nonce that changes every `periodSeconds`, the previous one
 * still accepted during the next period (so a client that just learned it is not refused at a rotation).
 */
export function rotatingDpopNonce(options: RotatingDpopNonceOptions = {}): DpopNonceSource {
  const period = (options.periodSeconds ?? 300) * 1000;
  if (!Number.isFinite(period) || period <= 0) {
    throw new RangeError(`"periodSeconds" expected a positive number, got ${String(options.periodSeconds)}`);
  }
  const now = options.now ?? Date.now;
  let epoch = Math.floor(now() / period);
  let current = randomToken();
  let previous: string | undefined;
  const rotate = () => {
    const at = Math.floor(now() / period);
    if (at === epoch) return;
    previous = at === epoch + 1 ? current : undefined;
    current = randomToken();
    epoch = at;
  };
  return {
    current: () => {
      rotate();
      return current;
    },
    accepts: (nonce) => {
      rotate();
      return nonce !== undefined && (nonce === current || nonce === previous);
    },
  };
}
