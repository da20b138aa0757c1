// Examples quoted into README.md (redis.examples.test.ts runs them against a real Redis and checks the README
// quotes them).
import { McpServer } from '@boomerang/mcp-server';
import { createClient } from 'redis';
import { redisNotifications } from './index.js';

/**
 * One instance of a fleet: its server publishes into, and listens on, the Redis at `url`. `keys` are the fleet's
 * shared operator secrets (`parseKeys(process.env.SEAL_KEYS)` of `@boomerang/seal`, the same on every instance).
 */
export async function fleetInstance(url: string, keys: readonly Uint8Array[]) {
  // #region instance
  const redis = createClient({ url });
  redis.on('error', (error) => console.error('redis', error));
  await redis.connect();

  // Sealed under the fleet's keys: whoever else can PUBLISH on this Redis cannot make an instance deliver anything.
  const notifications = redisNotifications(redis, { keys });
  const mcp = new McpServer({ name: 'bookshop', version: '1.0.0' }, { notifications });
  // A tool registered here announces tools/list_changed to the listen streams of every instance.
  // #endregion instance
  return {
    mcp,
    async close() {
      // #region close
      await mcp.close(); // ends this instance's listen streams
      await notifications.close(); // closes its subscriber connection
      await redis.close(); // your client: yours to close
      // #endregion close
    },
  };
}
