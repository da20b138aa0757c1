// What a test client records: each call it makes, round by round, as the server saw and answered it. The
// recorder sits on the client's end of the in-memory stream, so it sees the wire, not the client's view of it.
import type {
  InputRequests,
  InputResponses,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCResultResponse,
  RequestId,
} from '@boomerang/protocol';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type Transport,
} from '@boomerang/protocol/transport';

/** A JSON-RPC error as the server sent it. */
export interface RecordedError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One request of a call and the server's answer to it. Round `n` is the call's `n`-th request: its response is
 * the call's `n`-th `input_required` result (what a client callback sees as `ctx.round === n`) or its last,
 * complete, result; round `n + 1`'s request carries the answers to round `n`'s questions.
 */
export interface RecordedRound {
  /** 1, 2, … within the call. */
  readonly round: number;
  /** The request as sent (its `id`, `params` with `_meta`, and from round 2 on `inputResponses` / `requestState`). */
  readonly request: JSONRPCRequest;
  /** The answers this request carried (to the previous round's questions); `undefined` in round 1. */
  readonly inputResponses: InputResponses | undefined;
  /** The `requestState` this request echoed, byte for byte; `undefined` when it carried none. */
  readonly requestState: string | undefined;
  /** The server's response; `undefined` while it is pending (or when the call was cancelled first). */
  readonly response: JSONRPCResponse | undefined;
  /** `"input_required"`, `"complete"` (also for a result without `resultType`), or `undefined` for an error or no response. */
  readonly resultType: 'complete' | 'input_required' | undefined;
  /** The questions this round's `input_required` result asked, by key; `{}` when it asked none. */
  readonly inputRequests: InputRequests;
  /** The JSON-RPC error the server answered with, if it did. */
  readonly error: RecordedError | undefined;
}

/** One call the client made: its rounds, in order, and how it ended. */
export interface RecordedCall {
  /** The method (`tools/call`, `prompts/get`, `resources/read`, `tools/list`, an extension's…). */
  readonly method: string;
  /** The tool or prompt name, for `tools/call` and `prompts/get`. */
  readonly name: string | undefined;
  /** The resource URI, for `resources/read`. */
  readonly uri: string | undefined;
  /** The params of the first request, without `_meta` (for `tools/call`: `{ name, arguments }`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Every round so far. */
  readonly rounds: readonly RecordedRound[];
  /** The complete result the call ended with; `undefined` while it runs, or when it failed. */
  readonly result: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC error the call ended with; `undefined` unless the server answered one. */
  readonly error: RecordedError | undefined;
  /**
   * The questions asked in round `round` (1-based), by key: `call.asked(1).confirm.params.message`. `{}` for a
   * round that asked nothing (the complete one). Throws `RangeError` for a round the call did not have.
   */
  asked(round: number): InputRequests;
}

interface Round {
  round: number;
  request: JSONRPCRequest;
  inputResponses: InputResponses | undefined;
  requestState: string | undefined;
  response: JSONRPCResponse | undefined;
  resultType: 'complete' | 'input_required' | undefined;
  inputRequests: InputRequests;
  error: RecordedError | undefined;
}

class Call implements RecordedCall {
  readonly method: string;
  readonly name: string | undefined;
  readonly uri: string | undefined;
  readonly params: Readonly<Record<string, unknown>>;
  readonly rounds: Round[] = [];

  constructor(request: JSONRPCRequest) {
    const { _meta: _, ...params } = request.params ?? {};
    this.method = request.method;
    this.name = typeof params.name === 'string' ? params.name : undefined;
    this.uri = typeof params.uri === 'string' ? params.uri : undefined;
    this.params = params;
  }

  get last(): Round | undefined {
    return this.rounds[this.rounds.length - 1];
  }

  get result(): Readonly<Record<string, unknown>> | undefined {
    const last = this.last;
    if (last?.resultType !== 'complete') return undefined;
    return (last.response as JSONRPCResultResponse).result;
  }

  get error(): RecordedError | undefined {
    return this.last?.error;
  }

  asked(round: number): InputRequests {
    const found = Number.isInteger(round) ? this.rounds[round - 1] : undefined;
    if (found === undefined) {
      const had = this.rounds.length === 1 ? 'round 1' : `rounds 1 to ${this.rounds.length}`;
      throw new RangeError(`"round" expected one of the ${had} of ${this.describe()}, got ${round}`);
    }
    return found.inputRequests;
  }

