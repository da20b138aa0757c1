import { argumentError } from '@boomerang/protocol';
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
import { type DpopReplayCache, memoryReplayCache } from './replay-cache.js';

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
  /**
   * Where accepted proofs are remembered. Default {@link memoryReplayCache} (one process: it never forgets an
   * unexpired proof, and shrinks the window when full); a fleet shares one (`redisReplayCache` of `@boomerang/redis`).
   */
  readonly replay?: DpopReplayCache | undefined;
  /** Require server nonces in proofs (see {@link rotatingDpopNonce}). Default: none required. */
  readonly nonce?: DpopNonceSource | undefined;
  /**
   * The origins clients reach this server at, as they write them in `htu` (`['https://mcp.example.com']`). `htu`
   * must then be one of them followed by the request's path: the host a request names (its `Host` header, or an
   * absolute-form target such as `POST http://evil.example/mcp`, which node adapters turn into `request.url`) is
   * never what `htu` is compared with, and a proxy that terminates TLS in front needs no `url`.
   * Default: the origin `bearerAuth` passes (that of its `resourceMetadata`, the resource's own); without one (at a
   * token endpoint), `request.url`, refused when its host is not the one the `Host` header names.
   */
  readonly origins?: readonly (string | URL)[] | undefined;
  /**
   * The URL the client addressed, for the `htu` check, computed from what you trust; instead of `origins`, for a
   * proxy that also rewrites the path. Default: see `origins`.
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
 * expected; `htm` equal to the request method; `htu` equal to the URL the client addressed on this server (query
 * and fragment ignored; the origin from `origins`, `url` or `bearerAuth`, never from a host the request chose: see
 * `origins`); `iat` within `maxAgeSeconds` (and `clockSkewSeconds` ahead); `ath` equal to the hash of the
 * presented access token; the server nonce when required; and a `jti` never seen before under that key while its
 * proof could be accepted. Only proofs that pass everything else are remembered, so only holders of valid tokens
 * fill the replay cache, and a full one shortens the window (`window`) rather than forget a proof.
 *
 * Throws `TypeError` for symmetric or empty `algorithms`, `origins` that are not http(s) origins, or both `origins`
 * and `url`; `RangeError` for `maxAgeSeconds` or `clockSkewSeconds` outside 0..3600.
 */
export function dpopVerifier(options: DpopVerifierOptions = {}): DpopProofVerifier {
  const algorithms = [...(options.algorithms ?? DPOP_ALGORITHMS)];
  if (algorithms.length === 0 || algorithms.some((a) => typeof a !== 'string' || /^(none|HS)/i.test(a))) {
    throw argumentError('algorithms', 'asymmetric JWS algorithms (not none, not HS*)', options.algorithms);
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
  if (options.origins !== undefined && options.url !== undefined) {
    throw new TypeError('"origins" and "url" are exclusive: "url" computes the whole URL htu must name');
  }
  const origins = options.origins === undefined ? undefined : originsOf(options.origins);
  const { url } = options;

  /** The URL `htu` must name, or `undefined` when the request names none this server answers to. */
  const targetOf = (request: Request, htu: string, origin: string | undefined): string | URL | undefined => {
    if (url !== undefined) return url(request);
    const addressed = parsed(request.url);
    if (addressed === undefined) return undefined;
    let allowed = origins;
    if (allowed === undefined && origin !== undefined) {
      const hinted = parsed(origin)?.origin;
      if (hinted === undefined) return undefined;
      allowed = [hinted];
    }
    if (allowed === undefined) return hostAgrees(request, addressed) ? addressed : undefined;
    const named = parsed(htu)?.origin;
    // By concatenation: a path such as `//evil.example/x` must stay a path, not become a host.
    return named !== undefined && allowed.includes(named) ? `${named}${addressed.pathname}` : undefined;
  };

  const check = async (
    request: Request,
    expected: { readonly accessToken?: string; readonly jkt?: string; readonly origin?: string },
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
    const target = typeof htu === 'string' ? targetOf(request, htu, expected.origin) : undefined;
    if (typeof htu !== 'string' || target === undefined || !sameTarget(htu, target)) {
      return { valid: false, reason: 'htu' };
    }
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
    // Remembered until no instance whose clock is within `skew` of this one could accept it on `iat`.
    const verdict = await replay.remember(`${jkt}:${jti}`, Math.ceil(iat + maxAge + skew));
    if (verdict !== true) return { valid: false, reason: verdict === 'window' ? 'window' : 'replay' };
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

/** `url` as a URL, or `undefined` when it is none. */
function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The `origins` option as serialized origins; throws `TypeError` for anything but an http(s) origin. */
function originsOf(entries: readonly (string | URL)[]): string[] {
  if (!Array.isArray(entries)) {
    throw argumentError('origins', 'an array of origins such as "https://mcp.example.com"', entries);
  }
  if (entries.length === 0) throw new RangeError('"origins" expected at least one origin, got none');
  return entries.map((entry) => {
    const url = typeof entry === 'string' || entry instanceof URL ? parsed(String(entry)) : undefined;
    if (
      url === undefined ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.pathname !== '/' ||
      url.search !== '' ||
      url.hash !== '' ||
      url.username !== '' ||
      url.password !== ''
    ) {
      throw argumentError('origins', 'origins such as "https://mcp.example.com" (no path)', entry);
    }
    return url.origin;
  });
}

/**
 * Whether `url` (the request's) names the host its `Host` header does. Node adapters build `request.url` from an
 * absolute-form target (`POST http://evil.example/mcp`) while the Host checks read the header: the two must agree
 * before `request.url` may stand for the URL the client addressed. No `Host` header: the runtime made the URL.
 */
function hostAgrees(request: Request, url: URL): boolean {
  const host = request.headers.get('host');
  if (host === null) return true;
  return parsed(`${url.protocol}//${host}`)?.host === url.host;
}

/** Whether the proof's `htu` names the request URL: same URL once normalised, query and fragment ignored. */
function sameTarget(htu: string, url: string | URL): boolean {
  try {
    return resourceOf(htu) === resourceOf(url);
  } catch {
    return false;
  }
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
