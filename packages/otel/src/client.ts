// clientTelemetry(): a client middleware that records one span per call and one CLIENT span per request (each round
// of a flow) under it, and puts each round's trace context into its `_meta`, so the server's span for that round
// is its child: one trace per flow, whichever instances serve the rounds.
import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { Attr, errorTypeOf, Metric, targets } from './attributes.js';
import { type Ending, endedWith, failedWith, instruments } from './instruments.js';
import { extractFrom, injectInto, traceparentOf } from './propagation.js';
import type { TelemetryOptions } from './server.js';
import type { ClientCallContextLike, ClientMiddlewareLike } from './types.js';

/** The call's span, kept in the call context's `state` under this key. */
const CALL_SPAN = Symbol('@boomerang/otel call span');
/** What a flow paused into a continuation carries: the call span's context, so a resume continues the trace. */
const CARRIED_FLOW = 'otel.flow';

/**
 * A client middleware (`client.use(clientTelemetry())`) that traces and measures every call by the OpenTelemetry
 * semantic conventions for MCP:
 *
 * - one span for each call (`tools/call deploy`, kind `INTERNAL`), from the first request to the result, the
 *   parent of every request it sends: the rounds of a flow, a retry after a rate limit, a restart;
 * - one `CLIENT` span per request, named and attributed as the server's (`mcp.method.name`,
 *   `mcp.protocol.version`, `jsonrpc.request.id` when known, `gen_ai.tool.name`…, `mcp.mrtr.round`,
 *   `mcp.mrtr.outcome`, `mcp.mrtr.input_requests`, `error.type` on failure), whose context goes into the request's
 *   `_meta` (`traceparent`, `tracestate`: SEP-414) so the server's span for the round is its child;
 * - a flow paused into a continuation (`client.start()`/`resume()`) carries the call span's context in the
 *   continuation: the `resume()` that continues it, in any process, continues the same trace;
 * - histogram `mcp.client.operation.duration` (seconds) per request.
 *
 * The call span's parent is the active context when the call starts (your own span around it). Nothing is
 * recorded, and nothing costs, unless the middleware is installed.
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientMiddlewareLike {
  const { tracer, duration } = instruments(
    options,
    Metric.clientDuration,
    'MCP request duration as observed on the sender, from sending it to receiving its answer.',
  );
  const known = targets(options.resourceUriInSpanName === true);

  /** The span of the call `ctx` belongs to, started on its first request. */
  const callSpanOf = (call: ClientCallContextLike): Context => {
    const started = call.state.get(CALL_SPAN) as Context | undefined;
    if (started !== undefined) return started;
    const target = known.of(call.method, call.params);
    // A resumed flow continues the trace its continuation carries; a new one starts under the active context.
    const resumed = extractFrom({ traceparent: call.carried[CARRIED_FLOW] }, ROOT_CONTEXT);
    const parent = resumed ?? context.active();
    const span = tracer.startSpan(
      target.spanName,
      { kind: SpanKind.INTERNAL, attributes: target.attributes },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    call.state.set(CALL_SPAN, spanContext);
    const own = span.spanContext();
    if (trace.isSpanContextValid(own)) call.carry(CARRIED_FLOW, traceparentOf(own));
    call.onSettled((outcome) => {
      if (outcome.error !== undefined) {
        span.setAttribute(Attr.errorType, errorTypeOf(outcome.error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(outcome.error) });
      } else if (outcome.paused === true) {
        span.setAttribute(Attr.outcome, 'input_required');
      } else {
        span.setAttribute(Attr.outcome, 'complete');
      }
      span.end();
    });
    return spanContext;
  };

  return async (ctx, next) => {
    const started = performance.now();
    const parent = callSpanOf(ctx.call);
    const target = known.of(ctx.method, ctx.params);
    const attributes: Attributes = Object.assign({}, target.attributes);
    attributes[Attr.round] = ctx.round;
    attributes[Attr.protocolVersion] = ctx.protocolVersion;
    const span: Span = tracer.startSpan(target.spanName, { kind: SpanKind.CLIENT, attributes }, parent);
    const roundContext = trace.setSpan(parent, span);
    injectInto(ctx.meta, roundContext);
    let ending: Ending = { outcome: 'error', errorType: undefined };
    try {
      const result = await context.with(roundContext, next);
      ending = endedWith(span, result);
      return result;
    } catch (error) {
      ending = failedWith(span, error);
      throw error;
    } finally {
      span.end();
      duration.record(
        (performance.now() - started) / 1000,
        known.measured(target, ctx.protocolVersion, ending.outcome, ending.errorType),
      );
    }
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
