// What both middleware share: the tracer, the meter and the duration histogram they start from, and how a round's span ends.
import {
  type Histogram,
  type MeterProvider,
  metrics,
  type Span,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { Attr, DURATION_BUCKETS, errorTypeOf, type Metric, resultFacts } from './attributes.js';
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

/** What a round's span ends with: its outcome and, for a failure, its `error.type`. */
export interface Ending {
  readonly outcome: string;
  readonly errorType: string | undefined;
}

/** Records on `span` how `result` ended its round: outcome, questions asked, a tool error. */
export function endedWith(span: Span, result: Readonly<Record<string, unknown>>): Ending {
  const facts = resultFacts(result);
  span.setAttribute(Attr.outcome, facts.outcome);
  if (facts.inputRequests !== undefined) span.setAttribute(Attr.inputRequests, facts.inputRequests);
  if (!facts.toolError) return { outcome: facts.outcome, errorType: undefined };
  span.setAttribute(Attr.errorType, 'tool_error');
  span.setStatus({ code: SpanStatusCode.ERROR });
  return { outcome: facts.outcome, errorType: 'tool_error' };
}

/** Records on `span` that its round failed with `error` (a JSON-RPC code also as the status code). */
export function failedWith(span: Span, error: unknown): Ending {
  const errorType = errorTypeOf(error);
  span.setAttributes({ [Attr.errorType]: errorType, [Attr.outcome]: 'error' });
  if (typeof error === 'object' && error !== null && typeof Reflect.get(error, 'code') === 'number') {
    span.setAttribute(Attr.statusCode, errorType);
  }
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  return { outcome: 'error', errorType };
}
