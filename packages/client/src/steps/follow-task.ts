// Task following: a call the server answered with a task (the tasks extension) ends here. The `onTask` hooks are
// told, the task is followed to its end (task-loop.ts: notifications or polling, questions answered through the
// callbacks with `tasks/update`), and its result is read as the call's own.
import {
  argumentError,
  type CallToolResult,
  type InputRequiredResult,
  isInputRequired,
  McpError,
  type SubscriptionFilter,
} from '@boomerang/protocol';
import type { Task } from '@boomerang/protocol/tasks';
import type { Call } from '../calls.js';
import type { Connection } from '../connection.js';
import { inTask, invalidResult, notConnected, type OriginatingRequest, taskHookFailed } from '../errors.js';
import { answerInputRequests } from '../input-requests.js';
import type { CallOptions, ClientSettings } from '../options.js';
import { parseResult } from '../results.js';
import { callScope, raceSignal } from '../signals.js';
import { createSubscription } from '../subscription.js';
import { followTask, pollInterval, type TaskReading, type TaskStream } from '../task-loop.js';
import { readAcknowledgement, readTask, readTaskNotification } from '../tasks.js';

/** The shortest wait for a `subscriptions/listen` acknowledgement before a task is polled instead, in ms. */
const LISTEN_ACK_TIMEOUT_MS = 1_000;

/** Follows the tasks of one client's calls on its current connection. */
export class TaskFollower {
  readonly #settings: ClientSettings;
  readonly #connection: () => Connection | undefined;
  /** The server answered `subscriptions/listen` with `-32601` on this connection: follow tasks by polling. */
  #listenRefused = false;

  constructor(settings: ClientSettings, connection: () => Connection | undefined) {
    this.#settings = settings;
    this.#connection = connection;
  }

  /** A new connection: try streaming again. */
  reset(): void {
    this.#listenRefused = false;
  }

  /**
   * The end of a call the server answered with a task: the `onTask` hooks, then the task followed to its result,
   * read as the call's own. Sends `tasks/cancel` (without waiting for its answer) when the call is aborted or
   * times out meanwhile, or when a hook throws.
   */
  async finish<R>(
    call: Call<R>,
    task: Task,
    options: CallOptions,
    signal: AbortSignal | undefined,
    roundsBefore: number,
  ): Promise<R> {
    const { taskId } = task;
    const request = call.origin;
    try {
      for (const hook of [this.#settings.tasks?.onTask, options.onTask]) {
        if (hook !== undefined)
          await raceSignal(
            Promise.resolve().then(() => hook({ ...task }, request)),
            signal,
          );
      }
    } catch (cause) {
      this.#cancelQuietly(taskId);
      if (signal?.aborted === true) throw cause;
      throw taskHookFailed(request, taskId, cause);
    }
    try {
      const raw = await this.#follow(taskId, task, request, signal, roundsBefore);
      return await readTaskResult(call.method, taskId, raw, (value) => call.read(value));
    } catch (error) {
      if (signal?.aborted === true) this.#cancelQuietly(taskId);
      throw error;
    }
  }

  /** `client.tasks.result()`: follows a task this client did not create, and reads its `CallToolResult`. */
  async result(taskId: string, options: CallOptions = {}): Promise<CallToolResult> {
    checkTaskId(taskId);
    const request: OriginatingRequest = { method: 'tools/call' } as OriginatingRequest;
    using scope = callScope(request, options.signal, options.timeoutMs ?? this.#settings.timeoutMs);
    const raw = await this.#follow(taskId, undefined, request, scope.signal, 0);
    return await readTaskResult('tools/call', taskId, raw, (value) => parseResult('tools/call', value));
  }

  /**
   * Follows task `taskId` to its end (task-loop.ts) on this connection: reads through `tasks/get` and, when the
   * server streams it, `notifications/tasks`; answers through the callbacks and `tasks/update`.
   */
  #follow(
    taskId: string,
    first: Task | undefined,
    request: OriginatingRequest,
    signal: AbortSignal | undefined,
    roundsBefore: number,
  ): Promise<Record<string, unknown>> {
    const { callbacks, capabilities, sleep, maxInputRequests } = this.#settings;
    const listens = this.#settings.tasks?.listen === true && !this.#listenRefused;
    return followTask(taskId, first, {
      request,
      roundsBefore,
      maxInputRequests,
      get: async (id) =>
        readTask(id, await this.#exchange('tasks/get', { taskId: id }, signal), {
          maxInputRequests,
          request,
        }),
      update: async (id, inputResponses) =>
        readAcknowledgement(
          'tasks/update',
          await this.#exchange('tasks/update', { taskId: id, inputResponses }, signal),
        ),
      listen: listens ? (id) => this.#watch(id, first, signal) : undefined,
      answer: (requests, round, id, serverInfo) =>
        answerInputRequests(requests, callbacks, {
          request,
          round,
          signal,
          serverInfo,
          capabilities,
          taskId: id,
        }),
      sleep: (ms, stop) => sleep(ms, anySignal(signal, stop)),
    });
  }

