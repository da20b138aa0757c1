// The flows of the load generator, each on its own Client whose fetch notes which instance served every request
// (nginx's `X-Fleet-Upstream`) and how the last request ended, so a failure can be told apart: a request cut by
// the killed instance (nginx answers 502 naming it), a refused state, anything else.
import { Client, ClientError } from '@boomerang/client';
import { clientTelemetry } from '@boomerang/otel';
import { type ElicitRequestParams, McpError } from '@boomerang/protocol';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { orderText, SHELVES, stockText } from './bookshop.js';
import type { FlowKind, FlowRecord } from './stats.js';

/** What the fetch saw of the current flow. */
interface Seen {
  upstreams: string[];
  lastStatus: number | undefined;
  lastUpstream: string | undefined;
  fetchFailed: boolean;
}

/** The instance that answered (the last one nginx tried), or `direct` for a request that bypassed nginx. */
function upstreamOf(response: Response, direct: string): string {
  const header = response.headers.get('x-fleet-upstream');
  if (header === null || header === '') return direct;
  return header.split(',').at(-1)?.trim() ?? direct;
}

/** Answers the bookshop's questions: confirm, ship express, approve. */
function answer(params: ElicitRequestParams) {
  const fields = Object.keys(
    (params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {},
  );
  if (fields.includes('shipping')) return { action: 'accept' as const, content: { shipping: 'express' } };
  if (fields.includes('approve')) return { action: 'accept' as const, content: { approve: true } };
  return { action: 'accept' as const, content: { confirm: true } };
}

const TITLES = Object.keys(SHELVES);

/** Why a flow failed, in a few words. */
function classify(error: unknown, seen: Seen): string {
  // The transport turns a failed HTTP exchange into -32603: the status, or the failed fetch, says more.
  if (seen.lastStatus !== undefined && seen.lastStatus >= 500) return `http-${seen.lastStatus}`;
  if (seen.fetchFailed) return 'connection';
  if (error instanceof McpError) {
    return error.code === -32602 && /requestState/i.test(error.message)
      ? 'state-rejected'
      : `mcp${error.code}`;
  }
  if (seen.lastStatus !== undefined && seen.lastStatus >= 400) return `http-${seen.lastStatus}`;
  if (seen.fetchFailed) return 'connection';
  if (error instanceof ClientError) return `client-${error.reason}`;
  return 'other';
}

/** One worker of the load generator: runs flows one after another on its own client. */
export class FlowWorker {
  readonly #seen: Seen = {
    upstreams: [],
    lastStatus: undefined,
    lastUpstream: undefined,
    fetchFailed: false,
  };
  #client: Client | undefined;
  #url: string | undefined;
  /** The trace id of the current flow's call (what clientTelemetry put in `_meta`), when tracing. */
  #traceId: string | undefined;
  readonly #traced: boolean;

  /** `traced`: each client records spans (clientTelemetry) to the process's tracer provider. */
  constructor(traced = false) {
    this.#traced = traced;
  }

  /** Runs one flow of `kind` against `url` (nginx, or one instance directly); never rejects. */
  async run(kind: FlowKind, url: string, n: number): Promise<FlowRecord> {
    const seen = this.#seen;
    seen.upstreams = [];
    seen.lastStatus = undefined;
    seen.lastUpstream = undefined;
    seen.fetchFailed = false;
    this.#traceId = undefined;
    const started = performance.now();
    const title = TITLES[n % TITLES.length] as string;
    try {
      let text: string | undefined;
      let expected: string;
      if (kind === 'legacy') {
        const client = await this.#connect(url, '2025-11-25');
        try {
          text = firstText(await client.callTool('order_book', { title }, { timeoutMs: 10_000 }));
        } finally {
          await client.close();
        }
        expected = orderText(title);
      } else {
        const client = await this.#modern(url);
        const result =
          kind === 'check_stock'
            ? await client.callTool('check_stock', { title }, { timeoutMs: 10_000 })
            : await client.callTool('order_book', { title }, { timeoutMs: 10_000 });
        text = firstText(result);
        expected = kind === 'check_stock' ? stockText(title) : orderText(title);
      }
      const ms = performance.now() - started;
      if (text !== expected)
        return { kind, ok: false, ms, upstreams: [...seen.upstreams], error: 'wrong-result' };
      const traceId = this.#traceId;
      return {
        kind,
        ok: true,
        ms,
        upstreams: [...seen.upstreams],
        ...(traceId !== undefined && { traceId }),
      };
    } catch (error) {
      if (kind !== 'legacy') await this.#reset();
      return {
        kind,
        ok: false,
        ms: performance.now() - started,
        upstreams: [...seen.upstreams],
        error: classify(error, seen),
        detail: `${firstLine((error as Error)?.message ?? String(error))} ${describeCause(error)}`.slice(
          0,
          300,
        ),
        failedOn: seen.lastStatus === 502 || seen.lastStatus === 504 ? seen.lastUpstream : undefined,
      };
    }
  }

  async close(): Promise<void> {
    await this.#reset();
  }

  async #modern(url: string): Promise<Client> {
    if (this.#client !== undefined && this.#url === url) return this.#client;
    await this.#reset();
    this.#client = await this.#connect(url, '2026-07-28');
    this.#url = url;
    return this.#client;
  }

  async #reset(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#url = undefined;
    await client?.close().catch(() => {});
  }

  async #connect(url: string, protocol: '2026-07-28' | '2025-11-25'): Promise<Client> {
    const seen = this.#seen;
    const direct = new URL(url).host;
    const fetchSeen: typeof fetch = async (input, init) => {
      try {
        const response = await fetch(input, init);
        const upstream = upstreamOf(response, direct);
        seen.upstreams.push(upstream);
        seen.lastStatus = response.status;
        seen.lastUpstream = upstream;
        return response;
      } catch (error) {
        seen.fetchFailed = true;
        throw error;
      }
    };
    const client = new Client(
      { name: 'fleet-load', version: '1.0.0' },
      { protocol, elicitation: (params) => answer(params), cache: false },
    );
    if (this.#traced) {
      // The trace id each call's rounds carry: recorded after clientTelemetry put it into `_meta`.
      client.use(clientTelemetry()).use(async (ctx, next) => {
        const traceparent = ctx.meta.traceparent;
        if (typeof traceparent === 'string') this.#traceId = traceparent.split('-')[1];
        return next();
      });
    }
    await client.connect(new StreamableHttpClientTransport(url, { fetch: fetchSeen }));
    return client;
  }
}

/** The first line of a message (an HTML error page says the rest). */
function firstLine(message: string): string {
  return message.split('\n')[0] ?? '';
}

/** The chain of causes of an error, for the log (undici puts the socket error in `cause`). */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  let cause = (error as { cause?: unknown } | undefined)?.cause;
  for (let depth = 0; cause !== undefined && depth < 3; depth++) {
    parts.push(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.length === 0 ? '' : `(${parts.join(' ← ')})`;
}

function firstText(result: { content: readonly { type: string; text?: string }[] }): string | undefined {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : undefined;
}
