// The tracer, the meter and the duration histogram both middleware start from.
import {
  type Histogram,
  type MeterProvider,
  metrics,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { DURATION_BUCKETS, type Metric } from './attributes.js';
import { INSTRUMENTATION } from './types.js';

/**
 * The tracer and meter of `options` (the global providers by default) under this package's instrumentation scope,
 * and the duration histogram `name` (seconds, the semantic conventions' buckets) described by `description`.
 */
export function instruments(
  options: {
    readonly tracerProvider?: TracerProvider | undefined;
    readonly meterProvider?: MeterProvider | undefined;
  },
  name: (typeof Metric)['serverDuration' | 'clientDuration'],
  description: string,
) {
  const tracer: Tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION.name,
    INSTRUMENTATION.version,
  );
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(
    INSTRUMENTATION.name,
    INSTRUMENTATION.version,
  );
  const duration: Histogram = meter.createHistogram(name, {
    unit: 's',
    description,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  return { tracer, meter, duration };
}
