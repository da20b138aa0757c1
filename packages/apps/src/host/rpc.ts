// JSON-RPC 2.0 as it crosses postMessage between the host and a view: what a message is, checked once where it
// enters (anything else is answered -32600 or dropped), and the error object a failure becomes on the wire.

/** A JSON-RPC id as views send them. */
export type RpcId = string | number;

/** A message from the view, classified. */
export type ViewMessage =
  | { readonly kind: 'request'; readonly id: RpcId; readonly method: string; readonly params: unknown }
  | { readonly kind: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly kind: 'response'; readonly id: RpcId; readonly result?: unknown; readonly error?: unknown }
  | { readonly kind: 'invalid'; readonly id: RpcId | null; readonly reason: string };

/** The JSON-RPC error object. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

function isId(value: unknown): value is RpcId {
  return (
    (typeof value === 'string' && value.length <= 256) ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Classifies what a view posted, as the JSON it stands for: a structured clone is read through one JSON round
 * trip (a value JSON cannot hold, such as a cycle or a BigInt, makes the message invalid), so handlers only ever
 * see plain JSON. `maxBytes` bounds that JSON's length.
 */
export function classify(data: unknown, maxBytes: number): ViewMessage {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { kind: 'invalid', id: null, reason: 'not a JSON-RPC message' };
  const rawId = (data as { id?: unknown }).id;
  const id = isId(rawId) ? rawId : null;
  let json: string;
  try {
    json = JSON.stringify(data);
  } catch {
    return { kind: 'invalid', id, reason: 'not JSON' };
  }
  if (json.length > maxBytes) return { kind: 'invalid', id, reason: `larger than ${maxBytes} bytes` };
  const message: Record<string, unknown> = JSON.parse(json);
  if (message.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  const { method } = message;
  if (method === undefined) {
    if (id === null) return { kind: 'invalid', id, reason: 'a response needs an id' };
    return { kind: 'response', id, result: message.result, error: message.error };
  }
  if (typeof method !== 'string' || method.length === 0 || method.length > 256)
    return { kind: 'invalid', id, reason: 'method must be a string' };
  if (!('id' in message)) return { kind: 'notification', method, params: message.params };
  if (id === null) return { kind: 'invalid', id, reason: 'id must be a string or a number' };
  return { kind: 'request', id, method, params: message.params };
}

/** The wire error of a failure: an error's own `code` (an `McpError` from the server), else -32603. */
export function rpcErrorOf(error: unknown): RpcError {
  if (typeof error === 'object' && error !== null) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code === 'number' && Number.isInteger(code) && typeof message === 'string')
      return data === undefined ? { code, message } : { code, message, data };
  }
  return { code: -32603, message: 'Internal error' };
}

/** True for a plain object (what `params` must be wherever the specification gives it members). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
