// The README's DPoP replay cache example (replay-cache.test.ts runs two of these instances racing on one proof, and
// checks the README quotes it).
import { dpopVerifier } from '@boomerang/auth/jwt';
import { createClient } from 'redis';
import { redisReplayCache } from './index.js';

/** The DPoP verifier of one instance of a fleet behind `https://mcp.example.com`, sharing the Redis at `url`. */
export async function fleetDpopVerifier(url: string) {
  // #region replay
  const redis = createClient({ url });
  redis.on('error', (error) => console.error('redis', error));
  await redis.connect();

  const dpop = dpopVerifier({
    origins: ['https://mcp.example.com'], // what the proofs' htu must name, whatever Host a request claims
    replay: redisReplayCache(redis), // one SET NX PX per proof: accepted once in the whole fleet
  });
  // bearerAuth({ verify, resourceMetadata, dpop, dpopRequired: true }) on every instance
  // #endregion replay
  return { dpop, close: () => redis.close() };
}
