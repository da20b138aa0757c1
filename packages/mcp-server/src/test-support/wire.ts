// Test helpers: raw JSON-RPC messages (the wire is the contract) and a recording logger.
import type { Logger } from '@boomerang/server';

/** Required request `_meta` for 2026-07-28 with `caps` as the client capabilities. */
export function meta(caps: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': caps,
  };
}

let nextId = 1;

/** A raw JSON-RPC request with full `_meta`. */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  caps: Record<string, unknown> = {},
): Record<string, unknown> {
  return { jsonrpc: '2.0', id: nextId++, method, params: { _meta: meta(caps), ...params } };
}

export { errorOf, resultOf } from '@boomerang/test-kit';

/** A logger that records every line (with the message of `details.error`, when there is one). */
export function recordingLogger(): Required<Logger> & {
  lines: { level: string; message: string; error?: string }[];
} {
  const lines: { level: string; message: string; error?: string }[] = [];
  const at = (level: string) => (message: string, details?: Readonly<Record<string, unknown>>) => {
    const error = details?.error;
    lines.push(error instanceof Error ? { level, message, error: error.message } : { level, message });
  };
  return { lines, debug: at('debug'), warn: at('warn'), error: at('error') };
}

/** The text of the first content block of a tool result. */
export function textOf(result: Record<string, unknown>): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}
