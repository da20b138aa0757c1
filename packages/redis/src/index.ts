// @boomerang/redis: Boomerang's fleet-wide state on Redis: the notification bus over pub/sub, a shared
// NotificationSource for every instance, the DPoP replay cache every instance checks proofs against, and the
// rate-limit buckets every instance takes from.
export {
  type RedisClientLike,
  type RedisNotificationsOptions,
  type RedisSubscriberLike,
  redisNotifications,
} from './notifications.js';
export {
  type RedisCommandClientLike,
  type RedisRateLimitStoreOptions,
  redisRateLimitStore,
} from './rate-limit-store.js';
export {
  type RedisReplayCache,
  type RedisReplayCacheOptions,
  type RedisReplayClientLike,
  redisReplayCache,
} from './replay-cache.js';
