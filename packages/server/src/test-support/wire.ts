// Test helpers: raw JSON-RPC messages (the wire is the contract), a recording logger, spec example fixtures.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../types.js';

/** The client capabilities a request declares (default: none). */
export type Caps = Record<string, unknown>;

/** Required request `_meta` for 2026-07-28, with `caps` as the client capabilities and `extra` merged in. */
export function meta(caps: Caps = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': caps,
    'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
    ...extra,
  };
}

let nextId = 1;

/** A raw JSON-RPC request with full `_meta` (override it with `params._meta`). */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  options: { id?: string | number; caps?: Caps } = {},
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: options.id ?? nextId++,
    method,
    params: { _meta: meta(options.caps), ...params },
  };
}

export { errorOf, resultOf } from '@boomerang/test-kit';

/** A logger that records every call, for asserting what reached the log (and what did not reach the wire). */
export function recordingLogger(): Required<Logger> & {
  lines: { level: string; message: string; details?: unknown }[];
} {
  const lines: { level: string; message: string; details?: unknown }[] = [];
  const at = (level: string) => (message: string, details?: unknown) => {
    lines.push(details === undefined ? { level, message } : { level, message, details });
  };
  return { lines, debug: at('debug'), warn: at('warn'), error: at('error') };
}

const examplesRoot = fileURLToPath(
  new URL('../../../../../shared/spec/schema/2026-07-28/examples/', import.meta.url),
);

/**
 * True when the official spec examples are present next to the repository (`../shared`); the tests that read them
 * skip otherwise, and say once where the examples come from.
 */
export const haveExamples = existsSync(examplesRoot);
if (!haveExamples) {
  console.warn(
    `skipping the tests on the spec's example messages: ${examplesRoot} not found (../shared/spec is a copy of ` +
      'the modelcontextprotocol/modelcontextprotocol repository beside this checkout; see "The MCP specification" ' +
      'in the README)',
  );
}

/** Reads `examples/<TypeName>/<file>.json` from the spec fixtures. */
export function example(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${examplesRoot}${path}`, 'utf8')) as Record<string, unknown>;
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
