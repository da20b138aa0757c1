// A flow: one tool call of the worker, from its first request to its final result, parked in the store while it
// waits for a person. Plain data, as the store reads and writes it.
import type { Continuation } from '@boomerang/client';
import type { InputRequest, InputResponses } from '@boomerang/protocol';

/**
 * Where a flow is:
 * - `pending`: its round asks something; a person may answer until `deadline`;
 * - `answered`: a person answered; waiting for a resumer;
 * - `resuming`: a resumer claimed it and is sending the answers;
 * - `completed`: the server answered the final result (`result`, which may itself be an `isError` result);
 * - `failed`: the resume went wrong (the server's error, a stored continuation that is not one, a resumer that
 *   stopped half-way); `error` says what, and the flow is never retried;
 * - `rejected`: the server refused the flow's `requestState` (it expired on the server, or was changed in storage);
 * - `expired`: nobody answered before the deadline;
 * - `dropped`: a person ended it without answering (a sampling request nobody wants to write, say).
 */
export type FlowStatus =
  | 'pending'
  | 'answered'
  | 'resuming'
  | 'completed'
  | 'failed'
  | 'rejected'
  | 'expired'
  | 'dropped';

/** The statuses a flow never leaves. */
export const FINAL_STATUSES: readonly FlowStatus[] = [
  'completed',
  'failed',
  'rejected',
  'expired',
  'dropped',
];

/** One flow, as stored. */
export interface Flow {
  readonly id: string;
  /** The name of the MCP server it runs on (one of the inbox's configured servers). */
  readonly server: string;
  /** The tool called. */
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What the worker was doing, in its words (shown on the page). */
  readonly note?: string;
  readonly status: FlowStatus;
  /** The round waiting (the continuation's `round`); 0 for a flow the server answered at once. */
  readonly round: number;
  /** The paused flow, as `client.start()` / `client.resume()` returned it; absent once the flow ended. */
  readonly continuation?: Continuation<'tools/call'>;
  /** Who may answer, and so who may see it (names of people, see {@link concerns}); absent: anyone signed in. */
  readonly answerers?: readonly string[];
  /** When the current round stops taking answers (epoch ms). */
  readonly deadline: number;
  /** How long each round takes answers (ms): the next round's deadline is this far from when it arrives. */
  readonly roundMs: number;
  /** The answers to the current round, once given. */
  readonly answers?: InputResponses;
  /** Who gave them (or dropped the flow). */
  readonly answeredBy?: string;
  /** The final result (a `CallToolResult`), when `completed`. */
  readonly result?: unknown;
  /** Why the flow `failed`, was `rejected`, `expired` or `dropped`, for the person reading the page. */
  readonly error?: string;
  /** The resumer holding it while `resuming`. */
  readonly claimedBy?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** One answered round of a flow, for the page's history and the audit trail. */
export interface FlowRound {
  readonly flowId: string;
  readonly round: number;
  readonly questions: Readonly<Record<string, InputRequest>>;
  readonly answers: InputResponses;
  readonly answeredBy: string;
  readonly answeredAt: number;
  /** The resumer that sent the answers, once it did. */
  readonly resumedBy?: string;
  readonly resumedAt?: number;
  /** What the resume led to: `completed`, `next round`, or the status it ended in. */
  readonly outcome?: string;
}

/** The questions of a flow's current round, by key (none once it ended). */
export function questionsOf(flow: Flow): Readonly<Record<string, InputRequest>> {
  return flow.continuation?.inputRequests ?? {};
}

/**
 * True when `flow` concerns `person`: it names them among its answerers, or names nobody (then it is for anyone
 * signed in). The people a flow concerns are the only ones who see it (the list, its page, its status) and the
 * only ones who answer it: its arguments, questions and result are addressed to them (a URL elicitation's link to
 * sign in somewhere, a conversation to complete, roots to share). For anyone else it does not exist (404).
 * `answerers` never changes during a flow, so neither does whom it concerns.
 */
export function concerns(flow: Flow, person: string): boolean {
  return flow.answerers === undefined || flow.answerers.length === 0 || flow.answerers.includes(person);
}
