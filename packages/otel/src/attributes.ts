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

/** The longest name, method or URI recorded; longer ones are cut here (with `…`). */
export const MAX_RECORDED_LENGTH = 256;

/** What metrics record in place of a value that came off the wire and names nothing the server knows. */
export const OTHER = '_OTHER';

/** The methods of the protocol (both eras and the tasks extension): metrics record any other as `_OTHER`. */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'subscriptions/listen',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/list',
  'tasks/result',
]);

/** The MCP revisions metrics record by name; any other value a request declares is `_OTHER`. */
const KNOWN_VERSIONS = new Set(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

/**
 * JSON-RPC codes that mean the request named nothing the server has (method not found, invalid params: an
 * unknown tool or prompt): its method and name came off the wire unchecked, so metrics do not record them.
 */
const UNKNOWN_TARGET_CODES = new Set(['-32601', '-32602']);

/** `value`, cut to {@link MAX_RECORDED_LENGTH}. */
export function recorded(value: string): string {
  return value.length <= MAX_RECORDED_LENGTH ? value : `${value.slice(0, MAX_RECORDED_LENGTH - 1)}…`;
}

/** A {@link Target} with the metric attributes of its requests, by outcome. */
export interface KnownTarget extends Target {
  /** What metrics record of the target: the method and the tool or prompt name, never a resource URI. */
  readonly metricAttributes: Readonly<Record<string, string>>;
  readonly measured: Map<string, Attributes>;
}

/**
 * The targets of the requests one middleware sees, made once per method and name: a request's span name and naming
 * attributes, and the attributes its metrics record for each outcome (objects the SDK reads, never changes).
 * Everything here comes off the wire, so it is bounded: names, methods and URIs cut to 256 characters, at most
 * 1,024 targets cached, and metric attributes restricted to values with a bounded set (a method of the protocol, a
 * known revision, a name only when the request did not fail as naming nothing, never a resource URI), so a caller
 * cannot grow the metric series or pin memory by sending names.
 */
export function targets(uriInName: boolean) {
  const known = new Map<string, KnownTarget>();
  const unknownTarget = new Map<string, Attributes>();
  return {
    /** The target of `method(params)`. */
    of(method: string, params: Readonly<Record<string, unknown>>): KnownTarget {
      const { name, uri } = params;
      const named = typeof name === 'string' ? name : typeof uri === 'string' ? uri : '';
      const key = `${recorded(method)}\u0000${recorded(named)}`;
      let target = known.get(key);
      if (target === undefined) {
        if (known.size >= MAX_TARGETS) known.clear();
        const { spanName, attributes } = targetOf(method, params, uriInName);
        const metricAttributes = { ...attributes };
        delete metricAttributes[Attr.resourceUri];
        if (!KNOWN_METHODS.has(method)) metricAttributes[Attr.methodName] = OTHER;
        target = { spanName, attributes, metricAttributes, measured: new Map() };
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
      const version =
        protocolVersion === undefined ? '' : KNOWN_VERSIONS.has(protocolVersion) ? protocolVersion : OTHER;
      const key = `${version}\u0000${outcome}\u0000${errorType ?? ''}`;
      // A request that named nothing the server has: its method and name are the caller's, unbounded.
      const cache =
        errorType !== undefined && UNKNOWN_TARGET_CODES.has(errorType) ? unknownTarget : target.measured;
      const base: Readonly<Record<string, string>> =
        cache === unknownTarget
          ? { [Attr.methodName]: target.metricAttributes[Attr.methodName] ?? OTHER }
          : target.metricAttributes;
      const cacheKey = cache === unknownTarget ? `${base[Attr.methodName]}\u0000${key}` : key;
      let attributes = cache.get(cacheKey);
      if (attributes === undefined) {
        attributes = { ...base, [Attr.outcome]: outcome };
        if (version !== '') attributes[Attr.protocolVersion] = version;
        if (errorType !== undefined) attributes[Attr.errorType] = errorType;
        if (cache.size < 64) cache.set(cacheKey, attributes);
      }
      return attributes;
    },
  };
}

/**
 * The target of `method(params)`: the tool or prompt name (in the span name and as `gen_ai.*.name`), or the
 * resource URI (as `mcp.resource.uri`, in the span name only with `uriInName`); each cut to 256 characters.
 */
export function targetOf(
  method: string,
  params: Readonly<Record<string, unknown>>,
  uriInName: boolean,
): Target {
  const methodName = recorded(method);
  const attributes: Record<string, string> = { [Attr.methodName]: methodName };
  const { name, uri } = params;
  if (method === 'tools/call' && typeof name === 'string') {
    const tool = recorded(name);
    attributes[Attr.toolName] = tool;
    attributes[Attr.operationName] = 'execute_tool';
    return { spanName: `${methodName} ${tool}`, attributes };
  }
  if (method === 'prompts/get' && typeof name === 'string') {
    const prompt = recorded(name);
    attributes[Attr.promptName] = prompt;
    return { spanName: `${methodName} ${prompt}`, attributes };
  }
  if (typeof uri === 'string' && method.startsWith('resources/')) {
    const resource = recorded(uri);
    attributes[Attr.resourceUri] = resource;
    return { spanName: uriInName ? `${methodName} ${resource}` : methodName, attributes };
  }
  return { spanName: methodName, attributes };
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
  const object = typeof error === 'object' && error !== null ? error : undefined;
  const code = object !== undefined && 'code' in object ? object.code : undefined;
  const reason = object !== undefined && 'reason' in object ? object.reason : undefined;
  if (typeof code === 'number') return String(code);
  if (typeof reason === 'string') return reason;
  if (error instanceof Error) return error.name;
  return '_OTHER';
}
