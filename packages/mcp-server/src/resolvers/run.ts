// runResolvers: one round of a call. Runs every resolver of a plan at most once, consumes the answers the
// previous round asked for, and either hands back all values or one InputRequiredResult with every question
// that can be asked now.
import {
  argumentError,
  ErrorCode,
  type InputRequest,
  type InputRequiredResult,
  type InputResponses,
  inputRequired,
  isPlainObject,
  isThenable,
  McpError,
} from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { ResolutionError } from './errors.js';
import { type PlanImpl, type PlanNode, planOf, type ResolverPlan } from './plan.js';
import { type AnswerRead, type QuestionImpl, questionOf } from './questions.js';
import { decodeState, encodeState, type RecordedAnswer, type ResolverState, utf8Length } from './state.js';

/**
 * The outcome of a round: every resolved value by its name in the `resolve` map, or the `InputRequiredResult`
 * to return (its `requestState`, when there are answers to carry, is plaintext in the engine's format; the
 * server seals it on the way out).
 */
export type ResolverRoundResult =
  | { kind: 'resolved'; values: Record<string, unknown> }
  | { kind: 'input_required'; result: InputRequiredResult };

type Outcome =
  | { status: 'value'; value: unknown }
  | { status: 'pending' }
  | { status: 'error'; error: unknown };

const PENDING: Outcome = { status: 'pending' };

/** An outcome now, or once the resolvers and validators it waits on have settled. */
type Step = Outcome | Promise<Outcome>;

const NO_DEPS: readonly Outcome[] = [];

const NO_RESPONSES: InputResponses = Object.freeze({});

const failure = (error: unknown): Outcome => ({ status: 'error', error });

/** `f(value)`, now when `value` is not a promise, else once it settles. */
function then<T>(value: T | Promise<T>, f: (value: T) => Step): Step {
  return value instanceof Promise ? value.then(f) : f(value);
}

const NOTHING_TO_RESOLVE: ResolverRoundResult = Object.freeze({
  kind: 'resolved',
  values: Object.freeze({}),
});

/** Wire keys a node keeps (questions whose message is built from arguments cannot grow the cache unbounded). */
const WIRE_KEYS_PER_NODE = 256;

/**
 * The key a question goes out under and its answer comes back under: the node's key and the question's digest,
 * so an answer names the exact question it answers without any state. Built once per node and question: a key
 * built anew each round is a fresh string that every property access with it must flatten and look up in the
 * engine's string table, where the cached one already is that table's entry.
 */
function wireKey(node: PlanNode, q: string): string {
  let key = node.wireKeys.get(q);
  if (key === undefined) {
    if (node.wireKeys.size >= WIRE_KEYS_PER_NODE) node.wireKeys.clear();
    // A property name is the string table's copy: the cached key is that copy, flat, from the first round on.
    key = Object.keys({ [`${node.key}.${q}`]: 0 })[0] as string;
    node.wireKeys.set(q, key);
  }
  return key;
}

/** Sets an own data property (a name such as `__proto__` stays an ordinary member). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/**
 * Runs one round of a registration's resolvers (none: `{ kind: 'resolved', values: {} }`) for a call with the
 * validated `args` (tool arguments without the resolved names, prompt arguments, template variables). The
 * answers are `ctx.inputResponses` and the previous round's state `ctx.requestState`, plaintext: the server
 * opened and verified it, and seals the state of a returned `InputRequiredResult` on the way out. Every
 * resolver receives `ctx` as its second parameter.
 *
 * - Every resolver runs at most once in the round, however many resolvers use it; independent resolvers run
 *   concurrently. A resolver runs only once all its `uses` have values; the others wait for a later round.
 * - A question is answered, in this order, by the recorded answer to the very same question (a digest of the
 *   rendered request must match, and the answer must still validate: otherwise it is dropped and asked again);
 *   or by the answer in `inputResponses` under its wire key, `<node key>.<digest>`, which names the exact
 *   question asked (an answer to a reworded question sits under another key and is not consumed); else it is
 *   asked, under that key.
 * - The state records only answers, each bound to its question's digest; a round with none to carry returns
 *   no `requestState` (a first round seals nothing). With the plan's `answerBinding: 'round'`, the state also
 *   records the digests of the questions asked, always goes out, and a fresh answer counts only when the
 *   previous round's state asked that exact question.
 * - All questions that can be asked now go out together in one `InputRequiredResult`, whatever their kinds;
 *   questions that depend on unanswered ones come in later rounds. Nothing is recorded for plain values:
 *   resolvers re-run every round, only answers are remembered. (On a 2025-11-25 session the server turns that
 *   result into server→client requests and calls again with the answers: the same rounds.)
 *
 * With `only`, just those entries of the `resolve` map run (and the resolvers they use); `values` then has only
 * them. Wire keys stay those of the whole plan, so a later full round consumes the same answers.
 *
 * @throws McpError `-32602` when an answer is of the wrong kind or does not match the schema (the message
 * names the resolver; no validation internals).
 * @throws ResolutionError when an `elicit`/`elicitUrl` question was declined or cancelled.
 * @throws RangeError when the state to record exceeds the plan's `maxStateBytes`.
 * @throws whatever a resolver throws. When several fail, the first failure in plan order is thrown, after the
 * round has settled (deterministic); a failure wins over questions still pending.
 */
