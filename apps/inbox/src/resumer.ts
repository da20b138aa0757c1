// A resumer: claims answered flows from the store and resumes each with `client.resume(continuation, answers)`,
// recording the next round, the final result, or why it failed. Run as many as you like, in one process or many
// (on PostgreSQL): the store's claim hands each answered flow to exactly one of them, and a claimed flow is
// never sent twice, even when its resumer dies half-way (it is marked failed once its lease runs out).
import { randomUUID } from 'node:crypto';
import { isClientError } from '@boomerang/client';
import type { Flow } from './flow.js';
import type { Connections } from './servers.js';
import type { FlowStore, ResumeOutcome } from './store.js';
import { describeError } from './worker.js';

/** Options of {@link createResumer}. */
export interface ResumerOptions {
  readonly store: FlowStore;
  readonly connections: Connections;
  /** Its name in the store and the logs (default: `resumer-` and a random suffix). */
  readonly id?: string;
  /** Flows claimed (and resumed concurrently) at a time; default 8. */
  readonly batch?: number;
  /** How long to wait between empty polls, ms (default 250); {@link Resumer.wake} cuts it short. */
  readonly pollMs?: number;
  /** Bounds each resume (every state-only round included), ms; default 60 000. */
  readonly timeoutMs?: number;
  /**
   * How long a claim may last before the flow is declared failed (its resumer must have stopped), ms; default
   * 5 minutes. Keep it well above `timeoutMs`, so a live resumer is never overtaken.
   */
  readonly leaseMs?: number;
  /** How each resume ended. */
  readonly onResumed?: (flow: Flow, outcome: ResumeOutcome) => void;
  /** Errors of the loop itself (the store unreachable, say); it keeps polling. Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

/** How often a resumer sweeps expired rounds and stale claims, ms. */
const SWEEP_MS = 1000;

/** What a resumer did so far. */
export interface ResumerStats {
  /** Flows claimed (each is resumed once). */
  readonly claimed: number;
  readonly completed: number;
  /** Resumes that led to another round. */
  readonly nextRound: number;
  readonly failed: number;
  readonly rejected: number;
}

/** A running (or stopped) resumer. */
export interface Resumer {
  readonly id: string;
  readonly stats: ResumerStats;
  /** Polls until {@link stop}. */
  start(): void;
  /** Stops polling and waits for the resumes in flight. */
  stop(): Promise<void>;
  /** Polls now (a person just answered, in this process). */
  wake(): void;
  /** One pass: the sweeps (at most once a second), one claim, its resumes. Resolves to how many it resumed. */
  runOnce(): Promise<number>;
}

/** The outcome of one resume, from what `client.resume()` returned or threw. */
async function resumeOne(flow: Flow, options: ResumerOptions): Promise<ResumeOutcome> {
  if (flow.continuation === undefined || flow.answers === undefined) {
    return { status: 'failed', error: 'The stored flow has no continuation or no answers to send.' };
  }
  try {
    const client = await options.connections.client(flow.server);
    const step = await client.resume(flow.continuation, flow.answers, {
      timeoutMs: options.timeoutMs ?? 60_000,
    });
    return step.continuation === undefined ? { result: step.result } : { continuation: step.continuation };
  } catch (error) {
    if (isClientError(error, 'state-rejected')) {
      return {
        status: 'rejected',
        error:
          'The server refused the flow’s state: it expired on the server, was sealed by an earlier run of the ' +
          'server, or was changed in storage. Start the call again to get a fresh question.',
      };
    }
    if (isClientError(error, 'invalid-continuation')) {
      return { status: 'failed', error: `The stored continuation cannot be resumed: ${error.message}` };
    }
    return { status: 'failed', error: describeError(error) };
  }
}

/** A resumer over `options.store` (see the file comment). Nothing runs until {@link Resumer.start}. */
export function createResumer(options: ResumerOptions): Resumer {
  const { store } = options;
  const id = options.id ?? `resumer-${randomUUID().slice(0, 8)}`;
  const batch = options.batch ?? 8;
  const pollMs = options.pollMs ?? 250;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const onError = options.onError ?? ((error: unknown) => console.error(`[${id}]`, error));
  const stats = { claimed: 0, completed: 0, nextRound: 0, failed: 0, rejected: 0 };
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  let lastSweep = Number.NEGATIVE_INFINITY;
  const runOnce = async (): Promise<number> => {
    // The two sweeps are cheap (partial indexes) but not free: once a second is soon enough for deadlines
    // measured in minutes, and keeps a busy resumer's queries to the claim and its outcomes.
    if (Date.now() - lastSweep >= SWEEP_MS) {
      lastSweep = Date.now();
      await store.expireDue();
      await store.failStale(leaseMs);
    }
    const claimed = await store.claim(id, batch);
    stats.claimed += claimed.length;
    await Promise.all(
      claimed.map(async (flow) => {
        const outcome = await resumeOne(flow, options);
        if ('result' in outcome) stats.completed++;
        else if ('continuation' in outcome) stats.nextRound++;
        else stats[outcome.status]++;
        if (await store.finish(flow, id, outcome)) options.onResumed?.(flow, outcome);
      }),
    );
    return claimed.length;
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  return {
    id,
    stats,
    runOnce,
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          let resumed = 0;
          try {
            resumed = await runOnce();
          } catch (error) {
            onError(error);
          }
          if (running && resumed < batch) await sleep();
        }
      })();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
    wake() {
      woken = wakeUp === undefined;
      wakeUp?.();
    },
  };
}
