// The Boomerang side: low-level Server whose handlers return InputRequiredResults, request state sealed with the
// one-line `sealed({ keys })` opt-in (AEAD, expiry, binding to method + tool name + argument digest), and the
// Client's automatic loop answering from its `elicitation` callback, over the in-memory pair.

import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { Server, sealed } from '@boomerang/server';
import { createInMemoryPair } from '@boomerang/transport-memory';
import {
  answer,
  CONFIRM_MESSAGE,
  CONFIRM_SCHEMA,
  expected,
  STEP_SCHEMA,
  stepKey,
  TOOL_INPUT_SCHEMA,
  WIZARD_STEPS,
  wizardMessage,
} from './workload.mjs';

const askConfirm = elicitRequest({ mode: 'form', message: CONFIRM_MESSAGE, requestedSchema: CONFIRM_SCHEMA });
const askStep = Array.from({ length: WIZARD_STEPS + 1 }, (_, k) =>
  k === 0
    ? undefined
    : elicitRequest({ mode: 'form', message: wizardMessage(k), requestedSchema: STEP_SCHEMA }),
);
const tools = ['plain', 'confirm', 'wizard'].map((name) => ({ name, inputSchema: TOOL_INPUT_SCHEMA }));
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

async function onCallTool(params, ctx) {
  const n = argumentN(params);
  const responses = ctx.inputResponses;
  switch (params.name) {
    case 'plain':
      return text(expected.plain(n));
    case 'confirm': {
      if (accepted(responses, 'confirm')?.ok !== true)
        return inputRequired({ inputRequests: { confirm: askConfirm } });
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
          inputRequests: { [stepKey(k)]: askStep[k] },
          requestState: JSON.stringify(answers),
        });
      }
      return text(`wizard ${n}: ${answers.join(',')}`);
    }
    default:
      throw new Error(`unknown tool ${params.name}`);
  }
}

/** Connects a Boomerang client to a fresh Boomerang server over the in-memory pair; returns `{ call, close }`. */
export async function setupBoomerang() {
  const server = new Server(
    { name: 'bench', version: '1.0.0' },
    {
      onListTools: async () => ({ tools }),
      onCallTool,
      requestState: sealed({ keys: [generateKey()] }),
    },
  );
  const client = new Client(
    { name: 'bench-client', version: '1.0.0' },
    { elicitation: async (params) => answer(params), inputRequiredMaxRounds: 10 },
  );
  const [clientTransport, serverTransport] = createInMemoryPair();
  const connection = await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    call: (name, n) => client.callTool(name, { n }),
    close: async () => {
      await client.close();
      await connection.close();
    },
  };
}
