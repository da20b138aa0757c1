// Test helpers: a fake request context and a scripted client driving runResolvers round by round.
import type {
  ClientCapabilities,
  InputRequest,
  InputRequiredResult,
  InputResponses,
} from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { type ResolverPlan, runResolvers } from '../index.js';
import type { ResolverRoundResult } from '../run.js';

/** A request context with everything a resolver may read (no answers, no state unless overridden). */
export function fakeCtx(overrides: Partial<RequestContext> = {}): RequestContext {
  const caps: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
  return {
    requestId: 1,
    method: 'tools/call',
    signal: new AbortController().signal,
    protocolVersion: '2026-07-28',
    clientCapabilities: caps,
    clientInfo: { name: 'test', version: '1' },
    meta: {},
    auth: undefined,
    progressToken: undefined,
    logLevel: undefined,
    inputResponses: undefined,
    requestState: undefined,
    sendProgress: async () => {},
    log: async () => {},
    ...overrides,
  };
}

/** Runs one round with the given answers and (plaintext) state. */
export function round(
  plan: ResolverPlan,
  args: Record<string, unknown>,
  inputResponses?: Record<string, unknown>,
  state?: string,
): Promise<ResolverRoundResult> {
  return runResolvers(
    plan,
    args,
    fakeCtx({ inputResponses: inputResponses as InputResponses | undefined, requestState: state }),
  );
}

/** A round's questions: `inputRequests` always, `requestState` when the round had answers to carry. */
export type Questions = InputRequiredResult & { inputRequests: Record<string, InputRequest> };

/** The `InputRequiredResult` of a round, failing when it resolved. */
export function questionsOf(result: ResolverRoundResult): Questions {
  if (result.kind !== 'input_required') throw new Error(`expected questions, got ${JSON.stringify(result)}`);
  return result.result as Questions;
}

/** The state a round minted, failing when it minted none. */
export function stateOf(questions: Questions): string {
  if (questions.requestState === undefined)
    throw new Error('expected a requestState, the round carried none');
  return questions.requestState;
}

/** The wire key under which `questions` asked plan node `node` (`r0` → `r0.<digest>`), failing when it did not. */
export function keyOf(questions: Questions, node: string): string {
  const key = Object.keys(questions.inputRequests).find((k) => k.startsWith(`${node}.`));
  if (key === undefined)
    throw new Error(`round did not ask ${node}: ${Object.keys(questions.inputRequests)}`);
  return key;
}

/** The digest part of a wire key: the question it names. */
export function digestOf(questions: Questions, node: string): string {
  return keyOf(questions, node).slice(node.length + 1);
}

/**
 * Retries after `previous` as a client does: the answers given by plan node key (`r0`, …) go under the wire
 * keys `previous` asked them with, and its state (if any) is echoed.
 */
export function retry(
  plan: ResolverPlan,
  args: Record<string, unknown>,
  previous: Questions,
  answers: Record<string, unknown>,
): Promise<ResolverRoundResult> {
  const responses = Object.fromEntries(
    Object.entries(answers).map(([node, answer]) => [keyOf(previous, node), answer]),
  );
  return round(plan, args, responses, previous.requestState);
}

/** The values of a round, failing when it asked. */
export function valuesOf(result: ResolverRoundResult): Record<string, unknown> {
  if (result.kind !== 'resolved') throw new Error(`expected values, got ${JSON.stringify(result.result)}`);
  return result.values;
}

/** An answering client: the response for one input request under its key. */
export type Answerer = (request: InputRequest, key: string) => unknown;

/**
 * Drives a call like a client does: answer every request, echo the state, retry, until the values come back
 * (or `maxRounds` questions rounds pass). Returns the values and every round's input requests.
 */
export async function drive(
  plan: ResolverPlan,
  args: Record<string, unknown>,
  answer: Answerer,
  maxRounds = 10,
): Promise<{
  values: Record<string, unknown>;
  rounds: Record<string, InputRequest>[];
  states: (string | undefined)[];
}> {
  const rounds: Record<string, InputRequest>[] = [];
  const states: (string | undefined)[] = [];
  let responses: InputResponses | undefined;
  let state: string | undefined;
  for (let i = 0; i <= maxRounds; i++) {
    const result = await round(plan, args, responses, state);
    if (result.kind === 'resolved') return { values: result.values, rounds, states };
    const { inputRequests, requestState } = questionsOf(result);
    rounds.push(inputRequests);
    states.push(requestState);
    responses = Object.fromEntries(
      Object.entries(inputRequests).map(([key, request]) => [key, answer(request, key)]),
    ) as InputResponses;
    state = requestState;
  }
  throw new Error(`still asking after ${maxRounds} rounds`);
}

/** The message of an elicitation request (form or URL), or the method for other requests. */
export function describe(request: InputRequest): string {
  return request.method === 'elicitation/create' ? request.params.message : request.method;
}

/** Accepts every form with `content`, answers sampling and roots with fixed results. */
export function accepting(content: Record<string, unknown>): Answerer {
  return (request) => {
    if (request.method === 'sampling/createMessage') {
      return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
    }
    if (request.method === 'roots/list') return { roots: [{ uri: 'file:///work' }] };
    return request.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content };
  };
}
