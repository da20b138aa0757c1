import {
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LATEST_PROTOCOL_VERSION,
  MetaKey,
} from '@boomerang/protocol';
import type { MessageHandler, RequestTransport } from '@boomerang/protocol/transport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multiByteText, range, within } from './steps.js';
import { type SuiteServerLog, suiteServer } from './suite-server.js';

/**
 * Connects the client end of one transport to `handler` (the suite's server) and returns it as a
 * `RequestTransport`: HTTP natively (`createHttpHandler(handler)` behind its `fetch`), a stream transport through
 * `@boomerang/client`'s correlator, with `serveOverStream(serverEnd, handler)` on the other end. May be async
 * (spawn a child process, bind a port…).
 */
export type ConnectRequestTransport = (
  handler: MessageHandler,
) => RequestTransport | Promise<RequestTransport>;

/** Knobs for slower or bounded transports. */
export interface RequestTransportSuiteOptions {
  /** Requests in flight at once in the concurrency test (default 200). */
  concurrentRequests?: number;
  /** Approximate UTF-8 size of the payload in the "large messages" test (default 4 MiB). */
  largeMessageBytes?: number;
  /** How long one awaited step may take before the test fails with a message naming it (default 10 s). */
  stepTimeoutMs?: number;
}

/**
 * The conformance suite of the contract `Client` relies on from every transport, `RequestTransport`, run over
 * memory and stdio (through the correlator) and HTTP: one `describe` block, a fresh transport per test, closed
 * afterwards. It checks that
 *
 * - each request resolves to its own response: the id as given (number or string), its content intact, also for
 *   large multi-byte messages, also with many requests in flight, and snapshotted when `request` was called;
 * - an error response resolves as that response (`code`, `message`, `data`);
 * - the progress notifications the server sends for a request reach its `onMessage` in order, before it resolves
 *   (on a stream only what names its request can be tied to it: progress by token, a listen stream by id);
 * - aborting the signal rejects with its reason and the server sees the cancellation; an aborted signal sends
 *   nothing;
 * - `send` delivers a notification;
 * - `close()` rejects the exchanges in flight, then `request` and `send` reject, `messages` ends; it is idempotent
 *   and `[Symbol.asyncDispose]` closes.
 */
export function requestTransportSuite(
  name: string,
  connect: ConnectRequestTransport,
  options: RequestTransportSuiteOptions = {},
): void {
  const stepMs = options.stepTimeoutMs ?? 10_000;
  const step = <T>(label: string, promise: PromiseLike<T>): Promise<T> => within(label, promise, stepMs);

  describe(`request transport conformance: ${name}`, () => {
    let current: Connected | undefined;
    const suite: RequestSuite = {
      concurrent: options.concurrentRequests ?? 200,
      largeBytes: options.largeMessageBytes ?? 4 * 1024 * 1024,
      connected: () => {
        if (current === undefined) throw new Error('no transport: beforeEach did not connect one');
        return current;
      },
      step,
      until: async (label, done) => {
        const poll = (async () => {
          while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
        })();
        await step(label, poll);
      },
    };

    beforeEach(async () => {
      const server = suiteServer();
      current = { log: server.log, transport: await connect(server.handler) };
    });

    afterEach(async () => {
      await suite.connected().transport.close();
    });

    responseTests(suite);
    volumeTests(suite);
    cancelAndCloseTests(suite);
  });
}

/** The running test's transport, and what the suite's server behind it saw. */
interface Connected {
  readonly transport: RequestTransport;
  readonly log: SuiteServerLog;
}

/** What the groups of tests share: the suite's sizes, the running test's transport and steps that name themselves. */
interface RequestSuite {
  readonly concurrent: number;
  readonly largeBytes: number;
  /** The transport `beforeEach` connected for the running test. */
  connected(): Connected;
  step<T>(label: string, promise: PromiseLike<T>): Promise<T>;
  /** Polls `done` until it holds (within a step). */
  until(label: string, done: () => boolean): Promise<void>;
}

/** Each request gets its own response, its error and its progress notifications; the request is a snapshot. */
function responseTests({ connected, step }: RequestSuite): void {
  it('resolves each request to its own response: the id as given, the content intact', async () => {
    const { transport } = connected();
    for (const id of [1, 'req-a']) {
      const params = { text: 'hi', nested: { list: [1, null, true], empty: {} } };
      const sent = request(id, 'suite/echo', params);
      const response = await step(`request ${id}`, transport.request(sent));
      expect(response).toEqual({ jsonrpc: '2.0', id, result: { resultType: 'complete', echoed: params } });
    }
  });

  it('resolves an error response as that response (code, message, data)', async () => {
    const { transport } = connected();
    const error = { code: -32602, message: 'Invalid params', data: { why: ['x'] } };
    const response = await step('error', transport.request(request('e', 'suite/fail', error)));
    expect(response).toEqual({ jsonrpc: '2.0', id: 'e', error });
  });

  it('hands the progress notifications of a request to its onMessage, in order, before it resolves', async () => {
    const { transport } = connected();
    const seen: unknown[] = [];
    let resolved = false;
    const sent = request(7, 'suite/notify', { count: 5 });
    (sent.params?._meta as Record<string, unknown>)[MetaKey.progressToken] = 'p7';
    const exchange = transport.request(sent, {
      onMessage: (message) => {
        expect(resolved).toBe(false);
        seen.push((message as JSONRPCNotification).params);
      },
    });
    const response = await step(
      'notify',
      exchange.finally(() => (resolved = true)),
    );
    expect(response).toMatchObject({ id: 7, result: { sent: 5 } });
    expect(seen).toEqual(range(5).map((progress) => ({ progressToken: 'p7', progress })));
  });

  it('snapshots the request when request() is called (later mutation does not travel)', async () => {
    const { transport } = connected();
    const sent = request('m', 'suite/echo', { n: 1 });
    const exchange = transport.request(sent);
    (sent.params as { n: number }).n = 2;
    expect(await step('snapshot', exchange)).toMatchObject({ result: { echoed: { n: 1 } } });
  });
}

