// The McpServer side with telemetry on: serverTelemetry() on the server and clientTelemetry() on the client,
// recording through a real OpenTelemetry SDK (every span sampled, batched, handed to an exporter that drops it;
// metrics aggregated by a MeterProvider no reader collects from): what tracing costs per flow, the export aside.
import { clientTelemetry, serverTelemetry } from '@boomerang/otel';
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { setupBoomerang } from './boomerang.mjs';
import { createMcpServer } from './boomerang-mcp-server.mjs';

/** A span exporter that drops what it is given: the pipeline runs, nothing is sent. */
const dropping = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
  forceFlush: async () => {},
};

/** Registers the SDK globally: spans batched and dropped, metrics aggregated, never read. */
function registerSdk() {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(new MeterProvider());
  return tracerProvider;
}

/** The workload's McpServer with serverTelemetry(), the SDK registered (the HTTP bench's `mcp-otel` side). */
export function createTracedMcpServer() {
  registerSdk();
  return createMcpServer().use(serverTelemetry());
}

/** Connects a traced Boomerang client to a fresh traced McpServer over the in-memory pair; `{ call, close }`. */
export async function setupTracedMcpServer() {
  const tracerProvider = registerSdk();
  const session = await setupBoomerang(
    () => createMcpServer().use(serverTelemetry()),
    (client) => client.use(clientTelemetry()),
  );
  return {
    call: session.call,
    close: async () => {
      await session.close();
      await tracerProvider.shutdown();
    },
  };
}
