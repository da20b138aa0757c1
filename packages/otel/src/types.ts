// The middleware shapes this package returns, stated structurally: `ServerMiddleware` of @boomerang/server and
// `ClientMiddleware` of @boomerang/client accept them, and this package imports neither.
import type { Result } from '@boomerang/protocol';

/** What `serverTelemetry` reads of `ServerMiddlewareContext` (@boomerang/server). */
export interface ServerContextLike {
  readonly requestId: string | number;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string | undefined;
  readonly round: number;
  readonly carried: Readonly<Record<string, string>>;
  readonly stateRefusal: string | undefined;
  carry(key: string, value: string): void;
}

/** A server middleware (`ServerMiddleware` of @boomerang/server). */
export type ServerMiddlewareLike = (ctx: ServerContextLike, next: () => Promise<Result>) => Promise<Result>;

/** The instrumentation scope every tracer and meter of this package uses. */
export const INSTRUMENTATION = { name: '@boomerang/otel', version: '0.0.0' } as const;

/** What `clientTelemetry` reads of `ClientCallContext` (@boomerang/client). */
export interface ClientCallContextLike {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly carried: Readonly<Record<string, string>>;
  carry(key: string, value: string): void;
  readonly state: Map<unknown, unknown>;
  onSettled(
    listener: (outcome: {
      readonly result?: unknown;
      readonly paused?: true | undefined;
      readonly error?: unknown;
    }) => void,
  ): void;
}

/** What `clientTelemetry` reads of `ClientMiddlewareContext` (@boomerang/client). */
export interface ClientContextLike {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly round: number;
  readonly meta: Record<string, unknown>;
  readonly protocolVersion: string;
  readonly call: ClientCallContextLike;
}

/** A client middleware (`ClientMiddleware` of @boomerang/client). */
export type ClientMiddlewareLike = (ctx: ClientContextLike, next: () => Promise<Result>) => Promise<Result>;
