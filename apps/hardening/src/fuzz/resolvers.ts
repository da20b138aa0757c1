// The resolver engine behind McpServer, through its public face: random answer maps on the retry of a call
// whose round 1 asked `a` and `c` (not `b`, which waits for `a`). The engine must never crash (no -32603).
// - answerBinding 'round': it must never finish a call in round 2 (`b` was not asked yet) and never consume an
//   answer for a question it did not ask in this call: `b`'s value always comes from the round that asked `b`.
// - answerBinding 'question' (the default): an answer counts only under the key naming the exact question, so
//   a call may finish in round 2 only when every value the handler got is the answer sent under the key of the
//   very question its resolver asked (for `b`: the question rendered from the `a` answer sent with it).
// (A refused question may end the call early with an isError result: the handler still never runs.)

import type { AnswerBinding } from '@boomerang/mcp-server';
import type { InputRequest, JSONRPCResponse } from '@boomerang/protocol';
import { parseMessage } from '@boomerang/protocol/transport';
import fc from 'fast-check';
import { fuzzServer, META } from './fixtures.js';
import type { FuzzTarget } from './target.js';

/** The answer every honest round gives (and the premature ones never do: their `x` starts with `early`). */
const HONEST = { action: 'accept', content: { x: 'honest' } } as const;