  /**
   * Opens a `notifications/tasks` stream for `taskId`: `undefined` when the server does not agree to stream it
   * (no `subscriptions/listen` on this connection: remembered, so later tasks poll at once; an acknowledgement
   * without the task; or none within a poll interval, at least {@link LISTEN_ACK_TIMEOUT_MS}). Rejects only when
   * `signal` aborts.
   */
  async #watch(
    taskId: string,
    first: Task | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TaskStream | undefined> {
    const connection = this.#connection();
    if (connection === undefined) throw notConnected('subscriptions/listen');
    const subscription = createSubscription(
      (listenSignal, onnotification) =>
        connection.request(
          'subscriptions/listen',
          { notifications: { taskIds: [taskId] } },
          { signal: listenSignal, onnotification },
        ),
      {},
      () => {},
    );
    let agreed: SubscriptionFilter | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unacknowledged = new Promise<undefined>((resolve) => {
      timer = setTimeout(
        () => resolve(undefined),
        Math.max(LISTEN_ACK_TIMEOUT_MS, pollInterval(first ?? {})),
      );
    });
    try {
      agreed = await raceSignal(Promise.race([subscription.acknowledged, unacknowledged]), signal);
    } catch (error) {
      await subscription.close();
      if (signal?.aborted === true) throw error;
      if (error instanceof McpError && error.code === -32601) this.#listenRefused = true;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    if (agreed === undefined || !Array.isArray(agreed.taskIds) || !agreed.taskIds.includes(taskId)) {
      await subscription.close();
      return undefined;
    }
    const notifications = subscription[Symbol.asyncIterator]();
    const pull = async (): Promise<TaskReading | undefined> => {
      for (;;) {
        let step: IteratorResult<unknown>;
        try {
          step = await notifications.next();
        } catch {
          return undefined;
        }
        if (step.done === true) return undefined;
        const notification = step.value as { method: string; params?: unknown };
        if (notification.method === 'notifications/tasks') return readTaskNotification(notification.params);
      }
    };
    let pending: Promise<TaskReading | undefined> | undefined;
    return {
      next: () => {
        pending ??= pull().finally(() => {
          pending = undefined;
        });
        return pending;
      },
      close: () => subscription.close(),
    };
  }

  /** One request of the tasks extension on this connection, its raw result (no loop: these never ask). */
  async #exchange(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined) {
    const connection = this.#connection();
    if (connection === undefined) throw notConnected(method);
    return await connection.request(method, params, { signal, call: { method } });
  }

  /** `tasks/cancel`, best effort: the call that owned the task has already failed, whatever this answers. */
  #cancelQuietly(taskId: string): void {
    this.#exchange('tasks/cancel', { taskId }, undefined).catch(() => {});
  }
}

/**
 * A task's `result`, read as the result of `method` by `read`: an `input_required` result (a task's result is
 * final) and a shape `read` refuses are `invalid-result`, marked with the `taskId`.
 */
async function readTaskResult<R>(
  method: string,
  taskId: string,
  raw: Record<string, unknown>,
  read: (raw: unknown) => R | InputRequiredResult | Promise<R | InputRequiredResult>,
): Promise<R> {
  try {
    const result = await read(raw);
    if (isInputRequired(result)) {
      throw invalidResult(method, "a task's result must be complete, not input_required", raw);
    }
    return result;
  } catch (error) {
    throw inTask(error, taskId);
  }
}

/** Throws `TypeError` for a task id that is not a non-empty string. */
export function checkTaskId(taskId: unknown): asserts taskId is string {
  if (typeof taskId !== 'string' || taskId.length === 0) {
    throw argumentError('taskId', 'a non-empty string', taskId);
  }
}

/** A signal that aborts with the first of `a` and `b` to abort (either may be absent; a never-aborting one if both are). */
function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal {
  if (a === undefined) return b ?? new AbortController().signal;
  if (b === undefined) return a;
  return AbortSignal.any([a, b]);
}
