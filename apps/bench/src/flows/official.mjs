// The official MCP TypeScript SDK 2.4.0 side: McpServer with `inputRequired(...)` returns and the SDK's own
// request-state codec (`createRequestStateCodec`, HMAC-SHA256) as `requestState.verify`; Client with the built-in
// multi-round-trip auto-fulfilment over `setRequestHandler('elicitation/create')`. Both ends of its
// InMemoryTransport pair; the server side is served through `serveStdio(factory, { transport })`, the 2.4.0 entry
// that pins a stream connection to the 2026-07-28 era (a bare `server.connect()` stays on the 2025 era).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { buildServer, createCodec } from './official-server.mjs';
import { answer } from './workload.mjs';

/** Connects a client to a fresh official server over the official in-memory pair; returns `{ call, close }`. */
export async function setupOfficial() {
  const codec = createCodec();
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
