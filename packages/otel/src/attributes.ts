// The attribute and instrument names: the OpenTelemetry semantic conventions for MCP
// (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md), and Boomerang's own under `mcp.mrtr.*`.
import type { Attributes } from '@opentelemetry/api';

/** Attribute keys recorded on spans and metrics. */
export const Attr = {
  /** The JSON-RPC method (`tools/call`). */
  methodName: 'mcp.method.name',
  /** The MCP revision the request speaks. */
  protocolVersion: 'mcp.protocol.version',
  /** The tool a `tools/call` calls. */
  toolName: 'gen_ai.tool.name',
  /** The prompt a `prompts/get` gets. */
  promptName: 'gen_ai.prompt.name',
  /** The resource a `resources/read` reads (never in span names unless asked: high cardinality). */
  resourceUri: 'mcp.resource.uri',
  /** `execute_tool` on `tools/call`, so GenAI tools read MCP tool calls as tool executions. */
  operationName: 'gen_ai.operation.name',
  /** The JSON-RPC id, as a string. */
  requestId: 'jsonrpc.request.id',
  /** The JSON-RPC error code, as a string, when the request failed. */
  statusCode: 'rpc.response.status_code',
  /** The error class: the JSON-RPC code as a string, `tool_error` for an `isError` tool result. */
  errorType: 'error.type',
  /** Boomerang: the round of a multi-round-trip flow (0 for the first). */
  round: 'mcp.mrtr.round',
  /** Boomerang: how the round ended: `complete`, `input_required`, another `resultType`, or `error`. */
  outcome: 'mcp.mrtr.outcome',
  /** Boomerang: how many input requests an `input_required` round asked. */
  inputRequests: 'mcp.mrtr.input_requests',
  /** Boomerang: why a request's `requestState` did not open (`expired`, `forged`, `context`…). */
  stateRefusal: 'mcp.mrtr.state_refusal',
  /** Boomerang: what a span link points at (`minted_state`: the round that minted this round's state). */
  linkKind: 'mcp.mrtr.link',
} as const;

/** Instrument names. */
export const Metric = {
  /** Histogram, seconds: from receiving a request to its answer (semantic conventions). */
  serverDuration: 'mcp.server.operation.duration',
  /** Histogram, seconds: from sending a request to its answer (semantic conventions). */
  clientDuration: 'mcp.client.operation.duration',
  /** Histogram, rounds: how many rounds a completed multi-round-trip flow took (Boomerang). */
  flowRounds: 'mcp.mrtr.flow.rounds',
  /** Counter: requests whose `requestState` did not open, by reason (Boomerang). */
  stateRefusals: 'mcp.mrtr.state.refusals',
} as const;

/** Bucket boundaries of the duration histograms, seconds (the semantic conventions' advice). */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The carried key under which a round's span context reaches the next round through sealed state. */
export const MINTED_BY = 'otel.traceparent';

/** What a request or round is about, for its span name and attributes. */
export interface Target {
  /** The span name: `{mcp.method.name} {target}`, or the method alone. */
  readonly spanName: string;
  /** The attributes that name the target. */
  readonly attributes: Record<string, string>;
}

/** The most targets {@link targets} keeps (tool and prompt names are few; URIs may not be). */
const MAX_TARGETS = 1_024;

/** A {@link Target} with the metric attributes of its requests, by outcome. */
export interface KnownTarget extends Target {
  readonly measured: Map<string, Attributes>;
}

/**
 * The targets of the requests one middleware sees, made once per method and name: a request's span name and naming
 * attributes, and the attributes its metrics record for each outcome (objects the SDK reads, never changes).
 */
export function targets(uriInName: boolean) {
  const known = new Map<string, KnownTarget>();
  return {
    /** The target of `method(params)`. */
    of(method: string, params: Readonly<Record<string, unknown>>): KnownTarget {
      const { name, uri } = params;
      const key = `${method}\u0000${typeof name === 'string' ? name : typeof uri === 'string' ? uri : ''}`;
      let target = known.get(key);
      if (target === undefined) {
        if (known.size >= MAX_TARGETS) known.clear();
        target = { ...targetOf(method, params, uriInName), measured: new Map() };
        known.set(key, target);
      }
      return target;
    },
    /** The metric attributes of a request of `target` that ended with `outcome` (and `errorType`). */
    measured(
      target: KnownTarget,
      protocolVersion: string | undefined,
      outcome: string,
      errorType: string | undefined,
    ): Attributes {
      const key = `${protocolVersion ?? ''}\u0000${outcome}\u0000${errorType ?? ''}`;
      let attributes = target.measured.get(key);
      if (attributes === undefined) {
        attributes = { ...target.attributes, [Attr.outcome]: outcome };
        if (protocolVersion !== undefined) attributes[Attr.protocolVersion] = protocolVersion;
        if (errorType !== undefined) attributes[Attr.errorType] = errorType;
        if (target.measured.size < 64) target.measured.set(key, attributes);
      }
      return attributes;
    },
  };
}

/**
 * The target of `method(params)`: the tool or prompt name (in the span name and as `gen_ai.*.name`), or the
 * resource URI (as `mcp.resource.uri`, in the span name only with `uriInName`).
 */
export function targetOf(
  method: string,
  params: Readonly<Record<string, unknown>>,
  uriInName: boolean,
): Target {
  const attributes: Record<string, string> = { [Attr.methodName]: method };
  const { name, uri } = params;
  if (method === 'tools/call' && typeof name === 'string') {
    attributes[Attr.toolName] = name;
    attributes[Attr.operationName] = 'execute_tool';
    return { spanName: `${method} ${name}`, attributes };
  }
  if (method === 'prompts/get' && typeof name === 'string') {
    attributes[Attr.promptName] = name;
    return { spanName: `${method} ${name}`, attributes };
  }
  if (typeof uri === 'string' && method.startsWith('resources/')) {
    attributes[Attr.resourceUri] = uri;
    return { spanName: uriInName ? `${method} ${uri}` : method, attributes };
  }
  return { spanName: method, attributes };
}

/** What a result says about its round: the outcome, how many questions it asked, and a tool error. */
export function resultFacts(result: Readonly<Record<string, unknown>>): {
  readonly outcome: string;
  readonly inputRequests: number | undefined;
  readonly toolError: boolean;
} {
  const outcome = typeof result.resultType === 'string' ? result.resultType : 'complete';
  const asked = result.inputRequests;
  const inputRequests =
    outcome === 'input_required' && typeof asked === 'object' && asked !== null
      ? Object.keys(asked).length
      : undefined;
  return { outcome, inputRequests, toolError: result.isError === true };
}

/**
 * The `error.type` of an error: its JSON-RPC code as a string (`-32602`), else its `reason` (a `ClientError`'s:
 * `timeout`, `closed`…), else its class name, else `_OTHER`.
 */
export function errorTypeOf(error: unknown): string {
  const { code, reason } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    reason?: unknown;
  };
  if (typeof code === 'number') return String(code);
  if (typeof reason === 'string') return reason;
  if (error instanceof Error) return error.name;
  return '_OTHER';
}
