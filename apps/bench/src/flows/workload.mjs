// The one workload both SDKs run: three tools and the answers a scripted client gives. Messages and schemas are
// static (hoisted once per process on both sides, like the seed's ASK_REGION), so each side pays only for its own
// per-request machinery.

/** Wizard steps: each round asks one question; the state carries the answers of the earlier rounds. */
export const WIZARD_STEPS = 3;

/** Elicitation message of the confirm tool. */
export const CONFIRM_MESSAGE = 'Confirm the order?';

/** Elicitation message of wizard step `k` (1-based). */
export const wizardMessage = (k) => `Wizard step ${k} of ${WIZARD_STEPS}: pick a value`;

/**
 * True with `BENCH_QUESTIONS=args` (flows.bench.mjs `--questions=args`, inherited by every child process): the
 * sides ask questions that carry the call's argument, as real questions do (`Proceed with ${n}?`), so no side can
 * serve them from a cache of rendered questions; otherwise the constant messages above. Read when a side's module
 * is loaded.
 */
export const argumentQuestions = () => globalThis.process?.env?.BENCH_QUESTIONS === 'args';

/** The confirm question of call `n` (with argument-carrying questions). */
export const confirmMessageOf = (n) => `Proceed with ${n}?`;

/** The question of wizard step `k` of call `n` (it starts `Wizard step k`, as {@link answer} reads). */
export const wizardMessageOf = (k, n) => `Wizard step ${k} of ${WIZARD_STEPS} for ${n}: pick a value`;

/** Form schema of the confirm question. */
export const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
};

/** Form schema of each wizard question. */
export const STEP_SCHEMA = {
  type: 'object',
  properties: { value: { type: 'string' } },
  required: ['value'],
};

/** Input schema shared by the three tools. */
export const TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
};

/** Key of wizard step `k` (1-based) in `inputRequests` / `inputResponses`. */
export const stepKey = (k) => `step${k}`;

/** The scripted user: accepts every question. Confirm → `{ ok: true }`; wizard step k → `{ value: 'v<k>' }`. */
export function answer(params) {
  if (params.message === CONFIRM_MESSAGE || params.message.startsWith('Proceed with ')) {
    return { action: 'accept', content: { ok: true } };
  }
  const k = params.message.charCodeAt(12) - 48; // 'Wizard step k …'
  return { action: 'accept', content: { value: `v${k}` } };
}

/** Text each tool completes with, so every flow is checked on both sides. */
export const expected = {
  plain: (n) => `plain ${n}`,
  confirm: (n) => `confirmed ${n}`,
  wizard: (n) => `wizard ${n}: v1,v2,v3`,
};

/**
 * Runs `count` flows of `flow`, numbered from `offset`, on 32 concurrent workers through `call(flow, n)` (which
 * resolves to the final result), and throws on the first result that is not `expected[flow](n)`.
 */
export async function runFlows(call, flow, count, offset = 0) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = offset + next++;
      const text = (await call(flow, n))?.content?.[0]?.text;
      if (text !== expected[flow](n)) throw new Error(`${flow} ${n}: unexpected result ${text}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}
