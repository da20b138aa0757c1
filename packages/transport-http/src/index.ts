// @boomerang/transport-http: Streamable HTTP for MCP 2026-07-28. A web-standard (Request) => Response server
// handler and a fetch-based client transport; the node:http adapter lives in `@boomerang/transport-http/node`.

// --- server

export type { HttpMessageHandler } from './endpoint.js';
export type { LegacyConnectOptions, LegacySessionOptions } from './eras.js';
export type { HostPolicy } from './guard.js';
export {
  createHttpHandler,
  type FetchHandler,
  type HttpHandler,
  type HttpHandlerOptions,
} from './handler.js';

// --- client

export type { FetchLike } from '@boomerang/protocol/transport';
export { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from './client.js';
export type { RedirectPolicy } from './client-redirects.js';

// --- header encoding (shared by both sides; for gateways and custom clients)

export {
  decodeHeaderValue,
  encodeHeaderValue,
  type ParamHeader,
  type ParamHeadersResult,
  paramHeadersOf,
} from './headers.js';
export type { ToolHeaderSchema, ToolSchemaSource } from './validate.js';
