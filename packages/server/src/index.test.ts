import type { TaskStatusNotification } from '@boomerang/protocol/tasks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  BusNotificationOptions,
  CacheHints,
  CacheOptions,
  CacheScope,
  ConnectOptions,
  ExtensionResult,
  ExtensionSubscriptions,
  Handler,
  HandlerResult,
  LegacyOptions,
  LogFn,
  Logger,
  MaybePromise,
  MethodDefinition,
  MethodResult,
  NotificationBus,
  NotificationBusEvents,
  NotificationSource,
  OpenedState,
  PrincipalBinder,
  RateLimitDecision,
  RateLimitOptions,
  RateLimitStore,
  RequestContext,
  RequestStateBinding,
  RequestStateEnvelope,
  ResultTypeDefinition,
  SealedOptions,
  ServerConnection,
  ServerExtension,
  ServerHandlers,
  ServerMiddleware,
  ServerMiddlewareContext,
  ServerOptions,
  SharedNotificationSource,
  StateFrame,
  SubscribeOptions,
  SubscriptionListener,
  SubscriptionNotification,
  Unsubscribe,
} from './index.js';
import * as api from './index.js';

describe('@boomerang/server', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MAX_CARRIED_BYTES',
      'Server',
      'busNotificationSource',
      'createNotificationHub',
      'defineMethod',
      'memoryRateLimitStore',
      'missingClientCapabilities',
      'notificationMatches',
      'principalKey',
      'rateLimit',
      'rateLimited',
      'sealed',
    ]);
  });

  it('exports its public types (checked by the typechecker)', () => {
    expectTypeOf<ServerOptions>().toExtend<ServerHandlers>();
    expectTypeOf<CacheOptions>().toExtend<CacheHints>();
    expectTypeOf<CacheScope>().toEqualTypeOf<'public' | 'private'>();
    expectTypeOf<ReturnType<typeof api.sealed>>().toEqualTypeOf<RequestStateEnvelope>();
    expectTypeOf<Parameters<typeof api.sealed>[0]>().toEqualTypeOf<SealedOptions>();
    expectTypeOf<Parameters<RequestStateEnvelope['open']>[1]>().toEqualTypeOf<RequestStateBinding>();
    expectTypeOf<Awaited<ReturnType<api.Server['connect']>>>().toEqualTypeOf<ServerConnection>();
    expectTypeOf<Parameters<api.Server['connect']>[1]>().toEqualTypeOf<ConnectOptions | undefined>();
    expectTypeOf<Handler<number, string>>().toEqualTypeOf<
      (params: number, ctx: RequestContext) => MaybePromise<string>
    >();
    expectTypeOf<HandlerResult<{ resultType: 'complete'; a: 1 }>>().toExtend<{
      a: 1;
      resultType?: 'complete';
    }>();
    expectTypeOf<Logger['warn']>().toEqualTypeOf<LogFn | undefined>();
    expectTypeOf<Parameters<api.Server['use']>[0]>().toEqualTypeOf<ServerMiddleware>();
    expectTypeOf<Parameters<ServerMiddleware>[0]>().toEqualTypeOf<ServerMiddlewareContext>();
    expectTypeOf<ReturnType<typeof api.rateLimit>>().toEqualTypeOf<ServerMiddleware>();
    expectTypeOf<Parameters<typeof api.rateLimit>[0]>().toEqualTypeOf<RateLimitOptions>();
    expectTypeOf<ReturnType<RateLimitStore['take']>>().toEqualTypeOf<
      RateLimitDecision | Promise<RateLimitDecision>
    >();
    expectTypeOf<Parameters<RequestStateEnvelope['seal']>[2]>().toEqualTypeOf<StateFrame | undefined>();
    expectTypeOf<OpenedState['frame']>().toEqualTypeOf<StateFrame>();
    expectTypeOf<ReturnType<typeof api.createNotificationHub>>().toEqualTypeOf<NotificationSource>();
    expectTypeOf<ServerOptions['notifications']>().toEqualTypeOf<NotificationSource | undefined>();
    expectTypeOf<Parameters<NotificationSource['subscribe']>[1]>().toEqualTypeOf<SubscriptionListener>();
    expectTypeOf<Parameters<NotificationSource['subscribe']>[2]>().toEqualTypeOf<
      SubscribeOptions | undefined
    >();
    expectTypeOf<ReturnType<typeof api.busNotificationSource>>().toEqualTypeOf<SharedNotificationSource>();
    expectTypeOf<Parameters<typeof api.busNotificationSource>[0]>().toEqualTypeOf<NotificationBus>();
    expectTypeOf<Parameters<typeof api.busNotificationSource>[1]>().toEqualTypeOf<BusNotificationOptions>();
    expectTypeOf<Parameters<NotificationBus['open']>[0]>().toEqualTypeOf<NotificationBusEvents>();
    expectTypeOf<SubscriptionListener>().parameter(0).toEqualTypeOf<SubscriptionNotification>();
    expectTypeOf<Unsubscribe>().toEqualTypeOf<() => void>();
    expectTypeOf<SealedOptions['bindPrincipal']>().toEqualTypeOf<boolean | PrincipalBinder | undefined>();
    expectTypeOf<ServerOptions['legacy']>().toEqualTypeOf<boolean | LegacyOptions | undefined>();
    expectTypeOf<ServerOptions['methods']>().toEqualTypeOf<
      Readonly<Record<string, MethodDefinition>> | undefined
    >();
    expectTypeOf<ServerExtension['resultTypes']>().toEqualTypeOf<
      Readonly<Record<string, ResultTypeDefinition>> | undefined
    >();
    expectTypeOf<ServerExtension['subscriptions']>().toEqualTypeOf<ExtensionSubscriptions | undefined>();
    expectTypeOf<ReturnType<ExtensionSubscriptions['attach']>>().toEqualTypeOf<Unsubscribe>();
    expectTypeOf<TaskStatusNotification>().toExtend<SubscriptionNotification>();
    expectTypeOf<ReturnType<MethodDefinition['handler']>>().toExtend<unknown>();
    expectTypeOf<MethodResult>().toExtend<Record<string, unknown>>();
    expectTypeOf<{ resultType: 'task'; taskId: string }>().toExtend<ExtensionResult>();
    expectTypeOf<ExtensionResult>().toExtend<
      Awaited<ReturnType<NonNullable<ServerHandlers['onCallTool']>>>
    >();
  });
});
