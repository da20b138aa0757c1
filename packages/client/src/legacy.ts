// The 2025-11-25 side of the client, behind three functions the client calls: `negotiate` (which era this
// connection speaks), `legacyResult` (a legacy result in the shape the 2026-07-28 schemas read) and
// `answerServerRequest` (a legacy server's elicitation/sampling/roots requests, answered by the same callbacks
// the MRTR loop uses).
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  type InputRequest,
  isTransportFailure,
  type JSONRPCNotification,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  McpError,
  MetaKey,
} from '@boomerang/protocol';
import { isClientError, type OriginatingRequest } from './errors.js';
import { answerInputRequests, type InputCallbacks } from './input-requests.js';
import type { PeerHandlers, Requester } from './requester.js';

/** Which revision a client speaks: `'auto'` probes the server; the others are fixed. */
export type ProtocolChoice = 'auto' | '2026-07-28' | '2025-11-25';

/** The 2025-11-25 revision this client speaks to servers without `server/discover`. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

const PROTOCOLS: readonly ProtocolChoice[] = ['auto', '2026-07-28', '2025-11-25'];

/**
 * Checks the client's `protocol` (default `'auto'`) and `protocolProbeTimeoutMs` (default 3000) options:
 * `TypeError` for an unknown revision, `RangeError` for a timeout outside (0, 2^31) ms.
 */
export function protocolOptions(options: {
  readonly protocol?: ProtocolChoice | undefined;
  readonly protocolProbeTimeoutMs?: number | undefined;
}): { protocol: ProtocolChoice; probeTimeoutMs: number } {
  const { protocol = 'auto', protocolProbeTimeoutMs = 3000 } = options;
  if (!PROTOCOLS.includes(protocol)) {
    throw new TypeError(`"protocol" expected ${PROTOCOLS.join(' | ')}, got ${String(protocol)}`);
  }
  if (!(protocolProbeTimeoutMs > 0 && protocolProbeTimeoutMs <= 2_147_483_647)) {
    throw new RangeError(
      `"protocolProbeTimeoutMs" expected a number of milliseconds in (0, 2^31), got ${protocolProbeTimeoutMs}`,
    );
  }
  return { protocol, probeTimeoutMs: protocolProbeTimeoutMs };
}

/** What a connection speaks, decided once when it opens. */
export interface Negotiated {
  readonly protocolVersion: string;
  /** True for a 2025-11-25 session: no `_meta` on requests, and the server may call the client back. */
  readonly legacy: boolean;
  /** A legacy server's `serverInfo` from `initialize` (modern servers send it in every result). */
  readonly serverInfo?: Implementation | undefined;
}

/** What `negotiate` sends about the client. */
export interface Hello {
  readonly info: Implementation;
  readonly capabilities: ClientCapabilities;
  /**
   * How long `'auto'` waits for the `server/discover` answer before it falls back to `initialize`; `undefined`:
   * no limit (request transports report every outcome, so silence never means "legacy" there).
   */
  readonly probeTimeoutMs: number | undefined;
}

/** Errors only a 2026-07-28 server sends: the server is modern even though it refused the probe. */
const MODERN_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.HeaderMismatch,
]);

/**
 * Decides the era of a new connection. `'2026-07-28'`: nothing is sent. `'2025-11-25'`: `initialize` +
 * `notifications/initialized`. `'auto'`: `server/discover` first; a result or a modern error (`-32022`,
 * `-32021`, `-32020`) means 2026-07-28; any other error, or no answer within `probeTimeoutMs` (the probe is
 * then cancelled), means 2025-11-25. Rejects when `initialize` fails or the server answers a version this
 * client does not speak.
 */
export async function negotiate(
  requester: Requester,
  choice: ProtocolChoice,
  hello: Hello,
): Promise<Negotiated> {
  if (choice === '2026-07-28') return { protocolVersion: LATEST_PROTOCOL_VERSION, legacy: false };
  if (choice === 'auto' && (await probe(requester, hello))) {
    return { protocolVersion: LATEST_PROTOCOL_VERSION, legacy: false };
  }
  const result = (await requester.request('initialize', {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    capabilities: hello.capabilities,
    clientInfo: hello.info,
  })) as { protocolVersion?: unknown; serverInfo?: Implementation } | null;
  if (result?.protocolVersion !== LEGACY_PROTOCOL_VERSION) {
    throw new McpError(
      ErrorCode.UnsupportedProtocolVersion,
      `The server answered initialize with protocol version ${JSON.stringify(result?.protocolVersion)}; ` +
        `this client speaks ${LATEST_PROTOCOL_VERSION} and ${LEGACY_PROTOCOL_VERSION}`,
    );
  }
  await requester.notify('notifications/initialized');
  return { protocolVersion: LEGACY_PROTOCOL_VERSION, legacy: true, serverInfo: result.serverInfo };
}

/**
 * True when a request failed because the server forgot the 2025-11-25 session it belonged to: an HTTP 404 to a
 * POST that named the session (the transport's marked failure). The request was not served.
 */
export function isSessionGone(error: unknown): boolean {
  return isTransportFailure(error) && error.data.status === 404;
}

