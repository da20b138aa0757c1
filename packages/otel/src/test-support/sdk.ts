// An OpenTelemetry SDK in memory for the tests: spans kept by an in-memory exporter, metrics read on demand.
// Nothing global is registered: the middleware are given these providers.
import { MeterProvider, type MetricData, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  type Sampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader read by hand (`collect()`), never on a timer. */
class ManualReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** Providers for the middleware, and what they recorded. */
export function sdk(sampler?: Sampler) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(sampler === undefined ? {} : { sampler }),
  });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    async metrics(): Promise<Map<string, MetricData>> {
      const { resourceMetrics } = await reader.collect();
      const found = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) found.set(metric.descriptor.name, metric);
      }
      return found;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The parent span id of a span (SDK 2 keeps it in `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
