// The Boomerang side: low-level Server whose handlers return InputRequiredResults, request state sealed with the
// one-line `sealed({ keys })` opt-in (AEAD, expiry, binding to method + tool name + argument digest), and the
// Client's automatic loop answering from its `elicitation` callback, over the in-memory pair.
// (The server definitions live in boomerang-server.mjs, shared with the transport bench.)

import { Client } from '@boomerang/client';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { createBoomerangServer } from './boomerang-server.mjs';
import { answer } from './workload.mjs';

/**
 * Connects a Boomerang client to a fresh server over the in-memory pair; returns `{ call, close }`. The server is
 * the hand-written low-level one unless `createServer` makes another (boomerang-mcp.mjs: McpServer);
 * `setupClient` may add middleware to the client (boomerang-mcp-otel.mjs: telemetry).
 */
export async function setupBoomerang(createServer = createBoomerangServer, setupClient = (client) => client) {
  const server = createServer();
  const client = setupClient(
    new Client(
      { name: 'bench-client', version: '1.0.0' },
      { elicitation: async (params) => answer(params), inputRequiredMaxRounds: 10 },
    ),
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
