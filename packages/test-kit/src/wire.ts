import type { JSONRPCResponse } from '@boomerang/protocol';

/** The `result` of a response, failing the test when it is an error (or missing). */
export function resultOf(response: JSONRPCResponse | undefined): Record<string, unknown> {
  if (response === undefined || !('result' in response)) {
    throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  }
  return response.result as Record<string, unknown>;
}

/** The `error` of a response, failing the test when it is a result (or missing). */
export function errorOf(response: JSONRPCResponse | undefined): {
  code: number;
  message: string;
  data?: unknown;
} {
  if (response === undefined || !('error' in response)) {
    throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  }
  return response.error as { code: number; message: string; data?: unknown };
}
