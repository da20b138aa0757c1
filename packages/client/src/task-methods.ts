// `client.tasks`: the tasks extension's methods by hand, each one request with the call's options (they never
// ask), and `result()`, which follows a task from any process.
import { argumentError, isPlainObject } from '@boomerang/protocol';
import type { CallRunner } from './call-runner.js';
import type { Call } from './calls.js';
import type { CallOptions } from './options.js';
import { checkTaskId, type TaskFollower } from './steps/follow-task.js';
import { type ClientTasks, readAcknowledgement, readTask } from './tasks.js';

/** The {@link ClientTasks} of a client whose calls `runner` runs and whose tasks `follower` follows. */
export function clientTasks(runner: CallRunner, follower: TaskFollower): ClientTasks {
  /** One request of `method` for `taskId`, read by `read`. */
  const exchange = async <R>(
    method: string,
    taskId: string,
    extra: Readonly<Record<string, unknown>>,
    options: CallOptions | undefined,
    read: (raw: unknown) => R | Promise<R>,
  ): Promise<R> => {
    checkTaskId(taskId);
    const params = { taskId, ...extra };
    const call: Call<R> = { method, origin: { method }, params, paramsOf: () => ({ ...params }), read };
    return await runner.call(call, options);
  };
  return {
    get: (taskId, options) =>
      exchange('tasks/get', taskId, {}, options, async (raw) => (await readTask(taskId, raw)).task),
    update: async (taskId, inputResponses, options) => {
      if (!isPlainObject(inputResponses)) {
        throw argumentError('inputResponses', 'an object of answers by key', inputResponses);
      }
      const read = (raw: unknown) => readAcknowledgement('tasks/update', raw);
      return await exchange('tasks/update', taskId, { inputResponses }, options, read);
    },
    cancel: (taskId, options) =>
      exchange('tasks/cancel', taskId, {}, options, (raw) => readAcknowledgement('tasks/cancel', raw)),
    result: (taskId, options) => follower.result(taskId, options),
  };
}
