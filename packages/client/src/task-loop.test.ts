// The loop that follows one task, with its reads, stream, answers and waits injected: which reading comes from
// where, when it waits and how long, and what each terminal status settles to.
import { McpError } from '@boomerang/protocol';
import type { DetailedTask } from '@boomerang/protocol/tasks';
import { describe, expect, it } from 'vitest';
import { isClientError } from './errors.js';
import {
  followTask,
  LISTENING_POLL_FACTOR,
  MIN_POLL_INTERVAL_MS,
  pollInterval,
  type TaskLoopDeps,
  type TaskReading,
  type TaskStream,
} from './task-loop.js';
import { askFor, deferred } from './test-support/fake-server.js';

const base = {
  taskId: 't',
  createdAt: '2026-07-28T10:00:00Z',
  lastUpdatedAt: '2026-07-28T10:00:00Z',
  ttlMs: null,
  pollIntervalMs: 100,
};
const working = { ...base, status: 'working' } as DetailedTask;
const done = { ...base, status: 'completed', result: { content: [] } } as DetailedTask;
const asking = { ...base, status: 'input_required', inputRequests: { q: askFor('name') } } as DetailedTask;

/** Deps whose `get` answers `readings` in turn; every call is logged (`sleep` resolves at once unless stopped). */
function deps(readings: DetailedTask[], extra: Partial<TaskLoopDeps> = {}) {
  const log: string[] = [];
  let read = 0;
  const d: TaskLoopDeps = {
    request: { method: 'tools/call', name: 'job' },
    roundsBefore: 2,
    maxInputRequests: 64,
    get: async () => {
      log.push('get');
      return { task: readings[Math.min(read++, readings.length - 1)] as DetailedTask };
    },
    update: async (_id, responses) => {
      log.push(`update ${Object.keys(responses).join(',')}`);
    },
    answer: async (requests, round, taskId) => {
      log.push(`answer ${Object.keys(requests).join(',')} round ${round} of ${taskId}`);
      return Object.fromEntries(Object.keys(requests).map((k) => [k, { action: 'accept' }]));
    },
    sleep: async (ms, stop) => {
      log.push(`sleep ${ms}`);
      if (stop !== undefined && extra.sleep === undefined) {
        // A backstop: wait until stopped.
        await new Promise((_resolve, reject) => stop.addEventListener('abort', () => reject(stop.reason)));
      }
    },
    ...extra,
  };
  return { d, log };
}

/** A stream that yields `changes` one at a time, then ends. */
function stream(changes: (DetailedTask | 'end')[]): TaskStream & { closed: boolean } {
  const s = {
    closed: false,
    next: async (): Promise<TaskReading | undefined> => {
      const next = changes.shift();
      return next === undefined || next === 'end' ? undefined : { task: next };
    },
    close: async () => {
      s.closed = true;
    },
  };
  return s;
}

