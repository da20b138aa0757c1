// The Boomerang side as users write it, server part: an McpServer whose tools take a zod input and ask through
// resolvers (request state sealed, McpServer's default), the same three tools, questions and answers as the
// hand-written low-level side (boomerang-server.mjs). Imports nothing client-side, so the HTTP bench's server
// process that loads it holds what a real McpServer process holds (boomerang-mcp.mjs adds the in-memory Client).
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';
import { CONFIRM_MESSAGE, expected, WIZARD_STEPS, wizardMessage } from './workload.mjs';

// Schemas and messages are static, as on the other sides: each side pays only for its own machinery.
const INPUT = z.object({ n: z.number() });
const CONFIRM = z.object({ ok: z.boolean() });
const STEP = z.object({ value: z.string() });

const confirm = resolver({}, () => elicit(CONFIRM_MESSAGE, CONFIRM));
// Each wizard step `uses` the one before, so each round asks one question, as on the low-level side.
const steps = [];
for (let k = 1; k <= WIZARD_STEPS; k++) {
  const message = wizardMessage(k);
  steps.push(
    k === 1
      ? resolver({}, () => elicit(message, STEP))
      : resolver({ uses: { previous: steps[k - 2] } }, () => elicit(message, STEP)),
  );
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
