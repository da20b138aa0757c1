import type { SharedNotificationSource } from '@boomerang/server';
import type { createClient } from 'redis';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RedisClientLike, RedisNotificationsOptions, RedisSubscriberLike } from './index.js';
import * as api from './index.js';

describe('@boomerang/redis', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual(['redisNotifications']);
  });

  it('exports its public types, and takes a node-redis client as it is (checked by the typechecker)', () => {
    expectTypeOf<ReturnType<typeof api.redisNotifications>>().toEqualTypeOf<SharedNotificationSource>();
    expectTypeOf<Parameters<typeof api.redisNotifications>[1]>().toEqualTypeOf<RedisNotificationsOptions>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClientLike>();
    expectTypeOf<ReturnType<RedisClientLike['duplicate']>>().toEqualTypeOf<RedisSubscriberLike>();
  });
});
