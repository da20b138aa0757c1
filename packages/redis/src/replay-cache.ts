// The DPoP replay cache of a fleet on Redis: one `SET key 1 NX PX <ttl>` per proof, atomic across every instance.
import { argumentError } from '@boomerang/protocol';

/**
 * A connected node-redis client (`createClient()` of `redis` v5 or v6), as far as {@link redisReplayCache} uses it:
 * `set` with an expiration and a condition.
 */
export interface RedisReplayClientLike {
  set(
    key: string,
    value: string,
    options: {
      readonly expiration: { readonly type: 'PX'; readonly value: number };
      readonly condition: 'NX';
    },
  ): Promise<unknown>;
}

/** Options of {@link redisReplayCache}. */
export interface RedisReplayCacheOptions {
  /**
   * Prepended to every key (default `boomerang:dpop:`): instances that share a Redis and a prefix share what they
   * accepted. Give one per deployment whose proofs must not meet.
   */
  readonly prefix?: string | undefined;
  /** The time in epoch milliseconds, to turn `expiresAt` into a time to live. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * What {@link redisReplayCache} returns: the `DpopReplayCache` of `@boomerang/auth` (typed here by its shape, so
 * this package does not depend on that one): `true` for a key never seen (now recorded), `false` for a replay,
 * `'window'` for a key already expired (the verifier refuses those on `iat` before asking).
 */
export interface RedisReplayCache {
  remember(key: string, expiresAt: number): Promise<boolean | 'window'>;
}

/**
 * The DPoP replay cache for a fleet (`dpopVerifier({ replay: redisReplayCache(client) })` of `@boomerang/auth/jwt` on
 * every instance): each accepted proof is one Redis key, written with `SET <prefix><key> 1 NX PX <ms until
 * expiresAt>`. The write is the check, atomically: when instances race on one proof, Redis lets one `SET` through
 * and answers the others `nil`, so the proof is accepted once in the whole fleet. Redis drops each key when its proof
 * expires; nothing is swept by hand.
 *
 * - `client` is yours, connected, with your `'error'` handler; it is never closed for you. A failed or refused
 *   command rejects, and the verifier's caller answers 500: a proof is never accepted unchecked.
 * - The guarantee holds while Redis keeps its keys until they expire: run it with `maxmemory-policy noeviction`
 *   (Redis's default: a full Redis then refuses writes, failing closed) rather than a policy that evicts keys with
 *   a TTL, and know that a failover to a replica that had not yet received a key forgets it.
 * - Instances' clocks must agree within the verifier's `clockSkewSeconds`: the time to live is counted from this
 *   instance's clock.
 *
 * Throws `TypeError` for a `client` without `set`, a `prefix` that is not a string or a `now` that is not a
 * function.
 */
export function redisReplayCache(
  client: RedisReplayClientLike,
  options: RedisReplayCacheOptions = {},
): RedisReplayCache {
  if (typeof client !== 'object' || client === null || typeof client.set !== 'function') {
    throw argumentError('client', 'a node-redis client (createClient() of the `redis` package)', client);
  }
  const { prefix = 'boomerang:dpop:', now = Date.now } = options ?? {};
  if (typeof prefix !== 'string') throw argumentError('prefix', 'a string', prefix);
  if (typeof now !== 'function') throw argumentError('now', 'a function', now);
  return {
    async remember(key, expiresAt) {
      if (typeof key !== 'string') throw argumentError('key', 'a string', key);
      if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) {
        throw argumentError('expiresAt', 'a finite number of epoch seconds', expiresAt);
      }
      const ttl = Math.ceil(expiresAt * 1000 - now());
      if (ttl <= 0) return 'window';
      const reply = await client.set(`${prefix}${key}`, '1', {
        expiration: { type: 'PX', value: ttl },
        condition: 'NX',
      });
      return reply !== null && reply !== undefined && String(reply) === 'OK'; // NX refused: nil
    },
  };
}
