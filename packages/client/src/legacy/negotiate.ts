// How a dual-era client tells the eras apart when it connects: the `server/discover` probe, and the 2025-11-25
// `initialize` handshake it falls back to.
import {
  ErrorCode,
  type Implementation,
  isTransportFailure,
  LATEST_PROTOCOL_VERSION,
  McpError,
  normalizeResult,
} from '@boomerang/protocol';
import { parseLazily } from '@boomerang/protocol/internal';
import type { Connection, Hello, ServerDescription } from '../connection.js';
import type { Requester } from '../requester.js';

/** The 2025-11-25 revision this client speaks to servers without `server/discover`. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** Errors only a 2026-07-28 server sends: the server is modern even though it refused the probe. */
const MODERN_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.HeaderMismatch,
]);

/**
 * Sends `server/discover` on a 2026-07-28 connection and tells whether the server answered like a 2026-07-28
 * server: a result (then `server` describes it when the result is a valid `DiscoverResult`) or a modern error
 * (`-32022`, `-32021`, `-32020`) is modern; any other error, or no answer within `timeoutMs` (the probe is then
 * cancelled), is not. Nothing heard from the server (a transport failure) is no evidence of its era unless it
 * is an HTTP 4xx without a JSON-RPC body (a 2025-11-25 server refusing the modern request): it rejects. Once
 * `connecting` aborts (`connect()` ran out of time), it rejects with its reason.
 */
export async function probe(
  connection: Connection,
  timeoutMs: number | undefined,
  connecting?: AbortSignal,
): Promise<{ modern: boolean; server?: ServerDescription }> {
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const signal =
    timer === undefined
      ? connecting
      : connecting === undefined
        ? timer
        : AbortSignal.any([timer, connecting]);
  try {
    const raw = await connection.request('server/discover', {}, signal === undefined ? {} : { signal });
    const checked = parseLazily('DiscoverResult', normalizeResult(raw));
    const parsed = checked instanceof Promise ? await checked : checked;
    if (!parsed.success) return { modern: true };
    const { capabilities, instructions, _meta } = parsed.data;
    const serverInfo = _meta?.['io.modelcontextprotocol/serverInfo'] as Implementation | undefined;
    return { modern: true, server: { capabilities, serverInfo, instructions } };
  } catch (error) {
    connecting?.throwIfAborted(); // connect() ran out of time: no evidence of the era
    if (isTransportFailure(error)) {
      const status = error.data.status;
      if (status !== undefined && status >= 400 && status < 500) return { modern: false };
      throw error;
    }
    if (error instanceof McpError) return { modern: MODERN_ERRORS.has(error.code) };
    if (timer?.aborted) return { modern: false };
    throw error;
  }
}

/**
 * The 2025-11-25 handshake: `initialize` with the client's capabilities and info, then
 * `notifications/initialized`, then (when the client has a default `logLevel` and the server declares `logging`)
 * `logging/setLevel`, the session-wide level of that era; a server refusing it is ignored (log messages are a
 * courtesy). Resolves to what the server said about itself; rejects when `initialize` fails or the server answers
 * a version this client does not speak (`-32022`), or with `hello.signal`'s reason.
 */
export async function initialize(requester: Requester, hello: Hello): Promise<ServerDescription> {
  const { signal } = hello;
  const params = {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    capabilities: hello.capabilities,
    clientInfo: hello.info,
  };
  const result = (await requester.request('initialize', params, signal === undefined ? {} : { signal })) as {
    protocolVersion?: unknown;
    capabilities?: ServerDescription['capabilities'];
    serverInfo?: Implementation;
    instructions?: string;
  } | null;
  if (result?.protocolVersion !== LEGACY_PROTOCOL_VERSION) {
    throw new McpError(
      ErrorCode.UnsupportedProtocolVersion,
      `The server answered initialize with protocol version ${JSON.stringify(result?.protocolVersion)}; ` +
        `this client speaks ${LATEST_PROTOCOL_VERSION} and ${LEGACY_PROTOCOL_VERSION}`,
    );
  }
  await requester.notify('notifications/initialized', undefined, { signal });
  if (hello.logLevel !== undefined && result.capabilities?.logging !== undefined) {
    await requester.request('logging/setLevel', { level: hello.logLevel }, { signal }).catch(() => {});
  }
  return {
    capabilities: result.capabilities ?? {},
    serverInfo: result.serverInfo,
    instructions: result.instructions,
  };
}

/**
 * True when a request failed because the server forgot the 2025-11-25 session it belonged to: an HTTP 404 to a
 * POST that named the session (the transport's marked failure). The request was not served.
 */
export function isSessionGone(error: unknown): boolean {
  return isTransportFailure(error) && error.data.status === 404;
}
