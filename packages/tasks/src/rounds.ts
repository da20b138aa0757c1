// A task's rounds, run in the background on whichever instance holds the task: each calls the wrapped handler as
// a request of the task's origin would, until the task asks, ends or is stopped, while the runner renews its lease.
// A lease that ran out with no runner left is an interrupted task, failed or run again when next read.
import {
  argumentError,
  type CallToolRequestParams,
  ErrorCode,
  type InputRequests,
  type InputResponses,
  isLoggingLevel,
  McpError,
} from '@boomerang/protocol';
import type { MaybePromise, RequestContext } from '@boomerang/server';
import { classify, failure, type Outcome, settle } from './outcome.js';
import { isTerminal, type TaskError } from './schema.js';
import { type CallToolHandler, define, mutate, type TaskRuntime } from './state.js';
import type { TaskRecord } from './store.js';

/** The `failed` error of a task whose runner stopped before it finished. */
export const INTERRUPTED: TaskError = {
  code: ErrorCode.InternalError,
  message: 'Task interrupted: the server running it stopped before it finished',
};

/** State-only rounds (no questions) a task may chain before it is failed as a runaway. */
const MAX_STATE_ROUNDS = 10;

/** Starts running `record`'s next round on this instance, in the background. */
export function start(runtime: TaskRuntime, record: TaskRecord): void {
  const controller = new AbortController();
  const done = drive(runtime, record, controller.signal)
    .catch((failure: unknown) =>
      runtime.error(`task ${record.taskId}: its round failed to settle`, { failure }),
    )
    .finally(() => runtime.running.delete(record.taskId));
  runtime.running.set(record.taskId, { controller, done });
}

/** A `working` task whose lease ran out and that no round here runs: fail it, or run it again here. */
export async function recover(runtime: TaskRuntime, record: TaskRecord): Promise<TaskRecord> {
  const { running } = runtime;
  const now = runtime.clock();
  const lapsed = (r: TaskRecord) =>
    r.status === 'working' && r.leaseUntil !== null && r.leaseUntil < now && !running.has(r.taskId);
  if (!lapsed(record)) return record;
  if (runtime.interrupted === 'rerun' && runtime.handler !== undefined) {
    let claimed = false;
    const after = await mutate(
      runtime,
      record.taskId,
      (r) => {
        claimed = lapsed(r);
        return claimed ? { leaseUntil: now + runtime.leaseMs } : undefined;
      },
      false,
    );
    if (claimed && after !== undefined && !running.has(after.taskId)) start(runtime, after);
    return after ?? record;
  }
  const after = await mutate(runtime, record.taskId, (r) =>
    lapsed(r)
      ? { status: 'failed', error: INTERRUPTED, statusMessage: INTERRUPTED.message, leaseUntil: null }
      : undefined,
  );
  return after ?? record;
}

/** Waits until no round runs on this instance (rounds started meanwhile included). */
export async function settled(runtime: TaskRuntime): Promise<void> {
  const { running } = runtime;
  while (running.size > 0) await Promise.allSettled([...running.values()].map((run) => run.done));
}

/** Runs rounds of one task until it asks, ends, or is stopped; renews its lease meanwhile. */
async function drive(runtime: TaskRuntime, first: TaskRecord, signal: AbortSignal): Promise<void> {
  const renew = renewLease(runtime, first.taskId);
  try {
    let record = first;
    for (let stateRounds = 0; ; stateRounds++) {
      const outcome = await invoke(runtime, record, signal);
      if (outcome === undefined || signal.aborted) return;
      if (outcome.kind === 'input' && isEmpty(outcome.inputRequests)) {
        // A state-only round: run again at once with the new state.
        const state = outcome.requestState;
        const next = await mutate(runtime, record.taskId, (r) =>
          r.status !== 'working'
            ? undefined
            : stateRounds + 1 >= MAX_STATE_ROUNDS
              ? failure({
                  code: ErrorCode.InternalError,
                  message: `Task made ${MAX_STATE_ROUNDS} rounds without asking or finishing`,
                })
              : { requestState: state, inputResponses: undefined },
        );
        if (next === undefined || next.status !== 'working') return;
        record = next;
        continue;
      }
      await mutate(runtime, record.taskId, (r) => (r.status !== 'working' ? undefined : settle(r, outcome)));
      return;
    }
  } finally {
    clearInterval(renew);
  }
}

