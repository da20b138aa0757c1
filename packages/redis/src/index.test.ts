import type { DpopReplayCache } from '@boomerang/auth/jwt';
import type { RateLimitStore, SharedNotificationSource } from '@boomerang/server';
import type { createClient } from 'redis';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  RedisClientLike,
  RedisCommandClientLike,
  RedisNotificationsOptions,
  RedisReplayCache,
  RedisReplayCacheOptions,
  RedisReplayClientLike,
  RedisSubscriberLike,
} from './index.js';
import * as api from './index.js';

describe('@boomerang/redis', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'redisNotifications',
      'redisRateLimitStore',
      'redisReplayCache',
    ]);
  });

  it('exports its public types, and takes a node-redis client as it is (checked by the typechecker)', () => {
    expectTypeOf<ReturnType<typeof api.redisNotifications>>().toEqualTypeOf<SharedNotificationSource>();
    expectTypeOf<Parameters<typeof api.redisNotifications>[1]>().toEqualTypeOf<RedisNotificationsOptions>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClientLike>();
    expectTypeOf<ReturnType<RedisClientLike['duplicate']>>().toEqualTypeOf<RedisSubscriberLike>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisCommandClientLike>();
    expectTypeOf<ReturnType<typeof api.redisRateLimitStore>>().toEqualTypeOf<RateLimitStore>();
  });

  it("redisReplayCache is @boomerang/auth's DpopReplayCache by shape, over a node-redis client as it is", () => {
    expectTypeOf<ReturnType<typeof api.redisReplayCache>>().toEqualTypeOf<RedisReplayCache>();
    expectTypeOf<RedisReplayCache>().toExtend<DpopReplayCache>();
    expectTypeOf<Parameters<typeof api.redisReplayCache>[1]>().toEqualTypeOf<
      RedisReplayCacheOptions | undefined
    >();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisReplayClientLike>();
  });
});
