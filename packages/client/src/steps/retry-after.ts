// Waiting out a server's rate limit: a request answered -32029 with data.retryAfterMs is sent again once that time
// has passed, a few times, within the call's time limit. The refused request never reached a handler, so sending
// it again (same params, same answers, same state) is safe.
import { ErrorCode, McpError } from '@boomerang/protocol';
import type { RoundStep } from '../middleware.js';
import type { RoundContext } from '../round-context.js';

/** Most times one request is sent again after a rate limit. */
export const RATE_LIMIT_RETRIES = 3;

/** The longest wait a rate limit may ask for before the client gives up instead (ms). */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * A round step: a `-32029` (`ErrorCode.RateLimited`) with `data.retryAfterMs` is retried after that wait, at most
 * {@link RATE_LIMIT_RETRIES} times and only when the wait is at most {@link MAX_RATE_LIMIT_WAIT_MS} and ends before
 * the call's deadline (`ctx.deadline`); otherwise the error goes to the caller as is. `sleep` must reject when its
 * signal aborts (the call's abort or time limit). A `-32029` says, like HTTP's 429, that the request was not
 * performed, which is what makes resending it safe; a server that answers it after acting breaks that contract.
 */
export function retryAfterRateLimit(
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): RoundStep<RoundContext> {
  return async (ctx, next) => {
    for (let retries = 0; ; retries++) {
      try {
        return await next();
      } catch (error) {
        const wait = retryAfterOf(error);
        const until = ctx.deadline;
        if (
          wait === undefined ||
          retries >= RATE_LIMIT_RETRIES ||
          wait > MAX_RATE_LIMIT_WAIT_MS ||
          (until !== undefined && Date.now() + wait >= until)
        ) {
          throw error;
        }
        await sleep(wait, ctx.signal ?? new AbortController().signal);
      }
    }
  };
}

/** The wait a rate-limit error asks for, in ms; `undefined` for any other error. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.RateLimited) return undefined;
  const ms = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
