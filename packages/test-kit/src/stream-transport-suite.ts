import { isPlainObject, type JSONRPCMessage } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multiByteText, range, takeN, within } from './steps.js';

/** Two connected ends: what the client holds and what the server holds. */
export type TransportPair = readonly [client: Transport, server: Transport];

/** Builds a fresh connected pair for one test. May be async (spawn a child process, bind a port…). */
export type MakeTransportPair = () => TransportPair | Promise<TransportPair>;

/** Knobs for transports that are slower or bounded; the defaults suit in-process and stdio transports. */
export interface StreamTransportSuiteOptions {
  /** Messages per direction in the "many messages" test (default 2000). */
  manyMessages?: number;
  /** Approximate UTF-8 size of the payload in the "large messages" test (default 4 MiB). */
  largeMessageBytes?: number;
  /** How long one awaited step may take before the test fails with a message naming it (default 10 s). */
  stepTimeoutMs?: number;
}

/**
 * The conformance suite of the stream `Transport` contract, run by every stream transport (memory, stdio): one
 * `describe` block of tests over pairs made by `makePair`, each test on a fresh pair, both ends closed
 * afterwards. It fixes the contract that `Server.connect` and the client's correlator rely on (what a client
 * relies on from any transport, HTTP included, is `requestTransportSuite`'s):
 *
 * - messages arrive intact (equal, never the same object, a snapshot taken when `send` was called), in order per
 *   direction for awaited sends, none lost however many or however large (multi-byte UTF-8 included), also when
 *   both ends send concurrently;
 * - `close()` on either end ends the iteration on both ends, after the messages sent before it were delivered;
 *   `close()` is idempotent and `[Symbol.asyncDispose]` closes;
 * - `send` rejects with an `Error` whose message says "closed" on an end that was closed, or whose peer closed
 *   once that end's iteration has ended;
 * - `messages` has one consumer: a second `[Symbol.asyncIterator]()` throws (or its first `next()` rejects) a
 *   `TypeError`.
 */
export function streamTransportSuite(
  name: string,
  makePair: MakeTransportPair,
  options: StreamTransportSuiteOptions = {},
): void {
  const stepMs = options.stepTimeoutMs ?? 10_000;
  const step = <T>(label: string, promise: PromiseLike<T>): Promise<T> => within(label, promise, stepMs);

  describe(`stream transport conformance: ${name}`, () => {
    let current: Ends | undefined;
    const suite: StreamSuite = {
      many: options.manyMessages ?? 2000,
      largeBytes: options.largeMessageBytes ?? 4 * 1024 * 1024,
      ends: () => {
        if (current === undefined) throw new Error('no transport pair: beforeEach did not make one');
        return current;
      },
      step,
      take: (label, from, n) => step(`receive ${n} message(s): ${label}`, takeN(from, n)),
      ended: async (label, from) => {
        const next = await step(`iteration ends: ${label}`, from.next());
        expect(next.done, `${label}: expected the iteration to end, got a message`).toBe(true);
      },
    };

    beforeEach(async () => {
      const [client, server] = await makePair();
      current = {
        client,
        server,
        fromServer: client.messages[Symbol.asyncIterator](),
        fromClient: server.messages[Symbol.asyncIterator](),
      };
    });

    afterEach(async () => {
      const { client, server } = suite.ends();
      await Promise.allSettled([client.close(), server.close()]);
    });

    deliveryTests(suite);
    volumeTests(suite);
    closeTests(suite);
  });
}

/** The two ends of the running test's pair, and the one iterator over each end's messages. */
interface Ends {
  readonly client: Transport;
  readonly server: Transport;
  /** What the client receives. */
  readonly fromServer: AsyncIterator<JSONRPCMessage>;
  /** What the server receives. */
  readonly fromClient: AsyncIterator<JSONRPCMessage>;
}

