// The official SDK 2.4.0 side's server definitions: the McpServer factory for the workload and its request-state
// codec. Shared by the in-memory flow bench and the transport bench's server processes; imports nothing
// client-side, so a server process that loads it stays as lean as a real one.

import { randomBytes } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import {
  argumentQuestions,
  CONFIRM_MESSAGE,
  confirmMessageOf,
  expected,
  stepKey,
  WIZARD_STEPS,
  wizardMessage,
  wizardMessageOf,
} from './workload.mjs';

/** Questions that carry the call's argument (BENCH_QUESTIONS=args), or the constant ones. */
const ARGUMENT_QUESTIONS = argumentQuestions();

/** The SDK's request-state codec (HMAC-SHA256), bound to the method as its documentation suggests. */
export function createCodec() {
  return createRequestStateCodec({ key: randomBytes(32), bind: (ctx) => ctx.mcpReq.method });
}

const input = z.object({ n: z.number() });
const confirmSchema = z.object({ ok: z.boolean() });
const stepSchema = z.object({ value: z.string() });
const askConfirm = inputRequired.elicit({ message: CONFIRM_MESSAGE, requestedSchema: confirmSchema });
const askStep = Array.from({ length: WIZARD_STEPS + 1 }, (_, k) =>
  k === 0 ? undefined : inputRequired.elicit({ message: wizardMessage(k), requestedSchema: stepSchema }),
);

/** A fresh official McpServer running the workload; `codec` verifies and mints its request state. */
export function buildServer(codec) {
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  server.registerTool('plain', { inputSchema: input }, async ({ n }) => ({
    content: [{ type: 'text', text: expected.plain(n) }],
  }));
  server.registerTool('confirm', { inputSchema: input }, async ({ n }, ctx) => {
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmSchema);
    if (confirmed?.ok !== true) {
      const ask = ARGUMENT_QUESTIONS
        ? inputRequired.elicit({ message: confirmMessageOf(n), requestedSchema: confirmSchema })
        : askConfirm;
      return inputRequired({ inputRequests: { confirm: ask } });
    }
    return { content: [{ type: 'text', text: expected.confirm(n) }] };
  });
  server.registerTool('wizard', { inputSchema: input }, async ({ n }, ctx) => {
    const answers = ctx.mcpReq.requestState()?.answers ?? [];
    const step = answers.length + 1;
    const got = acceptedContent(ctx.mcpReq.inputResponses, stepKey(step), stepSchema);
    const next = got === undefined ? answers : [...answers, got.value];
    if (next.length < WIZARD_STEPS) {
      const k = next.length + 1;
      return inputRequired({
        inputRequests: {
          [stepKey(k)]: ARGUMENT_QUESTIONS
            ? inputRequired.elicit({ message: wizardMessageOf(k, n), requestedSchema: stepSchema })
            : askStep[k],
        },
        requestState: await codec.mint({ answers: next }, ctx),
      });
    }
    return { content: [{ type: 'text', text: `wizard ${n}: ${next.join(',')}` }] };
  });
  return server;
}
