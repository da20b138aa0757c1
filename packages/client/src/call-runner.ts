// The engine every call runs, as composed steps: around the whole call, the restart on a refused state
// (restart.ts) and task following (steps/follow-task.ts); inside, the MRTR loop (mrtr-loop.ts), whose every
// request goes through the round chain: the user's middleware (`client.use`), then the client's own round steps
// (waiting out a rate limit, the -32021 remedy), then the connection.
import {
  type ClientCapabilities,
  type Implementation,
  type InputRequiredResult,
  MetaKey,
  type Result,
} from '@boomerang/protocol';
import type { Call } from './calls.js';
import type { Connection } from './connection.js';
import { type Step, toContinuation } from './continuation.js';
import { notConnected, roundsExceeded, stateRejected, tooManyInputRequests } from './errors.js';
import { answerInputRequests, inputRequestCount } from './input-requests.js';
import { checkLogLevel, deliverLog } from './logging.js';
import {
  CallContext,
  type ClientMiddleware,
  callerMeta,
  type RoundStep,
  runClientChain,
} from './middleware.js';
import { asks, type LoopOutcome, type RoundInputs, runInputRequiredLoop } from './mrtr-loop.js';
import type { CallOptions, ClientSettings } from './options.js';
import { type AttemptTrace, isStateRefusal, type ToolHints, withRestarts } from './restart.js';
import type { RoundContext } from './round-context.js';
import { callScope } from './signals.js';
import type { TaskFollower } from './steps/follow-task.js';
import { capabilityRemedy } from './steps/remedy.js';
import { retryAfterRateLimit } from './steps/retry-after.js';
import { CreatedTask, isTaskAnswer, readCreatedTask } from './tasks.js';

/** Where a call's loop starts, and whether it stops at the first round that asks (start/resume). */
export interface Flow {
  /** The first request's inputs: none for a new flow, the answers and state of a resumed one. */
  readonly inputs: RoundInputs;
  /** How many `input_required` results the flow had before this call. */
  readonly before: number;
  /** Stop at the first round that asks, and hand it back as a continuation. */
  readonly pause: boolean;
  /** What the middleware of earlier steps carried (a resumed continuation's). */
  readonly carried?: Readonly<Record<string, string>> | undefined;
}

/** A new flow run to its end (the automatic loop). */
export const NEW_FLOW: Flow = Object.freeze({ inputs: Object.freeze({}), before: 0, pause: false });
/** A new flow run a step at a time (`start()`). */
export const NEW_STEP: Flow = Object.freeze({ inputs: Object.freeze({}), before: 0, pause: true });

/** What a {@link CallRunner} needs from its client. */
export interface RunnerDeps {
  readonly settings: ClientSettings;
  readonly capabilities: ClientCapabilities;
  readonly connection: () => Connection | undefined;
  /** The user's middleware, in registration order (the client adds to it). */
  readonly middleware: readonly ClientMiddleware[];
  readonly hints: ToolHints;
  readonly tasks: TaskFollower;
}

/** Runs calls: the automatic loop (`call`) and the manual one (`step`). */
export class CallRunner {
  readonly #deps: RunnerDeps;
  /** The client's own round steps, innermost: waiting out a rate limit, then the -32021 remedy. */
  readonly #steps: readonly RoundStep<RoundContext>[];
  /** The composed round chain, rebuilt when the user's middleware changes. */
  #chain: readonly RoundStep<RoundContext>[] = [];
  #chainOf = -1;

  constructor(deps: RunnerDeps) {
    this.#deps = deps;
    this.#steps = [retryAfterRateLimit(deps.settings.sleep), capabilityRemedy(deps.capabilities)];
  }

  /**
   * A call with the automatic loop: its complete result. When the server refuses the flow's state and
   * `restartOnInvalidState` allows it, the flow starts over from its first round, within the call's time limit.
   */
  async call<R>(call: Call<R>, options: CallOptions = {}): Promise<R> {
    const context = new CallContext(call.method, call.params, options);
    let result: R;
    try {
      result = await this.#attempts(call, options, context);
      context.settle({ result });
    } catch (error) {
      context.settle({ error });
      throw error;
    }
    const finished = call.finish?.(result);
    if (finished !== undefined) await finished;
    return result;
  }

  /**
   * A call a step at a time: the complete result, or the continuation of the round that asks (keeping the call's
   * `meta` and what its middleware carried). A `-32602` naming the `requestState` a request carried is the server
   * refusing the flow's state: `state-rejected`.
   */
  async step<R>(call: Call<R>, options: CallOptions, flow: Flow): Promise<Step<R>> {
    const context = new CallContext(call.method, call.params, options, flow.carried);
    let result: R;
    try {
      const outcome = await this.#run(call, options, flow, context, undefined);
      if (outcome.paused === undefined) {
        result = outcome.result;
        context.settle({ result });
      } else {
        context.settle({ paused: true });
        const extra = { meta: options.meta, carried: context.outgoing };
        const continuation = toContinuation(call.method, call.params, outcome.paused, outcome.round, extra);
        return { continuation };
      }
    } catch (error) {
      context.settle({ error });
      if (isStateRefusal(error)) throw stateRejected(call.origin, error);
      throw error;
    }
    const finished = call.finish?.(result);
    if (finished !== undefined) await finished;
    return { result };
  }

