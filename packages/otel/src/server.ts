// serverTelemetry(): a server middleware that records one SERVER span per request (each round of a flow), child of
// the caller's span when `_meta` carries its trace context, linked to the round that minted its sealed state, and
// the duration, flow-length and state-refusal metrics.
import {
  type Attributes,
  context,
  type Link,
  type MeterProvider,
  SpanKind,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { Attr, Metric, MINTED_BY, targets } from './attributes.js';
import { type Ending, endedWith, failedWith, instruments } from './instruments.js';
import { extractFrom, spanContextOf, traceparentOf } from './propagation.js';
import type { ServerMiddlewareLike } from './types.js';

/** Options of {@link serverTelemetry} and `clientTelemetry`. */
export interface TelemetryOptions {
  /** Where spans go (default: the global tracer provider, a no-op until an SDK registers one). */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Where metrics go (default: the global meter provider). */
  readonly meterProvider?: MeterProvider | undefined;
  /** Also put the resource URI in `resources/read` span names (high cardinality; default false). */
  readonly resourceUriInSpanName?: boolean | undefined;
}

/** Options of {@link serverTelemetry}. */
export interface ServerTelemetryOptions extends TelemetryOptions {
  /**
   * What the trace context a request's `_meta` carries becomes (default `'parent'`):
   * - `'parent'`: the parent of the request's span (one trace per flow, across client and servers). The caller
   *   then chooses the trace id and, under a parent-based sampler, whether the span is sampled.
   * - `'link'`: a link; the span starts a trace of its own, sampled by your sampler alone. For servers whose
   *   callers are not trusted with your tracing (rounds of a flow stay linked through their sealed state).
   */
  readonly remoteContext?: 'parent' | 'link' | undefined;
}

/**
 * A server middleware (`server.use(serverTelemetry())`, `mcp.use(...)`) that traces and measures every request
 * by the OpenTelemetry semantic conventions for MCP:
 *
 * - one `SERVER` span per request, named `{mcp.method.name} {target}` (`tools/call deploy`), with
 *   `mcp.method.name`, `mcp.protocol.version`, `jsonrpc.request.id`, `gen_ai.tool.name` / `gen_ai.prompt.name` /
 *   `mcp.resource.uri`, `gen_ai.operation.name` (`execute_tool`), and on failure `error.type` and
 *   `rpc.response.status_code` with an `ERROR` status (a tool result with `isError`: `error.type` `tool_error`);
 * - its parent is the trace context the request's `_meta` carries (`traceparent`, SEP-414), so each round of a
 *   flow is a child of the client's span for that round, on whichever instance serves it; the ambient context
 *   (an HTTP server span) is linked;
 * - a round that opens sealed state is linked to the span of the round that minted it (the span context travels
 *   inside the sealed state), so a flow's rounds stay linked even when the client propagates nothing;
 * - Boomerang's `mcp.mrtr.round`, `mcp.mrtr.outcome` and `mcp.mrtr.input_requests`;
 * - histogram `mcp.server.operation.duration` (seconds), histogram `mcp.mrtr.flow.rounds` (rounds of each
 *   completed flow) and counter `mcp.mrtr.state.refusals` (by `mcp.mrtr.state_refusal`).
 *
 * Handlers run inside the span's context, so their own spans nest under it (with a context manager registered).
 * Nothing is recorded, and nothing costs, unless the middleware is installed.
 */
export function serverTelemetry(options: ServerTelemetryOptions = {}): ServerMiddlewareLike {
  const { tracer, meter, duration } = instruments(
    options,
    Metric.serverDuration,
    'MCP request duration as observed on the receiver, from receiving it to sending its answer.',
  );
  const flowRounds = meter.createHistogram(Metric.flowRounds, {
    unit: '{round}',
    description:
      'Rounds of each completed multi-round-trip flow, as counted by the server that completed it.',
    advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 15, 20] },
  });
  const refusals = meter.createCounter(Metric.stateRefusals, {
    unit: '{request}',
    description: 'Requests whose requestState did not open, by reason.',
  });
  const known = targets(options.resourceUriInSpanName === true);
  const linkRemote = options.remoteContext === 'link';
  if (options.remoteContext !== undefined && options.remoteContext !== 'parent' && !linkRemote) {
    throw new TypeError(
      `serverTelemetry: remoteContext must be 'parent' or 'link', got ${JSON.stringify(options.remoteContext)}`,
    );
  }

  return async (ctx, next) => {
    const started = performance.now();
    const target = known.of(ctx.method, ctx.params);
    const ambient = context.active();
    const remote = extractFrom(ctx.meta, ambient);
    let links: Link[] | undefined;
    if (remote !== undefined) {
      const linked = linkRemote ? trace.getSpanContext(remote) : trace.getSpanContext(ambient);
      if (linked !== undefined && trace.isSpanContextValid(linked)) links = [{ context: linked }];
    }
    const minted = spanContextOf(ctx.carried[MINTED_BY]);
    if (minted !== undefined) {
      const link = { context: minted, attributes: { [Attr.linkKind]: 'minted_state' } };
      links = links === undefined ? [link] : [...links, link];
    }
    const attributes: Attributes = Object.assign({}, target.attributes);
    attributes[Attr.requestId] = String(ctx.requestId);
    attributes[Attr.round] = ctx.round;
    if (ctx.protocolVersion !== undefined) attributes[Attr.protocolVersion] = ctx.protocolVersion;
    if (ctx.stateRefusal !== undefined) attributes[Attr.stateRefusal] = ctx.stateRefusal;
    const parent = linkRemote ? ambient : (remote ?? ambient);
    const span = tracer.startSpan(
      target.spanName,
      links === undefined
        ? { kind: SpanKind.SERVER, attributes }
        : { kind: SpanKind.SERVER, attributes, links },
      parent,
    );
    // Only the multi-round-trip methods mint state for a next round to open.
    if (isMultiRound(ctx.method)) {
      const own = span.spanContext();
      if (trace.isSpanContextValid(own)) {
        try {
          ctx.carry(MINTED_BY, traceparentOf(own));
        } catch {
          // The carry budget is spent by other middleware: the next round goes unlinked, the call goes on.
        }
      }
    }
    if (ctx.stateRefusal !== undefined) {
      refusals.add(1, {
        [Attr.methodName]: target.metricAttributes[Attr.methodName] ?? ctx.method,
        [Attr.stateRefusal]: ctx.stateRefusal,
      });
    }
    let ending: Ending = { outcome: 'error', errorType: undefined };
    try {
      const result = await context.with(trace.setSpan(parent, span), next);
      ending = endedWith(span, result);
      if (ending.outcome === 'complete' && (ctx.round > 0 || isMultiRound(ctx.method))) {
        flowRounds.record(ctx.round + 1, target.metricAttributes);
      }
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

/** The three methods of the protocol that may answer `input_required`. */
function isMultiRound(method: string): boolean {
  return method === 'tools/call' || method === 'prompts/get' || method === 'resources/read';
}
