// The raw JSON-RPC-over-fetch client of the HTTP bench: one POST per request with the 2026-07-28 envelope
// (`_meta` protocol version, client capabilities, client info) and request-metadata headers, through the global
// fetch (undici, keep-alive). It plays the multi-round-trip loop itself: an `input_required` result is answered
// by the workload's scripted user and the call is POSTed again with `inputResponses` and the echoed
// `requestState`. Identical for both SDKs, so the client side costs the same on both.
import { answer } from '../flows/workload.mjs';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench-raw-client', version: '1.0.0' },
};
const MAX_ROUNDS = 10;

/** A client for the endpoint at `url`: `call(tool, n)` resolves to the final result; `requests` counts POSTs. */
export function rawHttpClient(url) {
  const headersFor = new Map();
  const headers = (tool) => {
    let h = headersFor.get(tool);
    if (h === undefined) {
      h = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': tool,
      };
      headersFor.set(tool, h);
    }
    return h;
  };
  let nextId = 0;
  const client = {
    requests: 0,
    async post(tool, params) {
      const id = ++nextId;
      const response = await fetch(url, {
        method: 'POST',
        headers: headers(tool),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      });
      const text = await response.text();
      client.requests++;
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        throw new Error(
          `HTTP ${response.status} ${response.headers.get('content-type')}: ${text.slice(0, 200)}`,
        );
      }
      if (message.error !== undefined)
        throw new Error(`HTTP ${response.status}: ${JSON.stringify(message.error)}`);
      if (message.id !== id) throw new Error(`response id ${message.id} for request ${id}`);
      return message.result;
    },
    async call(tool, n) {
      const args = { n };
      let params = { name: tool, arguments: args, _meta: META };
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const result = await client.post(tool, params);
        if (result?.resultType !== 'input_required') return result;
        const inputResponses = {};
        for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
          inputResponses[key] = answer(request.params);
        }
        params = { name: tool, arguments: args, _meta: META, inputResponses };
        if (result.requestState !== undefined) params.requestState = result.requestState;
      }
      throw new Error(`${tool} still input_required after ${MAX_ROUNDS} rounds`);
    },
  };
  return client;
}