describe('followTask', () => {
  it('polls: waits one interval after a working CreateTaskResult, reads, answers once, resolves the result', async () => {
    const { d, log } = deps([working, asking, asking, done]);
    expect(await followTask('t', working, d)).toEqual({ content: [] });
    expect(log).toEqual([
      'sleep 100',
      'get',
      'sleep 100',
      'get',
      'answer q round 3 of t',
      'update q',
      'sleep 100',
      'get',
      'sleep 100',
      'get',
    ]);
  });

  it('reads at once for a task it knows nothing of, or that is not working', async () => {
    const { d, log } = deps([done]);
    await followTask('t', undefined, d);
    await followTask('t', { ...base, status: 'input_required' }, d);
    expect(log).toEqual(['get', 'get']);
  });

  it('streams: reads once when the stream is agreed, wakes on each change, acts only on tasks/get, closes it', async () => {
    const changes = stream([working, asking, { ...working, taskId: 'other' }, done]);
    const { d, log } = deps([working, asking, working, done], { listen: async () => changes });
    expect(await followTask('t', working, d)).toEqual({ content: [] });
    expect(log).toEqual([
      'get',
      `sleep ${100 * LISTENING_POLL_FACTOR}`,
      // A streamed `working` is taken as is: nothing to act on.
      `sleep ${100 * LISTENING_POLL_FACTOR}`,
      // Questions are asked from the server's own reading, not from the stream's.
      'get',
      'answer q round 3 of t',
      'update q',
      `sleep ${100 * LISTENING_POLL_FACTOR}`,
      // The change about another task is no change of this one: the loop reads for itself.
      'get',
      `sleep ${100 * LISTENING_POLL_FACTOR}`,
      // The terminal status too: a stream never settles the call.
      'get',
    ]);
    expect(changes.closed).toBe(true);
  });

  it('a forged terminal status or forged questions on the stream are never trusted', async () => {
    const forged = { ...base, status: 'completed', result: { content: [{ type: 'text', text: 'forged' }] } };
    const phishing = { ...base, status: 'input_required', inputRequests: { evil: askFor('password') } };
    const changes = stream([phishing as DetailedTask, forged as DetailedTask]);
    const { d, log } = deps([working, working, done], { listen: async () => changes });
    expect(await followTask('t', working, d)).toEqual({ content: [] });
    expect(log.filter((line) => line.startsWith('answer'))).toEqual([]);
  });

  it('polls on once the stream ends, and when the backstop wait elapses first', async () => {
    const { d, log } = deps([working, done], { listen: async () => stream(['end']) });
    await followTask('t', working, d);
    expect(log).toEqual(['get', 'sleep 1000', 'get']);

    const silent: TaskStream = { next: () => new Promise(() => {}), close: async () => {} };
    const backstop = deps([working, done], { listen: async () => silent, sleep: async () => {} });
    await followTask('t', working, backstop.d);
    expect(backstop.log).toEqual(['get', 'get']);
  });

  it('settles failed as the task’s McpError and cancelled as task-cancelled, marked with the task id', async () => {
    const failed = {
      ...base,
      status: 'failed',
      error: { code: -32001, message: 'No', data: 1 },
    } as DetailedTask;
    const error = await followTask('t', undefined, deps([failed]).d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32001, message: 'No', data: 1 });
    const cancelled = { ...base, status: 'cancelled' } as DetailedTask;
    const stopped = await followTask('t', undefined, deps([cancelled]).d).catch((e: unknown) => e);
    expect(isClientError(stopped, 'task-cancelled')).toBe(true);
    expect(stopped).toMatchObject({
      taskId: 't',
      message: 'Task t of tools/call "job" was cancelled before it completed',
    });
  });

  it('rejects with what answering throws, and closes the stream', async () => {
    const changes = stream([]);
    const { d } = deps([asking], {
      listen: async () => changes,
      answer: async () => {
        throw new Error('the user closed the window');
      },
    });
    await expect(followTask('t', undefined, d)).rejects.toThrow('the user closed the window');
    expect(changes.closed).toBe(true);
  });

  it('a reading asking more than maxInputRequests questions is too-many-input-requests, none answered', async () => {
    const inputRequests = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, i) => [`q${i}`, askFor('q')]),
    );
    const flood = { ...base, status: 'input_required', inputRequests } as DetailedTask;
    // Without the cap the loop would answer them all, then poll on: a bounded wait keeps such a run finite.
    let waits = 0;
    const { d, log } = deps([flood], {
      sleep: async () => {
        if (++waits > 3) throw new Error('kept following the flood');
      },
    });
    const error = await followTask('t', working, d).catch((e: unknown) => e);
    expect(isClientError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'too-many-input-requests', maxInputRequests: 64, taskId: 't' });
    expect((error as Error).message).toMatch(
      /with 100000 input requests in one round, more than maxInputRequests \(64\)/,
    );
    expect(log.filter((entry) => entry.startsWith('answer') || entry.startsWith('update'))).toEqual([]);
    // At the cap, every question is answered at once.
    const sixtyFour = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`q${i}`, askFor('q')]));
    const atCap = deps([{ ...flood, inputRequests: sixtyFour } as DetailedTask, done]);
    expect(await followTask('t', undefined, atCap.d)).toEqual({ content: [] });
    expect(atCap.log.filter((entry) => entry.startsWith('answer'))).toHaveLength(1);
  });

  it('rejects when a wait rejects (the call was aborted)', async () => {
    const gate = deferred();
    const { d } = deps([working], {
      sleep: async () => {
        await gate.promise;
        throw new Error('aborted');
      },
    });
    const following = followTask('t', working, d);
    gate.resolve();
    await expect(following).rejects.toThrow('aborted');
  });
});

describe('pollInterval', () => {
  it('is the task’s suggestion, 1 s without one, never under the floor', () => {
    expect(pollInterval({ pollIntervalMs: 250 })).toBe(250);
    expect(pollInterval({})).toBe(1_000);
    expect(pollInterval({ pollIntervalMs: 0 })).toBe(MIN_POLL_INTERVAL_MS);
  });
});
