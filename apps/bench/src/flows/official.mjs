// The official MCP TypeScript SDK 2.4.0 side: McpServer with `inputRequired(...)` returns and the SDK's own
// request-state codec (`createRequestStateCodec`, HMAC-SHA256) as `requestState.verify`; Client with the built-in
// multi-round-trip auto-fulfilment over `setRequestHandler('elicitation/create')`. Both ends of its
// InMemoryTransport pair; the server side is served through `serveStdio(factory, { transport })`, the 2.4.0 entry
// that pins a stream connection to the 2026-07-28 era (a bare `server.connect()` stays on the 2025 era).
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import {
  acceptedContent,
  createRequestStateCodec,
  InMemoryTransport,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { answer, CONFIRM_MESSAGE, expected, stepKey, WIZARD_STEPS, wizardMessage } from './workload.mjs';

const input = z.object({ n: z.number() });
const confirmSchema = z.object({ ok: z.boolean() });
const stepSchema = z.object({ value: z.string() });
const askConfirm = inputRequired.elicit({ message: CONFIRM_MESSAGE, requestedSchema: confirmSchema });
const askStep = Array.from({ length: WIZARD_STEPS + 1 }, (_, k) =>
  k === 0 ? undefined : inputRequired.elicit({ message: wizardMessage(k), requestedSchema: stepSchema }),
);

function buildServer(codec) {
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  server.registerTool('plain', { inputSchema: input }, async ({ n }) => ({
    content: [{ type: 'text', text: expected.plain(n) }],
  }));
  server.registerTool('confirm', { inputSchema: input }, async ({ n }, ctx) => {
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmSchema);
    if (confirmed?.ok !== true) return inputRequired({ inputRequests: { confirm: askConfirm } });
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
        inputRequests: { [stepKey(k)]: askStep[k] },
        requestState: await codec.mint({ answers: next }, ctx),
      });
    }
    return { content: [{ type: 'text', text: `wizard ${n}: ${next.join(',')}` }] };
  });
  return server;
}

/** Connects a client to a fresh official server over the official in-memory pair; returns `{ call, close }`. */
export async function setupOfficial() {
  // Bound to the method, as the codec's own documentation suggests (`bind: ctx => ctx.mcpReq.method …`).
  const codec = createRequestStateCodec({ key: randomBytes(32), bind: (ctx) => ctx.mcpReq.method });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const serving = serveStdio(() => buildServer(codec), {
    transport: serverTransport,
    legacy: 'reject',
    onerror: (error) => console.error('official server error:', error),
  });
  const client = new Client(
    { name: 'bench-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { maxRounds: 10 },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params));
  await client.connect(clientTransport);
  return {
    call: (name, n) => client.callTool({ name, arguments: { n } }),
    close: async () => {
      await client.close();
      await serving.close();
    },
  };
}
