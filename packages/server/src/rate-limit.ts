// Per-principal request limits: a token bucket per key, as a server middleware. The buckets live in a store: in
// this process by default, or shared by a fleet (`redisRateLimitStore` of @boomerang/redis).
import { argumentError, ErrorCode, McpError, MetaKey } from '@boomerang/protocol';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ServerMiddleware, ServerMiddlewareContext } from './middleware.js';

/** What a {@link RateLimitStore} decides for one request. */
export interface RateLimitDecision {
  /** The request may go on (a token was taken). */
  readonly allowed: boolean;
  /** When refused: how long until a token is back, in ms (≥ 1). `0` when allowed. */
  readonly retryAfterMs: number;
}

/** The bucket of one key: `capacity` tokens, refilled continuously at `capacity` per `perMs`. */
export interface BucketRule {
  readonly capacity: number;
  readonly perMs: number;
}

/**
 * Where the buckets live. `take` takes one token from the bucket of `key` (creating a full one) and says whether
 * it could, atomically: two instances sharing a store never both take the last token. It may be synchronous.
 */
export interface RateLimitStore {
  take(key: string, rule: BucketRule): RateLimitDecision | Promise<RateLimitDecision>;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests a key may send per `perMs` (the bucket's size: also the largest burst). A positive integer. */
  readonly requests: number;
  /** The window in ms over which `requests` refill. A positive integer. */
  readonly perMs: number;
  /**
   * The bucket a request counts against; `undefined` lets it through uncounted. Default {@link principalKey}:
   * the authenticated principal, else the client's self-declared name; a caller whose `auth` names nobody (no
   * client id, issuer, subject or token) shares one bucket, `unidentified`.
   */
  readonly key?: ((ctx: ServerMiddlewareContext) => string | undefined) | undefined;
  /** Where buckets live (default: {@link memoryRateLimitStore} of this process, 10,000 keys). */
  readonly store?: RateLimitStore | undefined;
  /** Only these methods count (default: every request, every round of a multi-round-trip flow included). */
  readonly methods?: readonly string[] | undefined;
}

/**
 * A server middleware that limits how many requests each caller sends: a token bucket per key (`requests` per
 * `perMs`, refilled continuously, bursts up to `requests`). A request over the limit is answered
 * `{ code: -32029, message: 'Rate limit exceeded: retry in N ms', data: { retryAfterMs } }` (`ErrorCode.RateLimited`;
 * over HTTP `429` with `Retry-After`) without reaching its
 * handler; `@boomerang/client` waits that long and retries on its own when the call's deadline allows. Every round
 * of a multi-round-trip flow is a request and counts.
 *
 * The default key is the caller's principal (`principalOf`: issuer, client id and subject, or a token's digest),
 * and for anonymous requests the client's self-declared name (`_meta` clientInfo): self-declared, so an anonymous
 * caller can dodge it by renaming itself; for untrusted anonymous traffic, limit at the network edge too or give
 * `key`. Throws `TypeError`/`RangeError` at construction for bad options.
 */
export function rateLimit(options: RateLimitOptions): ServerMiddleware {
  if (typeof options !== 'object' || options === null) throw argumentError('options', 'an object', options);
  const capacity = positiveInteger(options.requests, 'requests');
  const perMs = positiveInteger(options.perMs, 'perMs');
  const key = options.key ?? principalKey;
  if (typeof key !== 'function') throw argumentError('key', 'a function', key);
  const store = options.store ?? memoryRateLimitStore();
  if (typeof store?.take !== 'function') throw argumentError('store', 'a RateLimitStore { take }', store);
  const methods = options.methods === undefined ? undefined : new Set(options.methods);
  const rule: BucketRule = { capacity, perMs };
  return async (ctx, next) => {
    if (methods !== undefined && !methods.has(ctx.method)) return next();
    const bucket = key(ctx);
    if (bucket === undefined) return next();
    const decision = await store.take(bucket, rule);
    if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
    return next();
  };
}

/**
 * The default key of {@link rateLimit}: `principal:` and the principal's JSON (a token-only principal as the
 * SHA-256 of its token, so no credential is written into a shared store's key names), `anonymous:` and the
 * client's self-declared name (cut to 256 characters), or `unidentified` for an `auth` that names nobody (one
 * bucket for all of them, never a free pass).
 */
export function principalKey(ctx: ServerMiddlewareContext): string {
  const principal = ctx.principal;
  if (principal === undefined) return 'unidentified';
  if (principal !== null) {
    return 'token' in principal
      ? `principal:token-sha256:${bytesToHex(sha256(utf8ToBytes(principal.token)))}`
      : `principal:${JSON.stringify(principal)}`;
  }
  const info = ctx.meta[MetaKey.clientInfo];
  const name = typeof info === 'object' && info !== null ? (info as { name?: unknown }).name : undefined;
  return `anonymous:${typeof name === 'string' ? name.slice(0, 256) : ''}`;
}

/** Options of {@link memoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most keys kept (default 10,000). Beyond it, a new key drops the bucket used longest ago only if that bucket
   * has refilled (dropping it loses nothing); when none has, the new key is refused (`retryAfterMs` until the
   * oldest refills) rather than reset a drained caller's bucket.
   */
  readonly maxKeys?: number | undefined;
  /** The time in epoch ms; for tests. Default `Date.now`. */
  readonly clock?: (() => number) | undefined;
}

