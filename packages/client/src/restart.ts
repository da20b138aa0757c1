// `restartOnInvalidState`: when a server refuses a flow's `requestState` (its keys were rotated away, the state
// expired, an instance lost its key), the flow can start over from its first round instead of failing. Opt-in and
// bounded, because a restart asks the callbacks (the user) again and runs the handler again from scratch.
import { argumentError, McpError, type Tool } from '@boomerang/protocol';

/** The client option (see `ClientOptions.restartOnInvalidState`). */
export type RestartOption = boolean | { readonly maxRestarts?: number | undefined } | undefined;

/** Most restarts the option may allow per call. */
export const MAX_RESTARTS = 10;

/**
 * Restarts allowed per call by the client option: `0` (off) when absent or `false`, `1` for `true`, else
 * `maxRestarts` (default 1). Throws `TypeError` for another type, `RangeError` for a count outside 1…10.
 */
export function restartsAllowed(option: RestartOption): number {
  if (option === undefined || option === false) return 0;
  if (option === true) return 1;
  if (typeof option !== 'object' || option === null) {
    throw argumentError('restartOnInvalidState', 'a boolean or { maxRestarts }', option);
  }
  const { maxRestarts = 1 } = option;
  if (!Number.isSafeInteger(maxRestarts) || maxRestarts < 1 || maxRestarts > MAX_RESTARTS) {
    throw new RangeError(
      `"restartOnInvalidState.maxRestarts" expected an integer in 1…${MAX_RESTARTS}, got ${String(maxRestarts)}`,
    );
  }
  return maxRestarts;
}

/** True for the server's `-32602` refusing a `requestState` (Boomerang's servers: "Invalid or expired requestState"). */
export function isStateRefusal(error: unknown): error is McpError {
  return error instanceof McpError && error.code === -32602 && /requestState/i.test(error.message);
}

/**
 * What the client knows of each tool's hints, from the `tools/list` results it received: a tool is *repeatable*
 * when it says `readOnlyHint: true` or `idempotentHint: true` (running it again does no further harm).
 */
export class ToolHints {
  readonly #repeatable = new Map<string, boolean>();

  /** Records the hints of a page of `tools/list`. */
  learn(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const hints = tool.annotations;
      this.#repeatable.set(tool.name, hints?.readOnlyHint === true || hints?.idempotentHint === true);
    }
  }

  /** True when the last `tools/list` said the tool is read-only or idempotent. */
  repeatable(name: string): boolean {
    return this.#repeatable.get(name) === true;
  }
}

/** One refusal of a flow's state, as the client sees it. */
export interface Refusal {
  readonly method: string;
  /** The tool's or prompt's name (`tools/call`, `prompts/get`). */
  readonly name?: string | undefined;
  /** The refused request carried a `requestState` (a round after the first). */
  readonly carriedState: boolean;
  /** Restarts this call already made. */
  readonly restarts: number;
  /** The call's own `restartOnInvalidState`: `true` marks it safe to restart, `false` forbids it. */
  readonly marked: boolean | undefined;
}

/**
 * Whether a refused flow starts over from its first round. Only when all of these hold:
 *
 * 1. the client has the option on (`allowed` > 0), or the call marked itself safe (`marked: true`, then one
 *    restart unless the option allows more), and the call did not say `false`;
 * 2. the refused request carried a `requestState` (round 2 or later: there was state to refuse);
 * 3. the call has restarts left;
 * 4. the flow is safe to run again from scratch: a read (`prompts/get`, `resources/read`), a tool whose last
 *    `tools/list` said `readOnlyHint` or `idempotentHint`, or a call marked safe. The refused request may have
 *    been the final one, the one that acts (the client cannot know), so a tool that may act differently when
 *    run twice, or any custom method, is never restarted unless the call says it is safe.
 */
export function shouldRestart(refusal: Refusal, allowed: number, hints: ToolHints): boolean {
  if (refusal.marked === false || !refusal.carriedState) return false;
  const budget = refusal.marked === true ? Math.max(allowed, 1) : allowed;
  if (refusal.restarts >= budget) return false;
  if (refusal.marked === true) return true;
  switch (refusal.method) {
    case 'prompts/get':
    case 'resources/read':
      return true;
    case 'tools/call':
      return refusal.name !== undefined && hints.repeatable(refusal.name);
    default:
      return false;
  }
}

/** What one attempt of a flow reports to {@link withRestarts}: whether its last request carried a `requestState`. */
export interface AttemptTrace {
  carriedState: boolean;
}

/** What {@link withRestarts} needs to know of the call. */
export interface RestartPolicy {
  readonly method: string;
  /** The tool's or prompt's name. */
  readonly name: string | undefined;
  /** Restarts the client option allows (see {@link restartsAllowed}). */
  readonly allowed: number;
  /** The call's own `restartOnInvalidState`. */
  readonly marked: boolean | undefined;
  readonly hints: ToolHints;
  /** The call's time limit, shared by every attempt. */
  readonly timeoutMs: number | undefined;
}

/**
 * A call step: runs `attempt` (the whole flow, from its first round, within `timeoutMs` left of the call's limit)
 * and, when the server refuses the flow's state and {@link shouldRestart} allows it, runs it again from its first
 * round. The attempt reports in its `trace` whether its refused request carried state.
 */
export async function withRestarts<R>(
  attempt: (timeoutMs: number | undefined, trace: AttemptTrace) => Promise<R>,
  policy: RestartPolicy,
): Promise<R> {
  const started = performance.now();
  for (let restarts = 0; ; restarts++) {
    const { timeoutMs } = policy;
    const left = timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (performance.now() - started));
    const trace: AttemptTrace = { carriedState: false };
    try {
      return await attempt(left, trace);
    } catch (error) {
      const refusal: Refusal = {
        method: policy.method,
        name: policy.name,
        carriedState: trace.carriedState,
        restarts,
        marked: policy.marked,
      };
      if (!isStateRefusal(error) || !shouldRestart(refusal, policy.allowed, policy.hints)) throw error;
    }
  }
}
