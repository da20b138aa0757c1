// The MRTR round in memory with a raw JSON-RPC client, the same for both SDKs (flows.bench.mjs `--client=raw`):
// plain `tools/call` messages over each SDK's own in-memory transport pair, every round's questions answered by
// the scripted user (workload.mjs `answer`) and sent back with the echoed `requestState`, as raw-net-http.mjs does
// over HTTP. What a flow costs is then each server's own work, not its client's.
import { answer } from './workload.mjs';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench-raw-client', version: '1.0.0' },
};
const MAX_ROUNDS = 10;

/** `call(tool, n)` over `send(message)`: the MRTR loop, answers matched to requests by id in `pending`. */
function rawCaller(send, pending) {
  let nextId = 0;
  const request = (params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      send({ jsonrpc: '2.0', id, method: 'tools/call', params }).catch(reject);
    });
  return async (tool, n) => {
    const base = { name: tool, arguments: { n }, _meta: META };
    let params = base;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = await request(params);
      if (result?.resultType !== 'input_required') return result;
      const inputResponses = {};
      for (const [key, asked] of Object.entries(result.inputRequests ?? {})) {
        inputResponses[key] = answer(asked.params);
      }
      params = {
        ...base,
        inputResponses,
        ...(result.requestState !== undefined && { requestState: result.requestState }),
      };
    }
    throw new Error(`${tool} still input_required after ${MAX_ROUNDS} rounds`);
  };
}

/** Settles the pending request a response answers. */
function settle(pending, message) {
  const waiting = pending.get(message.id);
  if (waiting === undefined) return;
  pending.delete(message.id);
  if (message.error !== undefined) waiting.reject(new Error(JSON.stringify(message.error)));
  else waiting.resolve(message.result);
}

/** A Boomerang server (`createServer()`: Server or McpServer) behind its in-memory pair; `{ call, close }`. */
export async function setupRawBoomerang(createServer) {
  const { createInMemoryPair } = await import('@boomerang/transport-memory');
  const [clientTransport, serverTransport] = createInMemoryPair();
  const connection = await createServer().connect(serverTransport);
  const pending = new Map();
  const reading = (async () => {
    for await (const message of clientTransport.messages) settle(pending, message);
  })();
  return {
    call: rawCaller((message) => clientTransport.send(message), pending),
    close: async () => {
      await clientTransport.close();
      await connection.close();
      await reading;
    },
  };
}

/** The official SDK 2.4.0's server (`serveStdio` on its in-memory pair, 2026-07-28 era); `{ call, close }`. */
export async function setupRawOfficial() {
  const [{ InMemoryTransport }, { serveStdio }, { buildServer, createCodec }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('@modelcontextprotocol/server/stdio'),
    import('./official-server.mjs'),
  ]);
  const codec = createCodec();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const serving = serveStdio(() => buildServer(codec), {
    transport: serverTransport,
    legacy: 'reject',
    onerror: (error) => console.error('official server error:', error),
  });
  const pending = new Map();
  clientTransport.onmessage = (message) => settle(pending, message);
  await clientTransport.start();
  return {
    call: rawCaller((message) => clientTransport.send(message), pending),
    close: async () => {
      await clientTransport.close();
      await serving.close();
    },
  };
}
