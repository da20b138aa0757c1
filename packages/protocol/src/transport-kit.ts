// @boomerang/protocol/transport: what a transport implementation needs: the Transport and RequestTransport
// contracts, reading and classifying JSON-RPC messages, building responses, the incoming message queue, and
// cancellation without an AbortSignal per request.
export { CancellableHandleContext, RequestCancellation } from './cancellation.js';
export {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isRequestId,
  type JSONRPCMessageKind,
  jsonRpcError,
  jsonRpcResult,
  messageKind,
  type ParseMessageResult,
  parseMessage,
} from './jsonrpc.js';
export { MessageQueue, type MessageQueueHooks } from './message-queue.js';
export { sleep } from './timing.js';
export {
  type Cancellation,
  type ExchangeOptions,
  type FetchLike,
  type HandleContext,
  isRequestTransport,
  type MessageHandler,
  type RequestTransport,
  type StreamConnection,
  type StreamConnectOptions,
  type Transport,
  type TransportSendOptions,
} from './transport.js';
