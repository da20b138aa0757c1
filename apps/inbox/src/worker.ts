// The worker: an agent-like loop over a list of tool calls. Each call is started with `client.start()`; when the
// server needs input, the continuation is parked in the store as a pending flow (with who may answer and until
// when) and the worker moves on to its next call without waiting. People answer later; resumers finish the flows.
import { isClientError } from '@boomerang/client';
import { McpError } from '@boomerang/protocol';
import type { Flow } from './flow.js';
import type { Connections } from './servers.js';
import type { FlowStore } from './store.js';

/** One tool call of the worker's plan. */
export interface Job {
  readonly tool: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** The server's name (default: the worker's `server`). */
  readonly server?: string;
  /** Who may answer its questions (names); absent: anyone signed in. */
  readonly answerers?: readonly string[];
  /** How long each of its rounds takes answers, in seconds (default: the worker's `roundSeconds`). */
  readonly roundSeconds?: number;
  /** What the worker is doing, in words for the page ("order Solaris for the book club"). */
  readonly note?: string;
}

/** Options of {@link runJobs}. */
export interface WorkerOptions {
  readonly store: FlowStore;
  readonly connections: Connections;
  /** The server of jobs that name none. */
  readonly server: string;
  /** Default answer window of a round, in seconds (default 600: the default TTL of Boomerang's sealed state). */
  readonly roundSeconds?: number;
  /** Each flow as it is recorded. */
  readonly onFlow?: (flow: Flow) => void;
  /** Bounds each `tools/call` (all its state-only rounds included), ms; default 60 000. */
  readonly timeoutMs?: number;
}

/** The error of a call in words for the page: the server's JSON-RPC error, or what the client saw. */
export function describeError(error: unknown): string {
  if (error instanceof McpError) return `The server answered error ${error.code}: ${error.message}`;
  if (isClientError(error)) return `${error.message} (${error.reason})`;
  return error instanceof Error ? error.message : String(error);
}

/** Throws `TypeError` unless `value` is a list of jobs; resolves the list, as {@link Job}s. */
export function parseJobs(value: unknown): Job[] {
  if (!Array.isArray(value)) throw new TypeError('jobs expected a JSON array of { tool, arguments?, … }');
  return value.map((job, i) => {
    const where = `jobs[${i}]`;
    if (typeof job !== 'object' || job === null || Array.isArray(job)) {
      throw new TypeError(`${where} expected an object`);
    }
    const {
      tool,
      arguments: args,
      server,
      answerers,
      roundSeconds,
      note,
      ...rest
    } = job as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new TypeError(`${where} has unknown members: ${unknown.join(', ')}`);
    if (typeof tool !== 'string' || tool === '') throw new TypeError(`${where}.tool expected a tool name`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw new TypeError(`${where}.arguments expected an object`);
    }
    if (server !== undefined && typeof server !== 'string')
      throw new TypeError(`${where}.server expected a name`);
    if (
      answerers !== undefined &&
      !(Array.isArray(answerers) && answerers.every((a) => typeof a === 'string' && a !== ''))
    ) {
      throw new TypeError(`${where}.answerers expected a list of names`);
    }
    if (roundSeconds !== undefined && !(typeof roundSeconds === 'number' && roundSeconds > 0)) {
      throw new TypeError(`${where}.roundSeconds expected a positive number`);
    }
    if (note !== undefined && typeof note !== 'string') throw new TypeError(`${where}.note expected text`);
    return job as Job;
  });
}

/**
 * Runs `jobs` one after the other: each `tools/call` goes out with `client.start()`, and whatever comes back is
 * recorded as a flow, pending (its continuation, questions, state, deadline and answerers), completed (answered at
 * once) or failed (the server's error, in words). Never waits for a person. Resolves to the recorded flows.
 */
export async function runJobs(jobs: readonly Job[], options: WorkerOptions): Promise<Flow[]> {
  const { store, connections } = options;
  const recorded: Flow[] = [];
  for (const job of jobs) {
    const server = job.server ?? options.server;
    const args = job.arguments ?? {};
    let outcome: Parameters<FlowStore['create']>[0]['outcome'];
    try {
      const client = await connections.client(server);
      const step = await client.start(
        'tools/call',
        { name: job.tool, arguments: args },
        { timeoutMs: options.timeoutMs ?? 60_000 },
      );
      outcome =
        step.continuation === undefined ? { result: step.result } : { continuation: step.continuation };
    } catch (error) {
      outcome = { error: describeError(error) };
    }
    const flow = await store.create({
      server,
      tool: job.tool,
      arguments: args,
      ...(job.note === undefined ? {} : { note: job.note }),
      ...(job.answerers === undefined ? {} : { answerers: job.answerers }),
      roundMs: (job.roundSeconds ?? options.roundSeconds ?? 600) * 1000,
      outcome,
    });
    recorded.push(flow);
    options.onFlow?.(flow);
  }
  return recorded;
}