/** True when the server answered `server/discover` like a 2026-07-28 server. */
async function probe(requester: Requester, hello: Hello): Promise<boolean> {
  const _meta = {
    [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [MetaKey.clientCapabilities]: hello.capabilities,
    [MetaKey.clientInfo]: hello.info,
  };
  const signal = hello.probeTimeoutMs === undefined ? undefined : AbortSignal.timeout(hello.probeTimeoutMs);
  try {
    await requester.request('server/discover', { _meta }, signal === undefined ? {} : { signal });
    return true;
  } catch (error) {
    if (isTransportFailure(error)) {
      // Nothing was heard from the server: only an HTTP 4xx without a JSON-RPC body (a 2025-11-25 server
      // refusing the modern request) is evidence of its era; a network failure or a 5xx is not, so it fails the
      // connect instead of starting an initialize (spec: fall back only on an unrecognised answer).
      const status = error.data.status;
      if (status !== undefined && status >= 400 && status < 500) return false;
      throw error;
    }
    if (error instanceof McpError) return MODERN_ERRORS.has(error.code);
    if (signal?.aborted) return false;
    throw error;
  }
}

/** Methods whose modern results carry cache hints a 2025-11-25 server never sends. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A 2025-11-25 result as the 2026-07-28 schemas read it: `resultType: "complete"` (a legacy server cannot ask
 * by returning), and on cacheable methods `ttlMs: 0` / `cacheScope: "private"` (never cached).
 */
export function legacyResult(method: string, raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const result: Record<string, unknown> = { ...raw, resultType: 'complete' };
  if (CACHEABLE.has(method)) {
    result.ttlMs ??= 0;
    result.cacheScope ??= 'private';
  }
  return result;
}

/**
 * Keeps the calls in flight, so that a legacy server's request (which does not say which call it serves on a
 * stream transport) reaches the callbacks with the most recent one as its context.
 */
export class CallsInFlight {
  readonly #calls: OriginatingRequest[] = [];

  /** Records `request` until the returned disposable is disposed. */
  track(request: OriginatingRequest): Disposable {
    this.#calls.push(request);
    return {
      [Symbol.dispose]: () => {
        const at = this.#calls.lastIndexOf(request);
        if (at >= 0) this.#calls.splice(at, 1);
      },
    };
  }

  /** The most recent call in flight; a `tools/call` with an empty name when there is none. */
  current(): OriginatingRequest {
    return this.#calls.at(-1) ?? { method: 'tools/call', name: '' };
  }
}

/** What {@link answerServerRequest} needs from the client. */
export interface ServerRequestContext {
  readonly callbacks: InputCallbacks;
  readonly capabilities: ClientCapabilities;
  readonly calls: CallsInFlight;
  readonly serverInfo: Implementation | undefined;
}

/**
 * Answers one request of a 2025-11-25 server: `ping` with `{}`; `elicitation/create`,
 * `sampling/createMessage` and `roots/list` with the callback the MRTR loop would use (same checks against
 * the declared capabilities, same validation of the answer). A request no callback covers is `-32601`; a
 * callback that throws or answers badly is `-32603` (the details stay local).
 */
export async function answerServerRequest(
  request: JSONRPCRequest,
  ctx: ServerRequestContext,
  signal?: AbortSignal,
): Promise<unknown> {
  if (request.method === 'ping') return {};
  const key = String(request.id);
  const input = { method: request.method, params: request.params } as InputRequest;
  try {
    const answers = await answerInputRequests({ [key]: input }, ctx.callbacks, {
      request: ctx.calls.current(),
      round: 1,
      signal,
      serverInfo: ctx.serverInfo,
      capabilities: ctx.capabilities,
    });
    return answers[key];
  } catch (error) {
    if (isClientError(error, 'unsupported-input-request')) {
      throw new McpError(ErrorCode.MethodNotFound, error.message);
    }
    throw error;
  }
}

/**
 * The requester's handlers for a connection that may turn out legacy: while `answering()` is `undefined` (a
 * 2026-07-28 connection, or before `initialize`) every server request is `-32601`; afterwards requests go to
 * {@link answerServerRequest}, and the server's `notifications/cancelled` aborts the callbacks' `signal` of
 * the request it names (its answer is then never sent: the callback's rejection is dropped with it).
 */
export function legacyPeerHandlers(answering: () => ServerRequestContext | undefined): PeerHandlers {
  const inFlight = new Map<string, AbortController>();
  return {
    async onRequest(request) {
      const ctx = answering();
      if (ctx === undefined) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      const key = `${typeof request.id}:${request.id}`;
      const controller = new AbortController();
      inFlight.set(key, controller);
      try {
        return await answerServerRequest(request, ctx, controller.signal);
      } finally {
        inFlight.delete(key);
      }
    },
    onNotification(notification: JSONRPCNotification) {
      if (notification.method !== 'notifications/cancelled') return;
      const id = (notification.params as { requestId?: unknown } | undefined)?.requestId;
      const key = `${typeof id}:${String(id)}`;
      inFlight.get(key)?.abort(new McpError(ErrorCode.InternalError, 'Cancelled by the server'));
    },
  };
}
