import { type InputRequiredResult, type InputResponses, isInputRequired } from '@boomerang/protocol';

/**
 * What one MRTR request adds to the original params: the answers of the previous round and the state echoed byte
 * for byte. Both absent on the first request of a flow. Plain JSON.
 */
export interface RoundInputs {
  /** Answers under the keys of the previous round's `inputRequests`. */
  readonly inputResponses?: InputResponses;
  /** The previous round's `requestState`, exactly as received; absent when the server sent none. */
  readonly requestState?: string;
}

/** What the loop needs from the client; everything else (ids, `_meta`, validation) lives behind `send`. */
export interface LoopDeps<R> {
  /** Sends the request once with these inputs (a new JSON-RPC id each time) and resolves to its validated result. */
  send(inputs: RoundInputs): Promise<R | InputRequiredResult>;
  /** Answers one round's `inputRequests` (concurrently); `round` counts `input_required` results of the flow from 1. */
  answer(result: InputRequiredResult, round: number): Promise<InputResponses>;
  /** Waits before a state-only retry; rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Ten means ten `input_required` results are followed by this call and the eleventh is an error. */
  readonly maxRounds: number;
  /** The error for going over {@link maxRounds}: `result` is round `round` of the flow. */
  exceeded(result: InputRequiredResult, round: number): Error;
  /** The call's signal (abort and timeout); bounds the back-off sleeps. `undefined`: nothing aborts the call. */
  readonly signal: AbortSignal | undefined;
  /**
   * True: stop at the first round that asks something and hand it back unanswered (the continuation's manual
   * loop); state-only rounds are still followed. False: answer every round with `answer` (the automatic loop).
   */
  readonly pause?: boolean;
}

/** How a loop ends: the complete result, or (when pausing) the round that asks, unanswered. */
export type LoopOutcome<R> =
  | { readonly result: R; readonly paused?: undefined }
  | { readonly paused: InputRequiredResult; readonly round: number; readonly result?: undefined };

/** Back-off for state-only rounds: 50 ms, doubling to 250 ms; any round with requests starts it over. */
export const STATE_ONLY_BACKOFF = Object.freeze({ initialMs: 50, maxMs: 250 });

/**
 * The MRTR loop: send, and while the answer is `input_required`, turn it into the next round's inputs and send
 * again. `first` are the inputs of the first request (none for a new flow; the answers and state of a resumed
 * one), `before` the number of `input_required` results the flow already had. Ends with the complete result (or,
 * with `pause`, the first round that asks), or rejects (round cap, callback failure, abort, transport).
 */
export async function runInputRequiredLoop<R>(
  first: RoundInputs,
  deps: LoopDeps<R>,
  before = 0,
): Promise<LoopOutcome<R>> {
  const backoff = { nextMs: STATE_ONLY_BACKOFF.initialMs };
  let inputs = first;
  for (let followed = 1; ; followed++) {
    const result = await deps.send(inputs);
    if (!isInputRequired(result)) return { result };
    const round = before + followed;
    if (followed > deps.maxRounds) throw deps.exceeded(result, round);
    if (deps.pause === true && asks(result)) return { paused: result, round };
    inputs = await nextRound(result, round, backoff, deps);
  }
}

/** True when an `InputRequiredResult` asks at least one question (otherwise it carries state alone). */
export function asks(result: InputRequiredResult): boolean {
  return result.inputRequests !== undefined && Object.keys(result.inputRequests).length > 0;
}

/**
 * One round: an `InputRequiredResult` becomes the next request's inputs. With input requests, every callback runs
 * (and the back-off resets); without, the client waits out the back-off (a server shedding load, or handing off
 * between instances) and retries with the state alone. `requestState` is echoed exactly, or left out when absent.
 */
export async function nextRound<R>(
  result: InputRequiredResult,
  round: number,
  backoff: { nextMs: number },
  deps: Pick<LoopDeps<R>, 'answer' | 'sleep' | 'signal'>,
): Promise<RoundInputs> {
  let inputResponses: InputResponses | undefined;
  if (asks(result)) {
    backoff.nextMs = STATE_ONLY_BACKOFF.initialMs;
    inputResponses = await deps.answer(result, round);
  } else {
    // `sleep` takes a signal whatever happens; a call nothing can abort gets one that never aborts.
    await deps.sleep(backoff.nextMs, deps.signal ?? new AbortController().signal);
    backoff.nextMs = Math.min(backoff.nextMs * 2, STATE_ONLY_BACKOFF.maxMs);
  }
  deps.signal?.throwIfAborted();
  return roundInputs(inputResponses, result.requestState);
}

/** The inputs of a request: the answers (if any) and the state exactly as received (if any). */
export function roundInputs(
  inputResponses: InputResponses | undefined,
  requestState: string | undefined,
): RoundInputs {
  const inputs: { inputResponses?: InputResponses; requestState?: string } = {};
  if (inputResponses !== undefined) inputs.inputResponses = inputResponses;
  if (requestState !== undefined) inputs.requestState = requestState;
  return inputs;
}