export async function runResolvers(
  plan: ResolverPlan | undefined,
  args: Readonly<Record<string, unknown>>,
  ctx: RequestContext,
  only?: readonly string[],
): Promise<ResolverRoundResult> {
  return resolveRound(plan, args, ctx, only);
}

/**
 * @internal {@link runResolvers}, synchronous when every resolver and validator of the round is: its result, or
 * a promise of it when one of them was asynchronous (McpServer's `tools/call` awaits only then). Throws what
 * `runResolvers` rejects with.
 */
export function resolveRound(
  plan: ResolverPlan | undefined,
  args: Readonly<Record<string, unknown>>,
  ctx: RequestContext,
  only?: readonly string[],
): ResolverRoundResult | Promise<ResolverRoundResult> {
  if (plan === undefined) return NOTHING_TO_RESOLVE;
  const impl = planOf(plan);
  // `only`: a round of the named entries and what they use (a task tool's questions asked before the task).
  const entries = only === undefined ? impl.entries : impl.entries.filter(([name]) => only.includes(name));
  if (!isPlainObject(args)) throw argumentError('args', 'plain object', args);
  const responses: InputResponses = ctx.inputResponses ?? NO_RESPONSES;
  if (!isPlainObject(responses)) throw argumentError('ctx.inputResponses', 'plain object', responses);
  const state = ctx.requestState;
  if (state !== undefined && typeof state !== 'string')
    throw argumentError('ctx.requestState', 'string', state);
  return new Round(plan, impl.nodes, entries, args, ctx, responses, decodeState(state)).start();
}

/** A question asked this round: the rendered request, its digest and the wire key it goes out under. */
interface Asked {
  readonly request: InputRequest;
  readonly q: string;
  readonly key: string;
}

/**
 * One round of a plan: what it was given and what each node came to. Synchronous wherever the resolvers and
 * validators are: a round of plain values and questions allocates no promise per resolver (a one-question round
 * is mostly this code), and asynchronous ones are awaited as before.
 */
class Round {
  readonly #plan: ResolverPlan;
  readonly #nodes: readonly PlanNode[];
  readonly #entries: PlanImpl['entries'];
  readonly #args: Readonly<Record<string, unknown>>;
  readonly #ctx: RequestContext;
  readonly #responses: InputResponses;
  readonly #previous: ResolverState;
  readonly #byRound: boolean;
  // Per node, by its index in the plan (arrays: a round allocates little).
  readonly #carried: (RecordedAnswer | undefined)[];
  readonly #asked: (Asked | undefined)[];
  readonly #memo: (Step | undefined)[];
  readonly #settled: (Outcome | undefined)[];
  #questions = 0;

  constructor(
    plan: ResolverPlan,
    nodes: readonly PlanNode[],
    entries: PlanImpl['entries'],
    args: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
    responses: InputResponses,
    previous: ResolverState,
  ) {
    this.#plan = plan;
    this.#nodes = nodes;
    this.#entries = entries;
    this.#args = args;
    this.#ctx = ctx;
    this.#responses = responses;
    this.#previous = previous;
    this.#byRound = plan.answerBinding === 'round';
    this.#carried = new Array(nodes.length);
    this.#asked = new Array(nodes.length);
    this.#memo = new Array(nodes.length);
    this.#settled = new Array(nodes.length);
  }

  /** Visits every entry: the round's result, or a promise of it once every resolver has settled. */
  start(): ResolverRoundResult | Promise<ResolverRoundResult> {
    const steps = this.#entries.map(([, node]) => this.#visit(node));
    return steps.some((step) => step instanceof Promise)
      ? Promise.all(steps).then(() => this.#finish())
      : this.#finish();
  }

  #visit(node: PlanNode): Step {
    let outcome = this.#memo[node.index];
    if (outcome === undefined) {
      const step = this.#evaluate(node);
      if (step instanceof Promise) {
        outcome = step.then((settledOutcome) => {
          this.#settled[node.index] = settledOutcome;
          return settledOutcome;
        });
      } else {
        this.#settled[node.index] = step;
        outcome = step;
      }
      this.#memo[node.index] = outcome;
    }
    return outcome;
  }