/** Many requests in flight, and large ones. */
function volumeTests({ concurrent, largeBytes, connected, step }: RequestSuite): void {
  it(`answers ${concurrent} requests in flight at once, each with its own response`, async () => {
    const { transport } = connected();
    const responses = await step(
      'concurrent requests',
      Promise.all(range(concurrent).map((i) => transport.request(request(i, 'suite/echo', { i })))),
    );
    expect(responses.map((r) => [r.id, echoed(r).i])).toEqual(range(concurrent).map((i) => [i, i]));
  });

  it(`carries large messages (~${Math.round(largeBytes / 1024)} KiB, multi-byte UTF-8) both ways`, async () => {
    const { transport } = connected();
    const text = multiByteText(largeBytes);
    const response = await step('large', transport.request(request('big', 'suite/echo', { text })));
    expect(echoed(response).text).toBe(text);
  });
}

/** Aborts reach the server (or send nothing), notifications are delivered, and close ends everything. */
function cancelAndCloseTests({ connected, step, until }: RequestSuite): void {
  it('aborting the signal rejects with its reason, and the server sees the cancellation', async () => {
    const { transport, log } = connected();
    const controller = new AbortController();
    const exchange = transport.request(request('h', 'suite/hang'), { signal: controller.signal });
    await until('the request reaches the server', () => log.hanging.includes('h'));
    const reason = new Error('the user gave up');
    controller.abort(reason);
    await expect(step('abort', exchange)).rejects.toBe(reason);
    await until('the server sees the cancellation', () => log.cancelled.includes('h'));
    // The transport still works.
    expect(await step('after abort', transport.request(request('next', 'suite/echo')))).toMatchObject({
      id: 'next',
    });
  });

  it('an aborted signal rejects with its reason before anything is sent', async () => {
    const { transport, log } = connected();
    const reason = new Error('too late');
    const exchange = transport.request(request('x', 'suite/hang'), { signal: AbortSignal.abort(reason) });
    await expect(step('aborted', exchange)).rejects.toBe(reason);
    await step('next', transport.request(request('y', 'suite/echo')));
    expect(log.hanging).toEqual([]);
  });

  it('send delivers a notification to the server', async () => {
    const { transport, log } = connected();
    const notification: JSONRPCNotification = {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
      params: { from: 'suite' },
    };
    await step('send', transport.send(notification));
    await until('the server receives it', () =>
      log.notifications.some((n) => n.method === 'notifications/initialized'),
    );
    expect(log.notifications.find((n) => n.method === 'notifications/initialized')).toEqual(notification);
  });

  it('close() rejects the exchanges in flight; then request and send reject and messages ends', async () => {
    const { transport, log } = connected();
    const messages = transport.messages[Symbol.asyncIterator]();
    const pending = transport.request(request('p', 'suite/hang')).then(
      () => new Error('resolved after close'),
      (error: unknown) => error,
    );
    await until('the request reaches the server', () => log.hanging.includes('p'));
    const reading = messages.next();
    await step('close', Promise.all([transport.close(), transport.close()]));
    expect(String(await step('in flight', pending))).toMatch(/closed/i);
    expect((await step('messages ends', reading)).done).toBe(true);
    await expect(transport.request(request('q', 'suite/echo'))).rejects.toThrow(/closed/i);
    const note: JSONRPCNotification = { jsonrpc: '2.0', method: 'notifications/x' };
    await expect(transport.send(note)).rejects.toThrow(/closed/i);
    await step('dispose', transport[Symbol.asyncDispose]());
  });
}

/** A request of the suite's server, with the `_meta` every 2026-07-28 request carries. */
function request(id: string | number, method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  const _meta = {
    [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [MetaKey.clientCapabilities]: {},
    [MetaKey.clientInfo]: { name: 'request-transport-suite', version: '1.0.0' },
  };
  return { jsonrpc: '2.0', id, method, params: { _meta, ...params } };
}

/** What `suite/echo` echoed (the test fails when the response is an error). */
function echoed(response: JSONRPCResponse): Record<string, unknown> {
  if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return (response.result as { echoed: Record<string, unknown> }).echoed;
}
