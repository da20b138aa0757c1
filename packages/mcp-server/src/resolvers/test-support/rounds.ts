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

/** The `InputRequiredResult` of a round, failing when it resolved. */
export function questionsOf(result: ResolverRoundResult): InputRequiredResult & {
  inputRequests: Record<string, InputRequest>;
  requestState: string;
} {
  if (result.kind !== 'input_required') throw new Error(`expected questions, got ${JSON.stringify(result)}`);
  return result.result as InputRequiredResult & {
    inputRequests: Record<string, InputRequest>;
    requestState: string;
  };
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
): Promise<{ values: Record<string, unknown>; rounds: Record<string, InputRequest>[]; states: string[] }> {
  const rounds: Record<string, InputRequest>[] = [];
  const states: string[] = [];
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