  /** The attempts of an automatic call: one, or as many as the restart policy allows. */
  async #attempts<R>(call: Call<R>, options: CallOptions, context: CallContext): Promise<R> {
    const allowed = this.#deps.settings.restarts;
    if (allowed === 0 && options.restartOnInvalidState !== true) {
      return (await this.#run(call, options, NEW_FLOW, context, undefined)).result as R;
    }
    const policy = {
      method: call.method,
      name: (call.params as { name?: string }).name,
      allowed,
      marked: options.restartOnInvalidState,
      hints: this.#deps.hints,
      timeoutMs: options.timeoutMs ?? this.#deps.settings.timeoutMs,
    };
    return await withRestarts(
      async (timeoutMs, trace) =>
        (await this.#run(call, { ...options, timeoutMs }, NEW_FLOW, context, trace)).result as R,
      policy,
    );
  }

  /**
   * The one loop every call runs: each request goes out through the round chain with this round's inputs, its
   * answer is read by the call, and an `input_required` answer's questions go to the callbacks (or, when
   * `flow.pause`, end the step). The answers and state of a round live only in this call's closure, so they never
   * reach another request. The time limit and the caller's signal bound the whole call; a task answer is
   * followed to its end.
   */
  async #run<R>(
    call: Call<R>,
    options: CallOptions,
    flow: Flow,
    context: CallContext,
    trace: AttemptTrace | undefined,
  ): Promise<LoopOutcome<R>> {
    const { settings } = this.#deps;
    const { callbacks, maxRounds, sleep } = settings;
    checkLogLevel('logLevel', options.logLevel);
    if (options.logLevel !== undefined && settings.onLog === undefined) {
      throw new TypeError('"logLevel" expected together with an "onLog" callback in the Client options');
    }
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    using scope = callScope(call.origin, options.signal, timeoutMs);
    const round: RoundSetup = {
      signal: scope.signal,
      // A call with a time limit is bounded by it alone; without one, each request by responseTimeoutMs.
      responseTimeoutMs: timeoutMs === undefined ? settings.responseTimeoutMs : undefined,
      deadline: timeoutMs === undefined ? undefined : Date.now() + timeoutMs,
      context,
      trace,
    };
    let sent = 0;
    const outcome = await runInputRequiredLoop<R | CreatedTask>(
      flow.inputs,
      {
        send: (inputs) => this.#send(call, inputs, options, round, flow.before + sent++),
        answer: (result, n) =>
          answerInputRequests(result.inputRequests ?? {}, callbacks, {
            request: call.origin,
            round: n,
            signal: round.signal,
            serverInfo: result._meta?.[MetaKey.serverInfo] as Implementation | undefined,
            capabilities: this.#deps.capabilities,
          }),
        sleep,
        maxRounds,
        exceeded: (result, n) =>
          roundsExceeded(
            call.origin,
            maxRounds,
            result,
            asks(result) ? toContinuation(call.method, call.params, result, n) : undefined,
          ),
        signal: round.signal,
        pause: flow.pause,
      },
      flow.before,
    );
    if (!(outcome.result instanceof CreatedTask)) return outcome as LoopOutcome<R>;
    // Every request after the first followed an `input_required` result: the task's first question is the next.
    const before = flow.before + sent - 1;
    return {
      result: await this.#deps.tasks.finish(call, outcome.result.task, options, round.signal, before),
    };
  }

  /**
   * One request of `call` with `inputs` through the round chain, read by the call: its complete result, its
   * `InputRequiredResult`, or the task it created. Questions are counted before anything reads them.
   */
  async #send<R>(
    call: Call<R>,
    inputs: RoundInputs,
    options: CallOptions,
    setup: RoundSetup,
    round: number,
  ): Promise<R | InputRequiredResult | CreatedTask> {
    const connection = this.#deps.connection();
    if (connection === undefined) throw notConnected(call.method);
    const { settings } = this.#deps;
    if (setup.trace !== undefined) setup.trace.carriedState = inputs.requestState !== undefined;
    const params = call.paramsOf(inputs);
    const ctx: RoundContext = {
      origin: call.origin,
      method: call.method,
      params,
      round,
      options,
      meta: options.meta === undefined ? {} : callerMeta(options.meta),
      signal: setup.signal,
      call: setup.context,
      protocolVersion: connection.protocolVersion,
      deadline: setup.deadline,
    };
    const { onLog } = settings;
    const sendOptions = {
      signal: setup.signal,
      onprogress: options.onprogress,
      call: call.origin,
      responseTimeoutMs: setup.responseTimeoutMs,
      logLevel: options.logLevel ?? settings.logLevel,
      onlog:
        onLog === undefined
          ? undefined
          : (logged: Parameters<typeof onLog>[0]) => deliverLog(onLog, logged, call.origin),
    };
    const raw = await runClientChain(
      this.#roundChain(),
      ctx,
      () => connection.request(call.method, params, { ...sendOptions, meta: ctx.meta }) as Promise<Result>,
    );
    // Counted before anything reads the questions: a server cannot make this client validate or answer thousands.
    const asked = inputRequestCount(raw);
    const { maxInputRequests } = settings;
    if (asked > maxInputRequests) throw tooManyInputRequests(call.origin, maxInputRequests, asked, raw);
    if (settings.tasks !== undefined && isTaskAnswer(raw)) {
      return new CreatedTask(await readCreatedTask(call.method, raw));
    }
    return call.read(raw);
  }

  /** The user's middleware, outermost first, then the client's own steps. */
  #roundChain(): readonly RoundStep<RoundContext>[] {
    const { middleware } = this.#deps;
    if (this.#chainOf !== middleware.length) {
      this.#chain = [...middleware, ...this.#steps];
      this.#chainOf = middleware.length;
    }
    return this.#chain;
  }
}

/** What every round of one run of a call shares. */
interface RoundSetup {
  readonly signal: AbortSignal | undefined;
  readonly responseTimeoutMs: number | undefined;
  /** When the call's time limit ends (epoch ms); `undefined` without one. */
  readonly deadline: number | undefined;
  readonly context: CallContext;
  readonly trace: AttemptTrace | undefined;
}
