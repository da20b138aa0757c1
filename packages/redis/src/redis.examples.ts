// Examples quoted into README.md (redis.examples.test.ts runs them against a real Redis and checks the README
// quotes them).
import { McpServer } from '@boomerang/mcp-server';
import { createClient } from 'redis';
import { redisNotifications } from './index.js';

/** One instance of a fleet: its server publishes into, and listens on, the Redis at `url`. */
export async function fleetInstance(url: string) {
  // #region instance
  const redis = createClient({ url });
  redis.on('error', (error) => console.error('redis', error));
  await redis.connect();

  const notifications = redisNotifications(redis);
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
