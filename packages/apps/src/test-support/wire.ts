// Raw JSON-RPC requests with full 2026-07-28 `_meta`: the wire is the contract the server tests check.
export { errorOf, resultOf } from '@boomerang/test-kit';

let nextId = 1;

/** A raw request as a client sends it, declaring `caps` as its capabilities. */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  caps: Record<string, unknown> = {},
): { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> } {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': caps,
      },
      ...params,
    },
  };
}