/** What the groups of tests share: the suite's sizes, the running test's pair and steps that name themselves. */
interface StreamSuite {
  readonly many: number;
  readonly largeBytes: number;
  /** The pair `beforeEach` made for the running test. */
  ends(): Ends;
  step<T>(label: string, promise: PromiseLike<T>): Promise<T>;
  take(label: string, from: AsyncIterator<JSONRPCMessage>, n: number): Promise<JSONRPCMessage[]>;
  /** Fails unless the iteration ends (within a step). */
  ended(label: string, from: AsyncIterator<JSONRPCMessage>): Promise<void>;
}

/** Single messages arrive intact, as a snapshot, in order. */
function deliveryTests({ ends, take }: StreamSuite): void {
  it('delivers a request and its response, equal but not the same object', async () => {
    const { client, server, fromServer, fromClient } = ends();
    const request = req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const pending = take('request', fromClient, 1);
    await client.send(request);
    const [received] = await pending;
    expect(received).toEqual(request);
    expect(received).not.toBe(request);

    const response = ok(1, { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] });
    const back = take('response', fromServer, 1);
    await server.send(response);
    expect(await back).toEqual([response]);
  });

  it('delivers notifications and error responses in both directions', async () => {
    const { client, server, fromServer, fromClient } = ends();
    const messages: JSONRPCMessage[] = [
      note('notifications/progress', { progressToken: 't', progress: 1 }),
      { jsonrpc: '2.0', id: 'e1', error: { code: -32602, message: 'Invalid params', data: { why: null } } },
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
    ];
    const atServer = take('client → server', fromClient, messages.length);
    const atClient = take('server → client', fromServer, messages.length);
    for (const message of messages) {
      await client.send(message);
      await server.send(message);
    }
    expect(await atServer).toEqual(messages);
    expect(await atClient).toEqual(messages);
  });

  it('snapshots a message when send is called (later mutation does not travel)', async () => {
    const { client, fromClient } = ends();
    const message = req('m', 'tools/call', { name: 'a', arguments: { n: 1 } });
    const pending = take('snapshot', fromClient, 1);
    const sent = client.send(message);
    (message.params as { arguments: { n: number } }).arguments.n = 2;
    await sent;
    expect(await pending).toEqual([req('m', 'tools/call', { name: 'a', arguments: { n: 1 } })]);
  });

  it('keeps the order of awaited sends in each direction, interleaved', async () => {
    const { client, server, fromServer, fromClient } = ends();
    const n = 100;
    const atServer = take('client → server', fromClient, n);
    const atClient = take('server → client', fromServer, n);
    for (let i = 0; i < n; i++) {
      await client.send(req(i, 'seq', { i }));
      await server.send(note('seq', { i }));
    }
    expect((await atServer).map(indexOf)).toEqual(range(n));
    expect((await atClient).map(indexOf)).toEqual(range(n));
  });
}

/** Nothing is lost: many messages, large ones, concurrent sends from both ends. */
function volumeTests({ many, largeBytes, ends, step, take }: StreamSuite): void {
  it(`delivers ${many} messages per direction without loss`, async () => {
    const { client, server, fromServer, fromClient } = ends();
    const atServer = take('client → server', fromClient, many);
    const atClient = take('server → client', fromServer, many);
    const sendAll = async (from: Transport) => {
      for (let i = 0; i < many; i++) await from.send(note('bulk', { i, pad: 'x'.repeat(i % 64) }));
    };
    await step('send all', Promise.all([sendAll(client), sendAll(server)]));
    expect((await atServer).map(indexOf)).toEqual(range(many));
    expect((await atClient).map(indexOf)).toEqual(range(many));
  });

  it(`delivers large messages (~${Math.round(largeBytes / 1024)} KiB, multi-byte UTF-8) both ways`, async () => {
    const { client, server, fromServer, fromClient } = ends();
    const text = multiByteText(largeBytes);
    const big = req('big', 'tools/call', { name: 'upload', arguments: { text } });
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      i,
      name: `row ${i}`,
      tags: ['a', 'b'],
      ok: i % 2 === 0,
    }));
    const wide = ok('big', { resultType: 'complete', structuredContent: { rows, text } });
    const atServer = take('large request', fromClient, 1);
    const atClient = take('large response', fromServer, 1);
    await step('send large request', client.send(big));
    await step('send large response', server.send(wide));
    const [gotRequest] = await atServer;
    const [gotResponse] = await atClient;
    expect(gotRequest).toEqual(big);
    expect(gotResponse).toEqual(wide);
  });

  it('delivers every message of concurrent sends from both ends', async () => {
    const { client, server, fromServer, fromClient } = ends();
    const n = 200;
    const atServer = take('client → server', fromClient, n);
    const atClient = take('server → client', fromServer, n);
    await step(
      'concurrent sends',
      Promise.all([
        ...range(n).map((i) => client.send(req(i, 'c', { i }))),
        ...range(n).map((i) => server.send(note('s', { i }))),
      ]),
    );
    expect((await atServer).map(indexOf).sort(byNumber)).toEqual(range(n));
    expect((await atClient).map(indexOf).sort(byNumber)).toEqual(range(n));
  });
}

