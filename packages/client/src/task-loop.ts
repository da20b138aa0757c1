// Following one task of the tasks extension to its end: read it (a notification when the server streams them, else
// `tasks/get` at its poll interval), answer each new question once through the callbacks with `tasks/update`, and
// settle on the terminal status. The loop knows nothing of requests or schemas: the client injects them.
import {
  type Implementation,
  type InputRequests,
  type InputResponses,
  McpError,
  MetaKey,
} from '@boomerang/protocol';
import type { DetailedTask, Task } from '@boomerang/protocol/tasks';
import {
  answersRefused,
  inTask,
  type OriginatingRequest,
  taskCancelled,
  tooManyInputRequests,
} from './errors.js';

/** Poll interval when the server suggests none, in ms (what Boomerang's server suggests by default). */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** The shortest wait between two reads of a task, in ms, whatever the server suggests. */
export const MIN_POLL_INTERVAL_MS = 10;

/**
 * While notifications stream, `tasks/get` is still sent this many poll intervals apart: a backstop for a change
 * the stream never carries (instances that share a task store but not a notification bus).
 */
export const LISTENING_POLL_FACTOR = 10;

/** A task as read: its `DetailedTask`, and the `_meta` of the message that carried it. */
export interface TaskReading {
  readonly task: DetailedTask;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/** A stream of one task's `notifications/tasks`, agreed by the server. */
export interface TaskStream {
  /** The next change (validated), or `undefined` once the stream ended (then the loop polls). */
  next(): Promise<TaskReading | undefined>;
  /** Ends the stream (cancels the listen request). */
  close(): Promise<void>;
}

/** What the loop needs from the client. */
export interface TaskLoopDeps {
  /** `tasks/get`, validated; rejects with the server's `McpError` or an `invalid-result` `ClientError`. */
  get(taskId: string): Promise<TaskReading>;
  /** `tasks/update` with these answers. */
  update(taskId: string, inputResponses: InputResponses): Promise<void>;
  /**
   * Opens a `notifications/tasks` stream for the task, or resolves to `undefined` when the server offers none
   * (no `subscriptions/listen`, or its acknowledgement leaves the task out). Absent: always poll.
   */
  listen?: ((taskId: string) => Promise<TaskStream | undefined>) | undefined;
  /** Answers new questions with the callbacks; `round` counts the call's rounds with questions, MRTR ones first. */
  answer(
    requests: InputRequests,
    round: number,
    taskId: string,
    serverInfo: Implementation | undefined,
  ): Promise<InputResponses>;
  /**
   * Waits `ms`; rejects with the call's abort reason, or with `stop.reason` when `stop` aborts first (the loop
   * stops a backstop wait that a notification made moot).
   */
  sleep(ms: number, stop?: AbortSignal): Promise<void>;
  /** The call that created the task (what errors and callbacks name). */
  readonly request: OriginatingRequest;
  /** Rounds with questions the call had before the task (its MRTR rounds): the task's first question is the next. */
  readonly roundsBefore: number;
  /**
   * The most questions one reading may ask (the client's `maxInputRequests`): a reading asking more fails the
   * call with a `too-many-input-requests` `ClientError` before any question is answered, as an `input_required`
   * result asking more does.
   */
  readonly maxInputRequests: number;
}

/**
 * Follows task `taskId` until it is terminal; `first` is what the client already knows of it (its
 * `CreateTaskResult`), if anything. Resolves to the `result` of a `completed` task, unread (the caller validates it
 * as the originating method's result). Rejects with the task's error as an `McpError` when it `failed`, with a
 * `task-cancelled` `ClientError` when it was cancelled, and with whatever reading, answering or waiting throws
 * (a `ClientError` marked with the `taskId`).
 *
 * A reading asking more than `deps.maxInputRequests` questions rejects with `too-many-input-requests` before any
 * is answered (`client.ts` also counts them before the reading is validated). Each question is answered once: a
 * key seen again in a later reading (the server's snapshot of what is still
 * outstanding, before it applied the update) is not asked again. A `-32602` to `tasks/update` is read as a lost
 * race (another client answered, the task moved on) unless the task still asks the same questions: then the server
 * refused the answers, and the loop fails with a `callback-failed` `ClientError` (the task keeps waiting; a host
 * may answer it by hand, or `client.tasks.result()` asks again).
 */
export async function followTask(
  taskId: string,
  first: Task | undefined,
  deps: TaskLoopDeps,
): Promise<Record<string, unknown>> {
  let stream: TaskStream | undefined;
  try {
    stream = await deps.listen?.(taskId);
    // With a stream, read at once: a change made before the stream was agreed is in no notification.
    let reading: TaskReading =
      first === undefined || first.status !== 'working' || stream !== undefined
        ? await deps.get(taskId)
        : await pollAfter(taskId, first, deps);
    const answered = new Set<string>();
    let rounds = deps.roundsBefore;
    for (;;) {
      const { task } = reading;
      switch (task.status) {
        case 'completed':
          return task.result;
        case 'failed':
          throw McpError.fromJSON(task.error);
        case 'cancelled':
          throw taskCancelled(deps.request, taskId, task.statusMessage);
        case 'input_required': {
          // All the reading asks counts (answered ones a server keeps asking too): the cap is on one reading.
          const asked = Object.keys(task.inputRequests).length;
          if (asked > deps.maxInputRequests) {
            throw tooManyInputRequests(deps.request, deps.maxInputRequests, asked, task);
          }
          const fresh = unanswered(task.inputRequests, answered);
          if (fresh === undefined) break;
          const serverInfo = reading.meta?.[MetaKey.serverInfo] as Implementation | undefined;
          const responses = await deps.answer(fresh, ++rounds, taskId, serverInfo);
          const keys = Object.keys(fresh);
          for (const key of keys) answered.add(key);
          const refused = await sendAnswers(taskId, responses, keys, fresh, deps);
          if (refused !== undefined) {
            reading = refused;
            continue;
          }
          break;
        }
        case 'working':
          break;
      }
      const next = await nextReading(taskId, task, stream, deps);
      if (next.ended) stream = undefined;
      reading = next.reading ?? (await deps.get(taskId));
    }
  } catch (error) {
    throw inTask(error, taskId);
  } finally {
    await stream?.close().catch(() => {});
  }
}

/** The questions of `requests` not answered yet, or `undefined` when there is none. */
function unanswered(requests: InputRequests, answered: ReadonlySet<string>): InputRequests | undefined {
  let fresh: Record<string, unknown> | undefined;
  for (const key of Object.keys(requests)) {
    if (answered.has(key)) continue;
    fresh ??= {};
    Object.defineProperty(fresh, key, {
      value: requests[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return fresh as InputRequests | undefined;
}

/**
 * Sends the answers. `undefined` when they were taken; a fresh reading of the task when the server refused them
 * with `-32602` and no longer asks those questions (someone else answered, or the task moved on). Rejects with
 * `callback-failed` when it still asks them (the answers themselves were refused).
 */
async function sendAnswers(
  taskId: string,
  responses: InputResponses,
  keys: readonly string[],
  asked: InputRequests,
  deps: TaskLoopDeps,
): Promise<TaskReading | undefined> {
  try {
    await deps.update(taskId, responses);
    return undefined;
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== -32602) throw error;
    const now = await deps.get(taskId);
    if (now.task.status !== 'input_required') return now;
    const outstanding = now.task.inputRequests;
    const still = keys.filter((key) => Object.hasOwn(outstanding, key));
    if (still.length === 0) return now;
    const method = (asked[still[0] as string] as { method?: string } | undefined)?.method;
    throw answersRefused(deps.request, taskId, still, method, error);
  }
}

/** The wait between two readings of a task, in ms: its suggestion, no shorter than {@link MIN_POLL_INTERVAL_MS}. */
export function pollInterval(task: { readonly pollIntervalMs?: number | undefined }): number {
  const suggested = task.pollIntervalMs;
  return Math.max(MIN_POLL_INTERVAL_MS, suggested ?? DEFAULT_POLL_INTERVAL_MS);
}

async function pollAfter(taskId: string, task: Task, deps: TaskLoopDeps): Promise<TaskReading> {
  await deps.sleep(pollInterval(task));
  return await deps.get(taskId);
}

/**
 * The next change: from the stream when there is one (with a `tasks/get` every {@link LISTENING_POLL_FACTOR}
 * intervals as a backstop), else after one poll interval. A streamed change other than `working` is only a
 * wake-up: the caller reads the task. `reading` is absent when the caller must read the task
 * itself; `ended` when the stream ended (the caller polls from then on).
 */
async function nextReading(
  taskId: string,
  task: DetailedTask,
  stream: TaskStream | undefined,
  deps: TaskLoopDeps,
): Promise<{ reading?: TaskReading | undefined; ended?: boolean }> {
  const interval = pollInterval(task);
  if (stream === undefined) {
    await deps.sleep(interval);
    return {};
  }
  const stop = new AbortController();
  const backstop = deps.sleep(interval * LISTENING_POLL_FACTOR, stop.signal).then(
    () => 'backstop' as const,
    (reason: unknown) => {
      if (stop.signal.aborted) return 'stopped' as const;
      throw reason;
    },
  );
  let change: TaskReading | undefined | 'backstop' | 'stopped';
  try {
    change = await Promise.race([stream.next(), backstop]);
  } finally {
    stop.abort();
  }
  if (change === 'backstop' || change === 'stopped') return {};
  if (change === undefined) return { ended: true };
  // A notification only wakes the loop for anything it would act on: a terminal status settles the call and
  // questions reach the user, so both come from `tasks/get`, the server's own answer, never from what a stream
  // (and whatever bus fed it) claimed.
  if (change.task.taskId !== taskId || change.task.status !== 'working') return {};
  return { reading: change };
}
