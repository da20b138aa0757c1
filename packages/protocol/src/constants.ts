/** The protocol revision this SDK speaks natively. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';

/** Every revision a modern Boomerang peer accepts (the 2025-11-25 era lives under `@boomerang/protocol/2025-11-25`). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([LATEST_PROTOCOL_VERSION]);

/** `_meta` key names reserved by MCP (request, result and notification `_meta`). */
export const MetaKey = {
  /** Request: the protocol revision of this request (required). */
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** Request: the client's capabilities for this request (required; `{}` means none). */
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** Request: the client's self-reported `Implementation` (display and logs only). */
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  /** Request: the lowest log level the client wants as `notifications/message` for this request. */
  logLevel: 'io.modelcontextprotocol/logLevel',
  /** Result: the server's self-reported `Implementation`. */
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** Notification on a `subscriptions/listen` stream: the id of the listen request. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  /** Request: the token progress notifications for this request refer to. */
  progressToken: 'progressToken',
} as const;

/** The only methods whose result may be an `InputRequiredResult` (MRTR). */
export const INPUT_REQUIRED_METHODS = Object.freeze(['tools/call', 'prompts/get', 'resources/read'] as const);

/** A method that may answer `input_required`. */
export type InputRequiredMethod = (typeof INPUT_REQUIRED_METHODS)[number];

/** Methods whose results are `CacheableResult`s (carry `ttlMs` and `cacheScope`). */
export const CACHEABLE_METHODS = Object.freeze([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
] as const);

/** A method whose result is cacheable. */
export type CacheableMethod = (typeof CACHEABLE_METHODS)[number];

/** True when `method` may answer with an `InputRequiredResult`. */
export function isInputRequiredMethod(method: string): method is InputRequiredMethod {
  const methods: readonly string[] = INPUT_REQUIRED_METHODS;
  return methods.includes(method);
}

/** True when `method`'s result is a `CacheableResult`. */
export function isCacheableMethod(method: string): method is CacheableMethod {
  const methods: readonly string[] = CACHEABLE_METHODS;
  return methods.includes(method);
}

/**
 * The eight MCP log levels (RFC 5424 severities), lowest first: a client asking for `warning` gets `warning` …
 * `emergency`. Frozen.
 */
export const LOGGING_LEVELS = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const);

/** One of {@link LOGGING_LEVELS}. */
export type LoggingLevelName = (typeof LOGGING_LEVELS)[number];

/** True for one of the eight MCP log levels. */
export function isLoggingLevel(value: unknown): value is LoggingLevelName {
  const levels: readonly unknown[] = LOGGING_LEVELS;
  return levels.includes(value);
}
