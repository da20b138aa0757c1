// @boomerang/otel: OpenTelemetry for Boomerang. serverTelemetry() and clientTelemetry() are middleware for
// `use()`; one trace per multi-round-trip flow, by the semantic conventions for MCP.

// --- the server side

export { type ServerTelemetryOptions, serverTelemetry, type TelemetryOptions } from './server.js';
export type {
  ClientCallContextLike,
  ClientContextLike,
  ClientMiddlewareLike,
  ServerContextLike,
  ServerMiddlewareLike,
} from './types.js';

// --- the client side

export { clientTelemetry } from './client.js';

// --- trace context in _meta

export { extractFrom, injectInto, spanContextOf, traceparentOf } from './propagation.js';

// --- names

export { Attr, Metric } from './attributes.js';
