// A small OTLP/HTTP (JSON) trace receiver on 127.0.0.1, the fleet's collector: every process exports its spans
// here, and the run reads them back to check that each flow is one trace.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as received, with its process's service and instance. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly service: string;
  readonly instance: string;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
}

/** The OTLP span kinds. */
export const Kind = { internal: 1, server: 2, client: 3 } as const;

/** The receiver: its URL (`…/v1/traces`), the spans so far, and `stop()`. */
export interface TraceReceiver {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  stop(): Promise<void>;
}

/** Starts the receiver on a free port of 127.0.0.1. */
export async function startTraceReceiver(): Promise<TraceReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        spans.push(...readExport(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

function plainValue(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue === true;
}

function attributesOf(list: readonly OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) out[key] = plainValue(value);
  return out;
}

/** The spans of one OTLP/JSON `ExportTraceServiceRequest` (ids are hex in the JSON encoding). */
function readExport(body: {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
        status?: { code?: number };
        attributes?: OtlpAttribute[];
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    const owner = attributesOf(resource.resource?.attributes);
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId:
            span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
          name: span.name,
          kind: span.kind,
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
          status: span.status?.code ?? 0,
          attributes: attributesOf(span.attributes),
          service: String(owner['service.name'] ?? '?'),
          instance: String(owner['service.instance.id'] ?? '?'),
          links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
        });
      }
    }
  }
  return out;
}