/** Closing ends both iterations (and sends fail after it); `messages` has one consumer. */
function closeTests({ ends, step, take, ended }: StreamSuite): void {
  for (const side of ['client', 'server'] as const) {
    it(`${side}.close() ends both iterations after delivering what was sent before`, async () => {
      const { client, server, fromServer, fromClient } = ends();
      const [closer, peer, atPeer, atCloser] =
        side === 'client'
          ? [client, server, fromClient, fromServer]
          : [server, client, fromServer, fromClient];
      const pendingAtCloser = atCloser.next(); // a read in flight when the channel closes
      const delivered = take('before close', atPeer, 3);
      for (let i = 0; i < 3; i++) await closer.send(note('before-close', { i }));
      await step('close', closer.close());
      expect((await delivered).map(indexOf)).toEqual([0, 1, 2]);
      await ended('peer', atPeer);
      const inFlight = await step('in-flight read on the closing end', pendingAtCloser);
      expect(inFlight.done).toBe(true);
      await ended('closing end', atCloser);
      await expect(closer.send(note('after', {}))).rejects.toThrow(/closed/i);
      await expect(peer.send(note('after', {}))).rejects.toThrow(/closed/i);
    });
  }

  it('close() is idempotent, also when both ends close at once', async () => {
    const { client, server, fromServer, fromClient } = ends();
    await step('concurrent close', Promise.all([client.close(), server.close(), client.close()]));
    await step('close again', client.close());
    await step('close again', server.close());
    await ended('client', fromServer);
    await ended('server', fromClient);
  });

  it('[Symbol.asyncDispose] closes (await using)', async () => {
    const { client, server, fromServer, fromClient } = ends();
    {
      await using _disposed = client;
    }
    await ended('server', fromClient);
    await ended('client', fromServer);
    await expect(client.send(note('after', {}))).rejects.toThrow(/closed/i);
    await step('dispose again', server[Symbol.asyncDispose]());
  });

  it('for await over messages ends when the peer closes', async () => {
    const { client, fromClient } = ends();
    const seen: unknown[] = [];
    const loop = (async () => {
      for await (const message of { [Symbol.asyncIterator]: () => fromClient }) seen.push(indexOf(message));
    })();
    await client.send(note('loop', { i: 0 }));
    await client.send(note('loop', { i: 1 }));
    await client.close();
    await step('loop ends', loop);
    expect(seen).toEqual([0, 1]);
  });

  it('messages has a single consumer: a second iterator is a TypeError', async () => {
    const { client, server } = ends();
    for (const end of [client, server]) {
      const second = (async () => end.messages[Symbol.asyncIterator]().next())();
      await expect(step('second iterator', second)).rejects.toThrow(TypeError);
    }
  });
}

function req(id: string | number, method: string, params: Record<string, unknown>): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method, params };
}

function note(method: string, params: Record<string, unknown>): JSONRPCMessage {
  return { jsonrpc: '2.0', method, params };
}

function ok(id: string | number, result: Record<string, unknown>): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
}

function indexOf(message: JSONRPCMessage): unknown {
  const { params } = message;
  return isPlainObject(params) ? params.i : undefined;
}

const byNumber = (a: unknown, b: unknown): number => Number(a) - Number(b);
