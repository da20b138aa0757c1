// @boomerang/redis: the notification bus of Boomerang over Redis pub/sub, a shared NotificationSource for every
// instance of a fleet.
export {
  type RedisClientLike,
  type RedisNotificationsOptions,
  type RedisSubscriberLike,
  redisNotifications,
} from './notifications.js';
