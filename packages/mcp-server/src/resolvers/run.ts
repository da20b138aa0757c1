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
  McpError,
} from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { ResolutionError } from './errors.js';
import { type PlanNode, planOf, type ResolverPlan } from './plan.js';
import { type AnswerRead, type QuestionImpl, questionOf } from './questions.js';
import { decodeState, encodeState, type RecordedAnswer, utf8Length } from './state.js';

/**
 * The outcome of a round: every resolved value by its name in the `resolve` map, or the `InputRequiredResult`
 * to return (its `requestState` is plaintext in the engine's format; the server seals it on the way out).
 */
export type ResolverRoundResult =
  | { kind: 'resolved'; values: Record<string, unknown> }
  | { kind: 'input_required'; result: InputRequiredResult };

type Outcome =
  | { status: 'value'; value: unknown }
  | { status: 'pending' }
  | { status: 'error'; error: unknown };

const PENDING: Outcome = { status: 'pending' };

const NOTHING_TO_RESOLVE: ResolverRoundResult = Object.freeze({
  kind: 'resolved',
  values: Object.freeze({}),
});

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
 *   or by `inputResponses[key]`, but only when the previous round's state records that it asked this exact
 *   question (an answer without its state, or to a reworded question, is not consumed); else it is asked.
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
  if (plan === undefined) return NOTHING_TO_RESOLVE;
  const impl = planOf(plan);
  const { nodes } = impl;
  // `only`: a round of the named entries and what they use (a task tool's questions asked before the task).
  const entries = only === undefined ? impl.entries : impl.entries.filter(([name]) => only.includes(name));
  if (!isPlainObject(args)) throw argumentError('args', 'plain object', args);
  const responses: InputResponses = ctx.inputResponses ?? {};
  if (!isPlainObject(responses)) throw argumentError('ctx.inputResponses', 'plain object', responses);
  const state = ctx.requestState;
  if (state !== undefined && typeof state !== 'string')
    throw argumentError('ctx.requestState', 'string', state);
  const previous = decodeState(state);
  const carried = new Map<PlanNode, RecordedAnswer>();
  const asked = new Map<PlanNode, { request: InputRequest; q: string }>();
  const memo = new Map<PlanNode, Promise<Outcome>>();
  const settled = new Map<PlanNode, Outcome>();

  const settle = (node: PlanNode, read: AnswerRead & { ok: true }): Outcome =>
    'refused' in read
      ? { status: 'error', error: new ResolutionError(node.label, read.refused) }
      : { status: 'value', value: read.value };

  const consume = async (
    node: PlanNode,
    question: QuestionImpl,
    answer: unknown,
    q: string,
  ): Promise<Outcome> => {
    const read = await question.read(answer);
    if (!read.ok) {
      const message = `Resolver for '${node.label}' received ${read.problem}`;
      return { status: 'error', error: new McpError(ErrorCode.InvalidParams, message) };
    }
    carried.set(node, { q, a: read.record });
    return settle(node, read);
  };

  const ask = async (node: PlanNode, question: QuestionImpl): Promise<Outcome> => {
    const q = question.digest();
    const recorded = previous.answers.get(node.key);
    if (recorded !== undefined && recorded.q === q) {
      const read = await question.read(recorded.a);
      if (read.ok) {
        carried.set(node, recorded);
        return settle(node, read);
      }
    }
    if (Object.hasOwn(responses, node.key) && previous.asked.get(node.key) === q) {
      return consume(node, question, responses[node.key], q);
    }
    asked.set(node, { request: question.request, q });
    return PENDING;
  };

  const evaluate = async (node: PlanNode): Promise<Outcome> => {
    const deps = await Promise.all(node.uses.map(([, dep]) => visit(dep)));
    const failed = deps.find((outcome) => outcome.status === 'error');
    if (failed !== undefined) return failed;
    if (deps.some((outcome) => outcome.status === 'pending')) {
      // Not run this round: keep its recorded answer for the round where it asks again.
      const kept = previous.answers.get(node.key);
      if (kept !== undefined) carried.set(node, kept);
      return PENDING;
    }
    const input: Record<string, unknown> = {};
    for (const name of node.args) if (Object.hasOwn(args, name)) define(input, name, args[name]);
    for (const [i, [name]] of node.uses.entries()) define(input, name, (deps[i] as { value: unknown }).value);
    try {
      const returned = await node.fn(input, ctx);
      const question = questionOf(returned);
      return question === undefined ? { status: 'value', value: returned } : await ask(node, question);
    } catch (error) {
      return { status: 'error', error };
    }
  };

  const visit = (node: PlanNode): Promise<Outcome> => {
    let outcome = memo.get(node);
    if (outcome === undefined) {
      outcome = evaluate(node).then((settledOutcome) => {
        settled.set(node, settledOutcome);
        return settledOutcome;
      });
      memo.set(node, outcome);
    }
    return outcome;
  };

  await Promise.all(entries.map(([, node]) => visit(node)));
  for (const node of nodes) {
    const outcome = settled.get(node);
    if (outcome?.status === 'error') throw outcome.error;
  }

  if (asked.size === 0) {
    const values: Record<string, unknown> = {};
    for (const [name, node] of entries) define(values, name, (settled.get(node) as { value: unknown }).value);
    return { kind: 'resolved', values };
  }

  const inputRequests: Record<string, InputRequest> = {};
  const answers = new Map<string, RecordedAnswer>();
  const askedNow = new Map<string, string>();
  for (const node of nodes) {
    const recorded = carried.get(node);
    if (recorded !== undefined) answers.set(node.key, recorded);
    const question = asked.get(node);
    if (question !== undefined) {
      define(inputRequests, node.key, question.request);
      askedNow.set(node.key, question.q);
    }
  }
  const requestState = encodeState({ answers, asked: askedNow });
  const size = utf8Length(requestState);
  if (size > plan.maxStateBytes) {
    throw new RangeError(
      `${plan.owner}: the request state of this call would be ${size} bytes, over the ${plan.maxStateBytes}-byte ` +
        'cap (maxStateBytes); record less (e.g. smaller sampling answers) or raise the cap',
    );
  }
  return { kind: 'input_required', result: inputRequired({ inputRequests, requestState }) };
}