  /**
   * Whether `request` is the next round of this call: the same method and params (a retry repeats them), the
   * state the last round handed out, and answers only to the questions it asked.
   */
  continuedBy(request: JSONRPCRequest, state: string | undefined, answered: readonly string[]): boolean {
    const last = this.last;
    if (last?.resultType !== 'input_required' || request.method !== this.method) return false;
    const { _meta: _, inputResponses: __, requestState: ___, ...params } = request.params ?? {};
    if (!sameJson(params, this.params)) return false;
    const result = (last.response as { result?: { requestState?: unknown } }).result;
    if (result?.requestState !== state) return false;
    return answered.every((key) => Object.hasOwn(last.inputRequests, key));
  }

  describe(): string {
    const target = this.name ?? this.uri;
    return target === undefined ? this.method : `${this.method} "${target}"`;
  }
}

/** Deep equality of two JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const valuesOfB = new Map(Object.entries(b));
  return Object.entries(a).every(
    ([key, value]) => Object.hasOwn(b, key) && sameJson(value, valuesOfB.get(key)),
  );
}

/**
 * Records the calls a client makes over one stream transport. Requests are grouped into calls by their retry
 * chain: a request with `inputResponses` or `requestState` continues the oldest call of the same method and
 * params whose last answer was `input_required`, with that `requestState` and those question keys; any other
 * request starts a call (so does a continuation resumed from a flow this client did not start).
 */
export class Recorder {
  readonly calls: Call[] = [];
  readonly notifications: JSONRPCNotification[] = [];
  recording = false;
  readonly #byId = new Map<RequestId, Round>();

  /**
   * `transport`, with every message that passes through it recorded (a snapshot, as the in-memory pair delivers
   * it). The wrapper keeps the stream contract: one consumer of `messages`, which ends when the transport does.
   */
  tap(transport: Transport): Transport {
    const recorder = this;
    async function* messages(): AsyncGenerator<JSONRPCMessage> {
      for await (const message of transport.messages) {
        recorder.received(message);
        yield message;
      }
    }
    return {
      send: (message, options) => {
        this.sent(message);
        return transport.send(message, options);
      },
      messages: messages(),
      close: () => transport.close(),
      [Symbol.asyncDispose]: () => transport.close(),
    };
  }

  sent(message: JSONRPCMessage): void {
    if (!this.recording || !isJSONRPCRequest(message)) return;
    const request = structuredClone(message);
    const params = request.params ?? {};
    const inputResponses = params.inputResponses as InputResponses | undefined;
    const requestState = typeof params.requestState === 'string' ? params.requestState : undefined;
    let call: Call | undefined;
    if (inputResponses !== undefined || requestState !== undefined) {
      const answered = inputResponses === undefined ? [] : Object.keys(inputResponses);
      call = this.calls.find((c) => c.continuedBy(request, requestState, answered));
    }
    if (call === undefined) {
      call = new Call(request);
      this.calls.push(call);
    }
    const round: Round = {
      round: call.rounds.length + 1,
      request,
      inputResponses,
      requestState,
      response: undefined,
      resultType: undefined,
      inputRequests: {},
      error: undefined,
    };
    call.rounds.push(round);
    this.#byId.set(request.id, round);
  }

  received(message: JSONRPCMessage): void {
    if (!this.recording) return;
    if (isJSONRPCNotification(message)) {
      this.notifications.push(structuredClone(message));
      return;
    }
    if (isJSONRPCErrorResponse(message)) {
      const response = structuredClone(message);
      const round = this.#answered(response);
      if (round !== undefined) round.error = response.error;
      return;
    }
    if (!isJSONRPCResultResponse(message)) return;
    const response = structuredClone(message);
    const round = this.#answered(response);
    if (round === undefined) return;
    const { result } = response;
    round.resultType = result.resultType === 'input_required' ? 'input_required' : 'complete';
    if (round.resultType === 'input_required' && typeof result.inputRequests === 'object') {
      round.inputRequests = result.inputRequests as InputRequests;
    }
  }

  /** The round `response` answers, taken out of those awaiting an answer (`undefined` for no round of ours). */
  #answered(response: JSONRPCResponse): Round | undefined {
    const id = response.id;
    const round = id === undefined ? undefined : this.#byId.get(id);
    if (round === undefined || id === undefined) return undefined;
    this.#byId.delete(id);
    round.response = response;
    return round;
  }
}
