// @boomerang/protocol: every MCP 2026-07-28 message as a zod schema and a type, plus the JSON-RPC, error and
// transport contracts the other packages share.

// --- constants
export {
  CACHEABLE_METHODS,
  type CacheableMethod,
  INPUT_REQUIRED_METHODS,
  type InputRequiredMethod,
  isCacheableMethod,
  isInputRequiredMethod,
  LATEST_PROTOCOL_VERSION,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './constants.js';

// --- errors
export { ErrorCode, type ErrorCodeName, type JsonRpcErrorObject, McpError } from './errors.js';

// --- transport contracts
export type {
  AuthInfo,
  HandleContext,
  MessageHandler,
  Transport,
  TransportSendOptions,
} from './transport.js';

// --- runtime helpers (jsonrpc.ts, result.ts): BEGIN
// --- runtime helpers: END

// --- schemas (src/schema/*): BEGIN
// --- schemas: END