/**
 * Token buckets in this process's memory, at most `maxKeys` of them, each check O(1). Only refilled buckets are
 * dropped to make room (least recently used first), so a flood of new keys cannot reset a drained caller's bucket:
 * while every kept bucket is still draining, requests under new keys are refused instead. For one instance; a
 * fleet shares a store (`redisRateLimitStore` of `@boomerang/redis`) so a caller's requests count wherever the
 * load balancer sends them.
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = positiveInteger(options.maxKeys ?? 10_000, 'maxKeys');
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') throw argumentError('clock', 'a function', clock);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, { capacity, perMs }) {
      const now = clock();
      const known = buckets.get(key);
      let tokens = capacity;
      if (known !== undefined) {
        buckets.delete(key);
        tokens = Math.min(capacity, known.tokens + ((now - known.at) * capacity) / perMs);
      } else if (buckets.size >= maxKeys) {
        // Room for a new key only by dropping a bucket that has refilled: the oldest is the likeliest.
        const oldest = buckets.entries().next();
        if (oldest.done !== true) {
          const [oldestKey, bucket] = oldest.value;
          const refilledIn = ((capacity - bucket.tokens) * perMs) / capacity - (now - bucket.at);
          if (refilledIn > 0) return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(refilledIn)) };
          buckets.delete(oldestKey);
        }
      }
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      buckets.set(key, { tokens, at: now });
      // Whole ms, rounded up (less a float's dust, so 0.995 of a token 1 ms before the refill reads 1 ms).
      return { allowed, retryAfterMs: allowed ? 0 : Math.ceil(((1 - tokens) * perMs) / capacity - 1e-9) };
    },
  };
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number') throw argumentError(name, 'a positive integer', value);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * The `McpError` of a refused request: `ErrorCode.RateLimited` (`-32029`) with `data.retryAfterMs` (≥ 1, whole
 * ms), for limits enforced elsewhere that should read the same to clients. Like HTTP's 429, it says the request
 * was not performed, and `@boomerang/client` sends it again after the wait: throw it before a handler acts, never
 * after a side effect (the retry would repeat it).
 */
export function rateLimited(retryAfterMs: number): McpError {
  const ms = Math.max(1, Math.ceil(retryAfterMs));
  return new McpError(ErrorCode.RateLimited, `Rate limit exceeded: retry in ${ms} ms`, { retryAfterMs: ms });
}
