// A scripted MCP server for the client's tests: it records every message it receives and answers each request
// with whatever the test's `reply` function returns, raw (no `resultType` stamping, no validation), so tests can
// send exactly the bytes a misbehaving server would.
import {
  type ElicitRequest,
  elicitRequest,
  type JSONRPCMessage,
  type JSONRPCNotification,
  McpError,
  type RequestId,
} from '@boomerang/protocol';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  jsonRpcError,
  type Transport,
} from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { Client } from '../client.js';
import { correlate } from '../correlator.js';
import type { ClientOptions } from '../options.js';

/** A request as the server saw it. `params` is loosely typed on purpose: tests poke at wire fields. */
export interface ReceivedRequest {
  readonly id: RequestId;
  readonly method: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields
  readonly params: Record<string, any>;
}

/** Returned by a reply function: send nothing for this request (it stays in flight). */
export const NO_REPLY: unique symbol = Symbol('no reply');

/** Answers one request: a result object, {@link NO_REPLY}, or a thrown {@link McpError} (→ error response). */
export type Reply = (request: ReceivedRequest, index: number, server: FakeServer) => unknown;

/** The server side of a test. */
export interface FakeServer {
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** Every notification received, in order (e.g. `notifications/cancelled`). */
  readonly notifications: JSONRPCNotification[];
  /** Sends any message to the client (progress, stray responses, server→client requests). */
  send(message: JSONRPCMessage): Promise<void>;
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once a notification with `method` has arrived. */
  waitForNotification(method: string): Promise<JSONRPCNotification>;
}

/**
 * Serves `transport` with `reply` until it closes. With `answersProbe`, a `server/discover` is answered as a
 * 2026-07-28 server would, without reaching `reply` or `requests` (for clients left on `protocol: 'auto'`).
 */
export function fakeServer(
  transport: Transport,
  reply: Reply,
  options: { answersProbe?: boolean } = {},
): FakeServer {
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await new Promise<void>((resolve) => waiters.add(resolve));
  };
  const server: FakeServer = {
    requests: [],
    notifications: [],
    send: (message) => transport.send(message),
    waitForRequests: (count) => until(() => server.requests.length >= count),
    async waitForNotification(method) {
      await until(() => server.notifications.some((n) => n.method === method));
      return server.notifications.find((n) => n.method === method) as JSONRPCNotification;
    },
  };
  const answer = async (request: ReceivedRequest, index: number) => {
    try {
      const result = await reply(request, index, server);
      if (result === NO_REPLY) return;
      await transport.send({ jsonrpc: '2.0', id: request.id, result } as JSONRPCMessage);
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      await transport.send(jsonRpcError(request.id, error));
    }
  };
  void (async () => {
    for await (const message of transport.messages) {
      if (options.answersProbe && isJSONRPCRequest(message) && message.method === 'server/discover') {
        const result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
        void transport.send({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage).catch(() => {});
      } else if (isJSONRPCRequest(message)) {
        const request = { id: message.id, method: message.method, params: message.params ?? {} };
        server.requests.push(request);
        void answer(request, server.requests.length - 1).catch(() => {});
      } else if (isJSONRPCNotification(message)) {
        server.notifications.push(message);
      }
      wake();
    }
  })();
  return server;
}

/** Answers the i-th request with `replies[i]` (a value, or a reply function); requests past the end hang. */
export function script(...replies: (Reply | object)[]): Reply {
  return (request, index, server) => {
    const next = replies[index];
    if (next === undefined) return NO_REPLY;
    return typeof next === 'function' ? (next as Reply)(request, index, server) : next;
  };
}

/** A `notifications/progress` for `request` (read from its `_meta.progressToken`). */
export function progressOf(request: ReceivedRequest, progress: number): JSONRPCMessage {
  const params = { progressToken: request.params._meta?.progressToken, progress };
  return { jsonrpc: '2.0', method: 'notifications/progress', params } as JSONRPCMessage;
}

/** A connected client and its fake server; `await using` closes the link. */
export interface Harness extends AsyncDisposable {
  readonly client: Client;
  readonly server: FakeServer;
  /** The client's end of the link (close it to simulate the server going away). */
  readonly transport: Transport;
}

/** The `clientInfo` of test clients. */
export const INFO = { name: 'test-client', version: '1.0.0' } as const;

/**
 * Connects a new `Client(INFO, options)` (2026-07-28 unless `options.protocol`) to a fake server answering with
 * `reply`. With `asRequestTransport`, the client is handed the link as a request transport (as HTTP would be),
 * so it takes every outcome to be reported.
 */
export async function harness(
  reply: Reply,
  { asRequestTransport, ...options }: ClientOptions & { asRequestTransport?: boolean } = {},
): Promise<Harness> {
  const pair = createInMemoryPair();
  const [clientTransport, serverTransport] = pair;
  const server = fakeServer(serverTransport, reply);
  // A scripted peer answers every request itself: no `server/discover` probe unless a test asks for one.
  const client = new Client(INFO, { protocol: '2026-07-28', ...options });
  await client.connect(asRequestTransport ? correlate(clientTransport) : clientTransport);
  return {
    client,
    server,
    transport: clientTransport,
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await pair[Symbol.asyncDispose]();
    },
  };
}

/** A complete `CallToolResult` with one text block. */
export function textResult(text: string): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text }] };
}

/** A complete cacheable result (list methods, `resources/read`, `server/discover`) with `fields`. */
export function cacheable(fields: Record<string, unknown>): Record<string, unknown> {
  return { resultType: 'complete', ttlMs: 0, cacheScope: 'private', ...fields };
}

/** A form elicitation input request asking for one string field (built with the protocol's builder). */
export function askFor(field: string, message = `Your ${field}?`): ElicitRequest {
  return elicitRequest({
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
  });
}

/** A promise and its resolver, for gates in concurrency tests. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
