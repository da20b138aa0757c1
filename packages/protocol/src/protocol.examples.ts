// The README's examples, quoted into README.md region by region (protocol.examples.test.ts checks the quotes and
// runs them), so they stay correct.

// #region wire
import { ErrorCode, elicitRequest, inputRequired, isInputRequired, McpError } from '@boomerang/protocol';
import { CallToolRequestParamsSchema, ElicitResultSchema, safeParse } from '@boomerang/protocol/schemas';
import { isJSONRPCRequest, jsonRpcError, jsonRpcResult, parseMessage } from '@boomerang/protocol/transport';

/** Answers one raw `tools/call` the way a tiny server would: ask for a name, then greet. */
export function answer(text: string) {
  const parsed = parseMessage(text); // the JSON-RPC envelope only; never throws
  if (!parsed.ok) return parsed.error; // -32700 / -32600, with the id when it could be read
  const message = parsed.message;
  if (!isJSONRPCRequest(message)) return undefined; // a notification or a response
  const params = safeParse(CallToolRequestParamsSchema, message.params); // zod's verdict, fast
  if (!params.success)
    return jsonRpcError(message.id, new McpError(ErrorCode.InvalidParams, 'Invalid params'));

  const answer = ElicitResultSchema.safeParse(params.data.inputResponses?.name);
  if (answer.success && answer.data.action === 'accept') {
    const name = String(answer.data.content?.name);
    const greeting = { resultType: 'complete', content: [{ type: 'text', text: `Hello, ${name}!` }] };
    return jsonRpcResult(message.id, greeting);
  }
  const ask = elicitRequest({
    message: 'What is your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return jsonRpcResult(message.id, inputRequired({ inputRequests: { name: ask } }));
}
// #endregion wire

// #region round
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const first = answer(
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', _meta: meta } }),
);
const result = first !== undefined && 'result' in first ? first.result : undefined;
console.log(isInputRequired(result)); // true: the retry carries the answer under the same key

const retry = answer(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'greet',
      _meta: meta,
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    },
  }),
);
console.log(retry); // { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: [{ type: 'text', … }] } }
console.log(answer('{ not json')); // { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error…' } }
// #endregion round