  #evaluate(node: PlanNode): Step {
    if (node.uses.length === 0) return this.#run(node, NO_DEPS);
    const deps = node.uses.map(([, dep]) => this.#visit(dep));
    return deps.some((dep) => dep instanceof Promise)
      ? Promise.all(deps).then((outcomes) => this.#run(node, outcomes))
      : this.#run(node, deps as Outcome[]);
  }

  #run(node: PlanNode, deps: readonly Outcome[]): Step {
    for (const outcome of deps) if (outcome.status === 'error') return outcome;
    if (deps.some((outcome) => outcome.status === 'pending')) {
      // Not run this round: keep its recorded answer for the round where it asks again.
      const kept = this.#previous.answers.get(node.key);
      if (kept !== undefined) this.#carried[node.index] = kept;
      return PENDING;
    }
    const args = this.#args;
    const input: Record<string, unknown> = {};
    for (const name of node.args) if (Object.hasOwn(args, name)) define(input, name, args[name]);
    for (const [i, [name]] of node.uses.entries()) define(input, name, (deps[i] as { value: unknown }).value);
    let returned: unknown;
    try {
      returned = node.fn(input, this.#ctx);
    } catch (error) {
      return failure(error);
    }
    if (!isThenable(returned)) return this.#resolved(node, returned);
    return Promise.resolve(returned).then((value) => this.#resolved(node, value), failure);
  }

  /** What a resolver returned: a value, or a question to answer or ask. */
  #resolved(node: PlanNode, returned: unknown): Step {
    const question = questionOf(returned);
    if (question === undefined) return { status: 'value', value: returned };
    try {
      const step = this.#ask(node, question);
      return step instanceof Promise ? step.catch(failure) : step;
    } catch (error) {
      return failure(error);
    }
  }

  /** The recorded answer to the very same question, if it still validates; else {@link #answerOrAsk}. */
  #ask(node: PlanNode, question: QuestionImpl): Step {
    const q = question.digest();
    const recorded = this.#previous.answers.get(node.key);
    if (recorded === undefined || recorded.q !== q) return this.#answerOrAsk(node, question, q);
    return then(question.read(recorded.a), (read) => {
      if (!read.ok) return this.#answerOrAsk(node, question, q);
      this.#carried[node.index] = recorded;
      return settle(node, read);
    });
  }

  /** A fresh answer under the question's wire key, or the question goes out. */
  #answerOrAsk(node: PlanNode, question: QuestionImpl, q: string): Step {
    const key = wireKey(node, q);
    const responses = this.#responses;
    if (Object.hasOwn(responses, key) && (!this.#byRound || this.#previous.asked?.get(node.key) === q)) {
      return then(question.read(responses[key]), (read) => this.#consume(node, read, q));
    }
    this.#asked[node.index] = { request: question.request, q, key };
    this.#questions++;
    return PENDING;
  }

  #consume(node: PlanNode, read: AnswerRead, q: string): Outcome {
    if (!read.ok) {
      const message = `Resolver for '${node.label}' received ${read.problem}`;
      return { status: 'error', error: new McpError(ErrorCode.InvalidParams, message) };
    }
    this.#carried[node.index] = { q, a: read.record };
    return settle(node, read);
  }

  /** The round's result once every resolver has settled: its first failure thrown, the values, or the questions. */
  #finish(): ResolverRoundResult {
    const settled = this.#settled;
    for (const node of this.#nodes) {
      const outcome = settled[node.index];
      if (outcome?.status === 'error') throw outcome.error;
    }
    if (this.#questions > 0) return this.#inputRequired();
    const values: Record<string, unknown> = {};
    for (const [name, node] of this.#entries)
      define(values, name, (settled[node.index] as { value: unknown }).value);
    return { kind: 'resolved', values };
  }

  /** The questions of the round, with the state that carries its answers (and, bound by round, its questions). */
  #inputRequired(): ResolverRoundResult {
    const inputRequests: Record<string, InputRequest> = {};
    const answers = new Map<string, RecordedAnswer>();
    const askedNow = this.#byRound ? new Map<string, string>() : undefined;
    for (const node of this.#nodes) {
      const recorded = this.#carried[node.index];
      if (recorded !== undefined) answers.set(node.key, recorded);
      const question = this.#asked[node.index];
      if (question !== undefined) {
        define(inputRequests, question.key, question.request);
        askedNow?.set(node.key, question.q);
      }
    }
    if (answers.size === 0 && askedNow === undefined) {
      return { kind: 'input_required', result: inputRequired({ inputRequests }) };
    }
    const requestState = encodeState({ answers, asked: askedNow });
    const size = utf8Length(requestState);
    const { maxStateBytes, owner } = this.#plan;
    if (size > maxStateBytes) {
      throw new RangeError(
        `${owner}: the request state of this call would be ${size} bytes, over the ${maxStateBytes}-byte ` +
          'cap (maxStateBytes); record less (e.g. smaller sampling answers) or raise the cap',
      );
    }
    return { kind: 'input_required', result: inputRequired({ inputRequests, requestState }) };
  }
}

/** A valid answer's outcome: its value, or a `ResolutionError` when the question was declined or cancelled. */
function settle(node: PlanNode, read: AnswerRead & { ok: true }): Outcome {
  return 'refused' in read
    ? { status: 'error', error: new ResolutionError(node.label, read.refused) }
    : { status: 'value', value: read.value };
}
