// The README's example: an echo server and a client over one in-memory pair. Quoted into README.md; run by the
// tests, so it stays correct.
import { isJSONRPCRequest, jsonRpcResult } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';

await using pair = createInMemoryPair(); // both ends close when this scope ends
const [client, server] = pair;

// The server end: answer every request with its own params.
const serving = (async () => {
  for await (const message of server.messages) {
    if (isJSONRPCRequest(message)) {
      await server.send(jsonRpcResult(message.id, { resultType: 'complete', echo: message.params }));
    }
  }
})();

// The client end: send a request, read the answer.
await client.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'hi' } });
for await (const message of client.messages) {
  console.log(message); // { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', echo: { text: 'hi' } } }
  break; // leaving the loop closes the link, which ends the server's loop too
}
await serving;
