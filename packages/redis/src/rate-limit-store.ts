// The rate-limit buckets of a fleet on Redis: one hash per key, taken from by a Lua script, so two instances never
// both take the last token, and every instance counts a caller's requests wherever the load balancer sends them.
import { argumentError } from '@boomerang/protocol';
import type { BucketRule, RateLimitDecision, RateLimitStore } from '@boomerang/server';

/** A connected node-redis client (`createClient()` of `redis` v5 or v6), as far as this file uses it. */
export interface RedisCommandClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of {@link redisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** Prepended to every bucket key (default `boomerang:ratelimit:`); one per deployment whose limits must not meet. */
  readonly prefix?: string | undefined;
}

/**
 * The token bucket, atomically: refilled from the time Redis itself tells (`TIME`, one clock for the whole fleet),
 * one token taken when there is one, the bucket kept only as long as it takes to refill (`PEXPIRE`). Returns
 * `{allowed (0|1), retryAfterMs}`.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local capacity = tonumber(ARGV[1])
local per = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * capacity / per)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * per / capacity - 0.000001)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(per))
return {allowed, retry}
`;

/**
 * The `RateLimitStore` of `rateLimit()` (`@boomerang/server`) for a fleet: `rateLimit({ requests, perMs, store:
 * redisRateLimitStore(client) })` on every instance, and a caller's requests count against one bucket wherever
 * they land. Each check is one round trip (`EVALSHA` of a small script; `EVAL` the first time a Redis sees it).
 *
 * - `client` is yours, connected, with your `'error'` handler; never closed for you. A failed command rejects, and
 *   the request it checked answers `-32603`: a limit never silently stops applying.
 * - Time is Redis's (`TIME`), so instances' clocks need not agree. A bucket's key expires once it would be full
 *   again, so idle callers cost no memory.
 *
 * Throws `TypeError` for a `client` without `sendCommand` or a `prefix` that is not a string.
 */
export function redisRateLimitStore(
  client: RedisCommandClientLike,
  options: RedisRateLimitStoreOptions = {},
): RateLimitStore {
  if (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function') {
    throw argumentError('client', 'a node-redis client (createClient() of the `redis` package)', client);
  }
  const { prefix = 'boomerang:ratelimit:' } = options ?? {};
  if (typeof prefix !== 'string') throw argumentError('prefix', 'a string', prefix);
  let sha: string | undefined;
  const run = async (key: string, rule: BucketRule): Promise<unknown> => {
    const args = ['1', `${prefix}${key}`, String(rule.capacity), String(rule.perMs)];
    if (sha !== undefined) {
      try {
        return await client.sendCommand(['EVALSHA', sha, ...args]);
      } catch (error) {
        if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      }
    }
    sha = String(await client.sendCommand(['SCRIPT', 'LOAD', TAKE]));
    return await client.sendCommand(['EVALSHA', sha, ...args]);
  };
  return {
    async take(key, rule): Promise<RateLimitDecision> {
      const reply = await run(key, rule);
      if (!Array.isArray(reply) || reply.length !== 2) {
        throw new Error('the rate-limit script answered something other than [allowed, retryAfterMs]');
      }
      const allowed = Number(reply[0]) === 1;
      return { allowed, retryAfterMs: allowed ? 0 : Math.max(1, Number(reply[1])) };
    },
  };
}
