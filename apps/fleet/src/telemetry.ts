// Tracing in the fleet's processes: spans go to the fleet's OTLP/HTTP receiver through the real OpenTelemetry
// exporter, tagged with the process's service and instance. Off unless FLEET_OTLP_URL is set.
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A tracer provider registered globally for this process, or `undefined` without a receiver URL. */
export function startTracing(
  service: string,
  instance: string,
  url: string | undefined,
): { shutdown(): Promise<void> } | undefined {
  if (url === undefined || url === '') return undefined;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'service.instance.id': instance }),
    spanProcessors: [
      // Exported every 200 ms: a kill -9 loses at most that much of an instance's spans.
      new BatchSpanProcessor(new OTLPTraceExporter({ url }), {
        scheduledDelayMillis: 200,
        maxExportBatchSize: 1_000,
        maxQueueSize: 100_000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  return provider;
}
