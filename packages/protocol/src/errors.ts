/**
 * JSON-RPC and MCP error codes, as one table. Values are the numbers on the wire; names are ours.
 * Legacy (2025-11-25) codes are kept for the dual-era paths and marked as such.
 */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid JSON-RPC request object. */
  InvalidRequest: -32600,
  /** The method does not exist, or sits behind a server capability that was not advertised (HTTP 404). */
  MethodNotFound: -32601,
  /** Invalid method parameters, including a missing required `_meta` field (HTTP 400). */
  InvalidParams: -32602,
  /** Internal server error; never carries internals to the peer. */
  InternalError: -32603,
  /** An HTTP header disagrees with the JSON-RPC body (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`, …). */
  HeaderMismatch: -32020,
  /** The request needs a client capability it did not declare; `data.requiredCapabilities` says which. */
  MissingRequiredClientCapability: -32021,
  /** The protocol version in `_meta` is not supported; `data.supported` / `data.requested` say more. */
  UnsupportedProtocolVersion: -32022,
  /**
   * Boomerang's own, in the implementation-defined range (mnemonic: HTTP 429): the caller sent more requests than
   * the server's rate limit allows; `data.retryAfterMs` says when to try again (HTTP 429 with `Retry-After`).
   */
  RateLimited: -32029,
  /** 2025-11-25 only: a resource was not found. Modern servers answer `-32602` with `data.uri`. */
  ResourceNotFound: -32002,
  /** 2025-11-25 only: URL elicitation required. Modern servers return an `InputRequiredResult` instead. */
  UrlElicitationRequired: -32042,
} as const;

/** A name from {@link ErrorCode}. */
export type ErrorCodeName = keyof typeof ErrorCode;

/** The JSON-RPC `error` member: what {@link McpError.toJSON} produces and what a peer sends. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The one error class of the SDK for JSON-RPC errors: thrown by handlers to answer with a specific error, and
 * raised by clients when a peer answered with one. `cause` (ES2022) keeps the local reason and is never sent.
 */
export class McpError extends Error {
  override readonly name = 'McpError';
  /** The JSON-RPC error code (see {@link ErrorCode}). */
  readonly code: number;
  /** The JSON-RPC `error.data` member, sent as is. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = data;
  }

  /** The JSON-RPC `error` member for this error (`data` only when present). */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received from a peer. */
  static fromJSON(error: JsonRpcErrorObject): McpError {
    return errorOf(error.code, error.message, error.data);
  }

  /** `-32020`: an HTTP header does not match the body. */
  static headerMismatch(message: string, data?: unknown): McpError {
    return errorOf(ErrorCode.HeaderMismatch, message, data);
  }

  /** `-32021`: this request needs client capabilities it did not declare. */
  static missingRequiredClientCapability(
    requiredCapabilities: Record<string, unknown>,
    message = 'Missing required client capability',
  ): McpError {
    return errorOf(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities });
  }

  /** `-32022`: the requested protocol version is not one of `supported`. */
  static unsupportedProtocolVersion(requested: unknown, supported: readonly string[]): McpError {
    return errorOf(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...supported],
      requested,
    });
  }
}

// The static factories build through this function rather than `new McpError` inside the class body: a class that
// names itself in its own body is bundled as `var McpError = class _McpError`, and would print as `_McpError`.
function errorOf(code: number, message: string, data?: unknown): McpError {
  return new McpError(code, message, data);
}

/**
 * The `error.data` member a client transport puts on the JSON-RPC error it makes up for a request the peer never
 * answered (the network failed, a stream broke, an HTTP error came without a JSON-RPC body). `status` is the HTTP
 * status when there was a response. It lets a client tell "the server said no" from "nothing was heard", e.g. when
 * probing which protocol era a server speaks: only the first is evidence about the server.
 */
export interface TransportFailureData {
  readonly transportFailure: true;
  readonly status?: number;
}

/** The `data` of a transport-made error (see {@link TransportFailureData}). */
export function transportFailureData(status?: number): TransportFailureData {
  return status === undefined ? { transportFailure: true } : { transportFailure: true, status };
}

/** True when `error` was made up by a transport rather than sent by the peer (see {@link TransportFailureData}). */
export function isTransportFailure(error: unknown): error is McpError & { data: TransportFailureData } {
  if (!(error instanceof McpError)) return false;
  const data = error.data;
  return (
    typeof data === 'object' && data !== null && 'transportFailure' in data && data.transportFailure === true
  );
}