const answer = fc.oneof(
  fc.constant(HONEST as unknown),
  fc.record({
    action: fc.constant('accept'),
    content: fc.record({ x: fc.string({ maxLength: 50 }).map((s) => `early${s}`) }),
  }),
  fc.record({ action: fc.constantFrom('decline', 'cancel', 'accept', 'maybe') }),
  fc.record({
    action: fc.constant('accept'),
    content: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
  }),
  fc.record({ roots: fc.array(fc.record({ uri: fc.constantFrom('file:///x', 'nope') }), { maxLength: 2 }) }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Keys = { a: string; b: string | undefined; c: string };

let nextId = 1;

async function call(
  mcp: ReturnType<typeof fuzzServer>['mcp'],
  extra: Record<string, unknown>,
): Promise<JSONRPCResponse> {
  const request = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { _meta: META, name: 'plan', ...extra },
  };
  const response = await mcp.handle(request);
  if (response === undefined || !parseMessage(response).ok) throw new Error('no JSON-RPC response');
  return response;
}

type Outcome =
  | { kind: 'error'; code: number; message: string }
  | { kind: 'complete'; isError: boolean }
  | { kind: 'input_required'; inputRequests: Record<string, InputRequest>; requestState: string };

function outcomeOf(response: JSONRPCResponse): Outcome {
  if ('error' in response) {
    const { code, message } = response.error as { code: number; message: string };
    return { kind: 'error', code, message };
  }
  const result = response.result as Record<string, unknown>;
  if (result.resultType === 'complete') return { kind: 'complete', isError: result.isError === true };
  return {
    kind: 'input_required',
    inputRequests: (result.inputRequests ?? {}) as Record<string, InputRequest>,
    requestState: result.requestState as string,
  };
}

const messageOf = (request: InputRequest | undefined) =>
  request?.method === 'elicitation/create' ? request.params.message : undefined;

/** Answers every question of `round` honestly until the call completes (at most 3 more rounds). */
async function finish(mcp: ReturnType<typeof fuzzServer>['mcp'], round: Outcome, keys: Keys): Promise<void> {
  let current = round;
  for (let i = 0; i < 3 && current.kind === 'input_required'; i++) {
    const inputResponses = Object.fromEntries(Object.keys(current.inputRequests).map((key) => [key, HONEST]));
    for (const [key, request] of Object.entries(current.inputRequests)) {
      if (messageOf(request)?.startsWith('B after')) keys.b = key;
    }
    current = outcomeOf(await call(mcp, { inputResponses, requestState: current.requestState }));
  }
  if (current.kind !== 'complete')
    throw new Error(`an honest client could not finish: ${JSON.stringify(current)}`);
}

/** The resolver engine target, under one `answerBinding`. */
function resolversTargetFor(answerBinding: AnswerBinding): FuzzTarget {
  const strict = answerBinding === 'round';
  return {
    name: `resolver engine (answerBinding '${answerBinding}')`,
    claim: strict
      ? 'random answer maps never crash it, never finish a call early, never feed b an answer b was not asked'
      : 'random answer maps never crash it; every value comes from the answer under the key of its exact question',
    setup() {
      const { mcp, received } = fuzzServer(answerBinding);
      let round1: { keys: Keys; state: string } | undefined;
      const first = async () => {
        const outcome = outcomeOf(await call(mcp, {}));
        if (outcome.kind !== 'input_required') throw new Error('round 1 did not ask');
        const keys: Partial<Keys> = {};
        for (const [key, request] of Object.entries(outcome.inputRequests)) {
          if (messageOf(request) === 'A?') keys.a = key;
          if (messageOf(request) === 'C?') keys.c = key;
        }
        if (keys.a === undefined || keys.c === undefined || Object.keys(outcome.inputRequests).length !== 2) {
          throw new Error(`round 1 asked ${Object.keys(outcome.inputRequests).join(', ')}`);
        }
        // One honest run teaches b's key (the engine's own), so that premature answers can aim at it.
        const learned = { ...keys, b: undefined } as Keys;
        await finish(mcp, outcome, learned);
        return { keys: learned, state: outcome.requestState };
      };
      const property = fc.asyncProperty(
        fc.dictionary(fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 4 })), answer, {
          maxKeys: 5,
        }),
        fc.boolean(),
        async (byName, keepState) => {
          round1 ??= await first();
          const { keys, state } = round1;
          // The b key is the engine's own: learn it once from an honest run, then aim premature answers at it.
          const key = (name: string) =>
            name === 'a' ? keys.a : name === 'b' ? (keys.b as string) : name === 'c' ? keys.c : name;
          const inputResponses = Object.fromEntries(
            Object.entries(byName).map(([name, value]) => [key(name), value]),
          );
          const calls = received.calls.length;
          const round2 = outcomeOf(
            await call(mcp, { inputResponses, ...(keepState && { requestState: state }) }),
          );
          if (round2.kind === 'error' && round2.code !== -32602)
            throw new Error(`round 2 answered ${round2.code} ${round2.message}`);
          // A refusal (decline, cancel) may end the call with an isError result; nothing may run the handler.
          if (received.calls.length !== calls || (round2.kind === 'complete' && !round2.isError)) {
            if (strict) throw new Error('round 2 finished the call');
            // Finished early: only when each value is the answer under the key of its exact question.
            const got = received.calls.at(-1) as Record<'a' | 'b' | 'c', unknown>;
            const sent = (name: 'a' | 'b' | 'c') =>
              (inputResponses[key(name)] as { content?: unknown })?.content;
            const aText = (sent('a') as { x?: unknown } | undefined)?.x;
            if (
              received.calls.length !== calls + 1 ||
              typeof aText !== 'string' ||
              aText.length !== HONEST.content.x.length
            ) {
              throw new Error(
                `round 2 finished the call without the exact questions answered: ${JSON.stringify(got)}`,
              );
            }
            for (const name of ['a', 'b', 'c'] as const) {
              if (JSON.stringify(got[name]) !== JSON.stringify(sent(name))) {
                throw new Error(`${name} got ${JSON.stringify(got[name])}, not the answer under its key`);
              }
            }
            return;
          }
          if (round2.kind === 'input_required') {
            // b's key names the question rendered from the a answer: its node part is fixed, its digest varies.
            const bNode = `${(keys.b as string).split('.')[0]}.`;
            const known = (k: string) => k === keys.a || k === keys.c || k.startsWith(bNode);
            const unknown = Object.keys(round2.inputRequests).filter((k) => !known(k));
            if (unknown.length > 0) throw new Error(`round 2 asked unknown questions ${unknown.join(', ')}`);
            // A copy: finishing may ask b under another key ("B after 14?"), which must not replace the learned one.
            await finish(mcp, round2, { ...keys });
            const got = received.calls.at(-1) as { b: { x: string } };
            // 'question': an answer sent in round 2 under the key of b's exact question ("B after 6?", so only
            // with an a answer of that length in the same request) is b's answer; any other is never consumed.
            const sentA = (inputResponses[keys.a] as { content?: { x?: unknown } } | undefined)?.content?.x;
            const sentB = (inputResponses[keys.b as string] as { content?: unknown } | undefined)?.content;
            const boundB =
              !strict && typeof sentA === 'string' && sentA.length === HONEST.content.x.length
                ? JSON.stringify(sentB)
                : undefined;
            if (got.b.x !== 'honest' && JSON.stringify(got.b) !== boundB) {
              throw new Error(`b got a premature answer: ${JSON.stringify(got.b)}`);
            }
          }
        },
      );
      return { property: property as never, dispose: () => mcp.close() };
    },
  };
}

/** The resolver engine targets: the default binding, and the strict one. */
export const resolversTargets: readonly FuzzTarget[] = [
  resolversTargetFor('question'),
  resolversTargetFor('round'),
];
