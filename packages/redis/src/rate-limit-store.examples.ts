// The Operating guide's fleet-wide rate limit: quoted from the region; run by rate-limit-store.test.ts.
import { McpServer, rateLimit } from '@boomerang/mcp-server';
import { type RedisCommandClientLike, redisRateLimitStore } from './index.js';

/** One instance of a fleet whose callers are limited wherever their requests land. */
export function limitedInstance(redis: RedisCommandClientLike): McpServer {
  // #region fleet-limit
  const mcp = new McpServer({ name: 'bookshop', version: '1.0.0' });
  // Every instance takes from the same bucket per principal, on the shared Redis.
  mcp.use(rateLimit({ requests: 100, perMs: 60_000, store: redisRateLimitStore(redis) }));
  // #endregion fleet-limit
  return mcp;
}
