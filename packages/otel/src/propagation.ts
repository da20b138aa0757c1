// Trace context in `params._meta` (SEP-414, the MCP semantic conventions' context propagation): the configured
// OpenTelemetry propagators first, and W3C Trace Context by hand when none is configured, so one trace per flow
// needs no propagator setup. Also the compact form of a span context that sealed request state carries.
import {
  type Context,
  context as contexts,
  createTraceState,
  propagation,
  type SpanContext,
  type TextMapGetter,
  type TextMapSetter,
  TraceFlags,
  trace,
} from '@opentelemetry/api';

type Carrier = Record<string, unknown>;

const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const setter: TextMapSetter<Carrier> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** `00-<trace id>-<span id>-<flags>`: W3C Trace Context version 00. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = '0'.repeat(32);
const INVALID_SPAN = '0'.repeat(16);

/** The `traceparent` of a span context. */
export function traceparentOf(span: SpanContext): string {
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}

/** The remote span context a `traceparent` names, or `undefined` for one that is malformed or all zeros. */
export function spanContextOf(traceparent: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, traceId, spanId, flags] = match;
  // The pattern's three groups always take part in a match.
  if (traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  if (traceId === INVALID_TRACE || spanId === INVALID_SPAN) return undefined;
  const span: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
  if (typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= 512) {
    return { ...span, traceState: createTraceState(tracestate) };
  }
  return span;
}

/**
 * Writes the trace context of `ctx` into `meta` (`traceparent`, `tracestate`, `baggage`…, unprefixed as SEP-414
 * asks) with the global propagator; when it writes no `traceparent` (none configured) and `ctx` holds a valid span,
 * writes that one by hand.
 */
export function injectInto(meta: Carrier, ctx: Context = contexts.active()): void {
  propagation.inject(ctx, meta, setter);
  if (meta.traceparent !== undefined) return;
  const span = trace.getSpanContext(ctx);
  if (span !== undefined && trace.isSpanContextValid(span)) meta.traceparent = traceparentOf(span);
}

/**
 * The context `meta` carries, on top of `base`: what the global propagator extracts, or, when it finds no span
 * (none configured), the `traceparent` read by hand as a remote parent. `undefined` when `meta` carries none.
 */
export function extractFrom(meta: Readonly<Carrier>, base: Context = contexts.active()): Context | undefined {
  const extracted = propagation.extract(base, meta, getter);
  const found = trace.getSpanContext(extracted);
  if (found !== undefined && found !== trace.getSpanContext(base) && trace.isSpanContextValid(found)) {
    return extracted;
  }
  const span = spanContextOf(meta.traceparent, meta.tracestate);
  return span === undefined ? undefined : trace.setSpanContext(base, span);
}
