// The Boomerang side as users write it, server part: an McpServer whose tools take a zod input and ask through
// resolvers (request state sealed, McpServer's default), the same three tools, questions and answers as the
// hand-written low-level side (boomerang-server.mjs). Imports nothing client-side, so the HTTP bench's server
// process that loads it holds what a real McpServer process holds (boomerang-mcp.mjs adds the in-memory Client).
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';
import {
  argumentQuestions,
  CONFIRM_MESSAGE,
  confirmMessageOf,
  expected,
  WIZARD_STEPS,
  wizardMessage,
  wizardMessageOf,
} from './workload.mjs';

/** Questions that carry the call's argument (BENCH_QUESTIONS=args), or the constant ones. */
const ARGUMENT_QUESTIONS = argumentQuestions();

// Schemas and messages are static, as on the other sides: each side pays only for its own machinery.
const INPUT = z.object({ n: z.number() });
const CONFIRM = z.object({ ok: z.boolean() });
const STEP = z.object({ value: z.string() });

// With BENCH_QUESTIONS=args the questions carry the tool's argument (`Proceed with ${n}?`), read by name.
const confirm = ARGUMENT_QUESTIONS
  ? resolver({ args: ['n'] }, ({ n }) => elicit(confirmMessageOf(n), CONFIRM))
  : resolver({}, () => elicit(CONFIRM_MESSAGE, CONFIRM));
// Each wizard step `uses` the one before, so each round asks one question, as on the low-level side.
const steps = [];
for (let k = 1; k <= WIZARD_STEPS; k++) {
  const message = wizardMessage(k);
  const ask = ARGUMENT_QUESTIONS
    ? ({ n }) => elicit(wizardMessageOf(k, n), STEP)
    : () => elicit(message, STEP);
  const args = ARGUMENT_QUESTIONS ? ['n'] : [];
  steps.push(k === 1 ? resolver({ args }, ask) : resolver({ uses: { previous: steps[k - 2] }, args }, ask));
}
const [step1, step2, step3] = steps;

/** A fresh McpServer running the workload (state sealed with a key of its own, the default). */
export function createMcpServer() {
  const mcp = new McpServer({ name: 'bench', version: '1.0.0' });
  mcp.tool('plain', { input: INPUT }, ({ n }) => ({ content: [{ type: 'text', text: expected.plain(n) }] }));
  mcp.tool('confirm', { input: INPUT, resolve: { confirm } }, ({ n }, { confirm: answer }) => ({
    content: [{ type: 'text', text: answer.ok ? expected.confirm(n) : 'declined' }],
  }));
  mcp.tool(
    'wizard',
    { input: INPUT, resolve: { step1, step2, step3 } },
    ({ n }, { step1: a, step2: b, step3: c }) => ({
      content: [{ type: 'text', text: `wizard ${n}: ${a.value},${b.value},${c.value}` }],
    }),
  );
  return mcp;
}