/**
 * Renews the lease of the `working` task `taskId` every third of the lease, on a timer that does not keep the
 * process alive; stops its round when the task is gone or ended (another instance cancelled it).
 */
function renewLease(runtime: TaskRuntime, taskId: string): ReturnType<typeof setInterval> {
  const { leaseMs } = runtime;
  const renew = setInterval(
    () => {
      mutate(
        runtime,
        taskId,
        (r) => (r.status === 'working' ? { leaseUntil: runtime.clock() + leaseMs } : undefined),
        false,
      )
        .then((r) => {
          if (r === undefined || isTerminal(r.status)) runtime.running.get(taskId)?.controller.abort();
        })
        .catch((failure: unknown) => runtime.warn(`task ${taskId}: lease renewal failed`, { failure }));
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  // Plain numbers where timers are (browsers): nothing to unref there.
  if (typeof renew === 'object' && 'unref' in renew && typeof renew.unref === 'function') renew.unref();
  return renew;
}

/**
 * Calls the wrapped handler once for `record`'s current round, as a request of the task's origin would;
 * `undefined` when the round was stopped (`signal` aborted: whatever the handler returns is dropped unread).
 */
async function invoke(
  runtime: TaskRuntime,
  record: TaskRecord,
  signal: AbortSignal,
): Promise<Outcome | undefined> {
  const handler = runtime.handler as CallToolHandler;
  const prefix = `${record.round}.`;
  const answers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record.inputResponses ?? {})) {
    if (key.startsWith(prefix)) define(answers, key.slice(prefix.length), value);
  }
  const inputResponses = Object.keys(answers).length > 0 ? (answers as InputResponses) : undefined;
  const { origin } = record;
  const params = {
    ...record.params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': origin.protocolVersion,
      'io.modelcontextprotocol/clientCapabilities': origin.clientCapabilities,
    },
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(record.requestState === undefined ? {} : { requestState: record.requestState }),
  } as CallToolRequestParams;
  const ctx = roundContext(runtime, record, signal, inputResponses);
  try {
    const value = await untilAborted(handler(params, ctx), signal);
    return signal.aborted ? undefined : classify(value, runtime.error);
  } catch (thrown) {
    if (thrown instanceof McpError) {
      const { code, message, data } = thrown;
      return { kind: 'error', error: data === undefined ? { code, message } : { code, message, data } };
    }
    runtime.error(`task ${record.taskId}: the tools/call handler threw; the task fails with -32603`, {
      failure: thrown,
    });
    return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }
}

/** What a round's context offers: the origin's identity and capabilities; progress messages become status. */
function roundContext(
  runtime: TaskRuntime,
  record: TaskRecord,
  signal: AbortSignal,
  inputResponses: InputResponses | undefined,
): RequestContext {
  const { origin } = record;
  return {
    requestId: record.taskId,
    method: record.method,
    signal,
    protocolVersion: origin.protocolVersion,
    clientCapabilities: origin.clientCapabilities,
    clientInfo: origin.clientInfo,
    // A task's rounds run apart from any request: no caller `_meta` reaches them.
    meta: {},
    auth: origin.auth,
    progressToken: undefined,
    logLevel: undefined,
    inputResponses,
    requestState: record.requestState,
    async sendProgress(progress, total, message) {
      if (!Number.isFinite(progress)) throw argumentError('progress', 'a finite number', progress);
      if (total !== undefined && !Number.isFinite(total))
        throw argumentError('total', 'a finite number', total);
      // No notifications/progress on a task (the spec forbids them): the message becomes the status message.
      if (typeof message !== 'string' || signal.aborted) return;
      await mutate(runtime, record.taskId, (r) =>
        r.status === 'working' && r.statusMessage !== message ? { statusMessage: message } : undefined,
      );
    },
    async log(level) {
      if (!isLoggingLevel(level)) throw argumentError('level', 'a logging level', level);
    },
  };
}

/**
 * The handler's value, or `undefined` as soon as `signal` aborts (a handler that ignores its signal must not keep
 * `close()` waiting; whatever it returns later is dropped).
 */
function untilAborted<T>(value: MaybePromise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    Promise.resolve(value).then(
      (settled) => {
        signal.removeEventListener('abort', stop);
        resolve(settled);
      },
      (failure: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(failure);
      },
    );
  });
}

function isEmpty(requests: InputRequests | undefined): boolean {
  return requests === undefined || Object.keys(requests).length === 0;
}
