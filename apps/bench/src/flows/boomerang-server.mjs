// The Boomerang side's server definitions (tools, handler, sealed request state), shared by the in-memory flow
// bench and the transport bench's server processes; imports nothing client-side, so a server process that loads
// it stays as lean as a real one.

import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { Server, sealed } from '@boomerang/server';
import {
  argumentQuestions,
  CONFIRM_MESSAGE,
  CONFIRM_SCHEMA,
  confirmMessageOf,
  expected,
  STEP_SCHEMA,
  stepKey,
  TOOL_INPUT_SCHEMA,
  WIZARD_STEPS,
  wizardMessage,
  wizardMessageOf,
} from './workload.mjs';

/** Questions that carry the call's argument (BENCH_QUESTIONS=args), or the constant ones. */
const ARGUMENT_QUESTIONS = argumentQuestions();

const askConfirm = elicitRequest({ mode: 'form', message: CONFIRM_MESSAGE, requestedSchema: CONFIRM_SCHEMA });
const askStep = Array.from({ length: WIZARD_STEPS + 1 }, (_, k) =>
  k === 0
    ? undefined
    : elicitRequest({ mode: 'form', message: wizardMessage(k), requestedSchema: STEP_SCHEMA }),
);
export const tools = ['plain', 'confirm', 'wizard'].map((name) => ({ name, inputSchema: TOOL_INPUT_SCHEMA }));
const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** The accepted content of `responses[key]`, or undefined (missing, declined, cancelled, or not a form answer). */
function accepted(responses, key) {
  const response = responses?.[key];
  return response?.action === 'accept' && typeof response.content === 'object' ? response.content : undefined;
}

function argumentN(params) {
  const n = params.arguments?.n;
  if (typeof n !== 'number') throw new TypeError('"n" expected number');
  return n;
}

export async function onCallTool(params, ctx) {
  const n = argumentN(params);
  const responses = ctx.inputResponses;
  switch (params.name) {
    case 'plain':
      return text(expected.plain(n));
    case 'confirm': {
      if (accepted(responses, 'confirm')?.ok !== true) {
        const ask = ARGUMENT_QUESTIONS
          ? elicitRequest({ mode: 'form', message: confirmMessageOf(n), requestedSchema: CONFIRM_SCHEMA })
          : askConfirm;
        return inputRequired({ inputRequests: { confirm: ask } });
      }
      return text(expected.confirm(n));
    }
    case 'wizard': {
      // `ctx.requestState` is the verified plain text: sealed() opened it before this handler ran.
      const state = ctx.requestState;
      const answers = state === undefined ? [] : JSON.parse(state);
      const got = accepted(responses, stepKey(answers.length + 1))?.value;
      if (typeof got === 'string') answers.push(got);
      if (answers.length < WIZARD_STEPS) {
        const k = answers.length + 1;
        return inputRequired({
          inputRequests: {
            [stepKey(k)]: ARGUMENT_QUESTIONS
              ? elicitRequest({ mode: 'form', message: wizardMessageOf(k, n), requestedSchema: STEP_SCHEMA })
              : askStep[k],
          },
          requestState: JSON.stringify(answers),
        });
      }
      return text(`wizard ${n}: ${answers.join(',')}`);
    }
    default:
      throw new Error(`unknown tool ${params.name}`);
  }
}

/** A fresh Boomerang server running the workload, request state sealed with a fresh key. */
export function createBoomerangServer() {
  return new Server(
    { name: 'bench', version: '1.0.0' },
    {
      onListTools: async () => ({ tools }),
      onCallTool,
      requestState: sealed({ keys: [generateKey()] }),
    },
  );
}
