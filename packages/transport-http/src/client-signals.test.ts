// The signals the client transport hands to fetch: a caller's signal shared by many exchanges carries one listener
// per transport, each signal fetch gets is shared by a bounded number of exchanges (undici adds a listener per
// request to it and drops it only when the request is garbage), and aborts reach exactly the exchanges they should.
// Unit tests of ExchangeSignals, then the transport and the Client under load against a real listen() server.
import { getEventListeners } from 'node:events';
import { Client } from '@boomerang/client';
import type { FetchLike } from '@boomerang/protocol/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { EXCHANGES_PER_SIGNAL, ExchangeSignals } from './client-signals.js';
import { type Listening, listen } from './node.js';
import { makeServer, meta, type Observed, rpc } from './test-support/fixture.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('ExchangeSignals', () => {
  it('exchanges passing one caller signal share its one listener, and a signal per 32 of them', () => {
    const signals = new ExchangeSignals();
    const caller = new AbortController();
    const exchanges = Array.from({ length: 500 }, () => signals.open(caller.signal));
    expect(listeners(caller.signal)).toBe(1);
    expect(new Set(exchanges.map((exchange) => exchange.signal)).size).toBe(
      Math.ceil(500 / EXCHANGES_PER_SIGNAL),
    );
    expect(exchanges.some((exchange) => exchange.signal === caller.signal)).toBe(false);
    const reason = new Error('deadline');
    caller.abort(reason);
    expect(exchanges.every((exchange) => exchange.signal.reason === reason)).toBe(true);
    expect(listeners(caller.signal)).toBe(0);
    for (const exchange of exchanges) exchange.done();
    expect(signals.links).toBe(0);
  });

  it('an abort reaches only the exchanges that passed that signal, and none that ended', () => {
    const signals = new ExchangeSignals();
    const a = new AbortController();
    const b = new AbortController();
    const ofA = signals.open(a.signal);
    const ofB = signals.open(b.signal);
    const ended = signals.open(a.signal);
    ended.done();
    const stopped: string[] = [];
    ofA.whenAborted(() => stopped.push('read of a'));
    const unregistered = ofA.whenAborted(() => stopped.push('read that ended'));
    unregistered();
    a.abort(new Error('a gave up'));
    expect([ofA.signal.aborted, ofB.signal.aborted]).toEqual([true, false]);
    expect(stopped).toEqual(['read of a']);
    // The next exchange passing the aborted signal starts aborted, with its reason.
    const late = signals.open(a.signal);
    expect(late.signal.reason).toEqual(new Error('a gave up'));
    late.done();
    ofA.done();
    ofB.done();
  });

  it('keeps the link of the latest signal no exchange uses, and drops it when another takes its place', () => {
    const signals = new ExchangeSignals();
    const first = new AbortController();
    signals.open(first.signal).done();
    expect([listeners(first.signal), signals.links]).toEqual([1, 1]);
    const second = new AbortController();
    signals.open(second.signal).done();
    expect([listeners(first.signal), listeners(second.signal), signals.links]).toEqual([0, 1, 1]);
  });

  it('closing aborts every exchange in flight (with or without a caller signal) and every later one', () => {
    const signals = new ExchangeSignals();
    const caller = new AbortController();
    const linked = signals.open(caller.signal);
    const unlinked = signals.open(undefined);
    const closed = new Error('closed');
    signals.close(closed);
    expect([linked.signal.reason, unlinked.signal.reason]).toEqual([closed, closed]);
    expect(listeners(caller.signal)).toBe(0);
    expect(signals.open(undefined).signal.reason).toBe(closed);
    expect(signals.open(new AbortController().signal).signal.reason).toBe(closed);
    expect(signals.links).toBe(0);
  });

  it('a signal already aborted gets no listener: its exchanges start aborted', () => {
    const signals = new ExchangeSignals();
    const reason = new Error('too late');
    const caller = AbortSignal.abort(reason);
    const exchange = signals.open(caller);
    expect(exchange.signal.reason).toBe(reason);
    expect(listeners(caller)).toBe(0);
    let stopped = false;
    exchange.whenAborted(() => {
      stopped = true;
    });
    expect(stopped).toBe(true);
    exchange.done();
    expect(signals.links).toBe(0);
  });
});

describe('under load, against a real listen() server', () => {
  const running: Listening[] = [];
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
  };
  afterEach(async () => {
    process.off('warning', onWarning);
    warnings.length = 0;
    await Promise.all(running.splice(0).map((server) => server.close()));
  });

  async function start(observed?: Observed): Promise<Listening> {
    process.on('warning', onWarning);
    const server = await listen(makeServer(observed), { maxConnections: 2048 });
    running.push(server);
    return server;
  }

  /** Node's fetch, recording the signal of each request and the most listeners one carried once fetch had it. */
  function watchedFetch() {
    const seen = { signals: new Set<AbortSignal>(), most: 0 };
    const fetch: FetchLike = (input, init) => {
      const response = globalThis.fetch(input, init);
      const signal = init?.signal;
      if (signal) {
        seen.signals.add(signal);
        seen.most = Math.max(seen.most, listeners(signal));
      }
      return response;
    };
    return { fetch, seen };
  }

  /** Lets `process.emitWarning` (next tick) deliver anything pending. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('2,000 requests, 500 at a time, sharing one deadline signal: one listener on it, a few on each signal fetch got, no warning', async () => {
    const server = await start();
    const { fetch, seen } = watchedFetch();
    const transport = new StreamableHttpClientTransport(server.url, { fetch, onWarning: () => {} });
    const deadline = new AbortController();
    let shared = 0;
    for (let wave = 0; wave < 4; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, i) => {
          const answer = transport.request(rpc('tools/call', { name: 'echo', arguments: { text: `${i}` } }), {
            signal: deadline.signal,
          });
          shared = Math.max(shared, listeners(deadline.signal));
          return answer;
        }),
      );
      expect(answers.every((answer) => 'result' in answer)).toBe(true);
    }
    await settle();
    expect(warnings).toEqual([]);
    expect(shared).toBe(1);
    // Each signal went to at most 32 requests (and undici's own listener is the only one per request).
    expect(seen.most).toBeLessThanOrEqual(EXCHANGES_PER_SIGNAL);
    expect(seen.signals.size).toBe(Math.ceil(2000 / EXCHANGES_PER_SIGNAL));
    expect(seen.signals.has(deadline.signal)).toBe(false);
    await transport.close();
    expect(listeners(deadline.signal)).toBe(0);
  });

  it('128 concurrent callTool for 2,048 calls through the Client (its shared response deadlines): no warning', async () => {
    const server = await start();
    const { fetch, seen } = watchedFetch();
    const client = new Client({ name: 'load', version: '1.0.0' }, { cache: false });
    await client.connect(new StreamableHttpClientTransport(server.url, { fetch, onWarning: () => {} }));
    let next = 0;
    await Promise.all(
      Array.from({ length: 128 }, async () => {
        while (next < 2048) {
          const text = String(next++);
          const result = await client.callTool('echo', { text });
          expect(result.content).toEqual([{ type: 'text', text }]);
        }
      }),
    );
    await settle();
    expect(warnings).toEqual([]);
    expect(seen.most).toBeLessThanOrEqual(EXCHANGES_PER_SIGNAL);
    await client.close();
  });

  it('a cancellation storm: aborting one signal ends exactly its 250 calls, mid-stream; the other 250 go on', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(observed);
    const { fetch, seen } = watchedFetch();
    const transport = new StreamableHttpClientTransport(server.url, { fetch, onWarning: () => {} });
    const [a, b] = [new AbortController(), new AbortController()];
    const progress = { count: 0 };
    let token = 0;
    const slow = () => rpc('tools/call', { name: 'slow', _meta: meta({ progressToken: token++ }) });
    const call = (signal: AbortSignal) =>
      transport.request(slow(), { signal, onMessage: () => void progress.count++ }).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    const ofA = Array.from({ length: 250 }, () => call(a.signal));
    const ofB = Array.from({ length: 250 }, () => call(b.signal));
    // Every call is in its event stream (the server sent its progress) before anything aborts.
    await vi.waitFor(() => expect(progress.count).toBe(500), { timeout: 20_000 });
    a.abort(new Error('a gave up'));
    expect(await Promise.all(ofA)).toEqual(Array(250).fill('a gave up'));
    await vi.waitFor(() => expect(observed.slowSignals.filter((signal) => signal.aborted)).toHaveLength(250));
    expect([listeners(a.signal), listeners(b.signal)]).toEqual([0, 1]);
    b.abort(new Error('b gave up'));
    expect(await Promise.all(ofB)).toEqual(Array(250).fill('b gave up'));
    await vi.waitFor(() => expect(observed.slowSignals.filter((signal) => signal.aborted)).toHaveLength(500));
    await settle();
    expect(warnings).toEqual([]);
    expect(seen.most).toBeLessThanOrEqual(EXCHANGES_PER_SIGNAL);
    expect(listeners(b.signal)).toBe(0);
    await transport.close();
  });

  it('response deadlines that expire: every call times out with its reason, and nothing warns', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(observed);
    const { fetch, seen } = watchedFetch();
    const client = new Client({ name: 'load', version: '1.0.0' }, { cache: false, responseTimeoutMs: 300 });
    await client.connect(new StreamableHttpClientTransport(server.url, { fetch, onWarning: () => {} }));
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, () =>
        client.callTool('slow').then(
          () => 'answered',
          (error: unknown) => (error as { reason?: string }).reason,
        ),
      ),
    );
    expect(outcomes).toEqual(Array(300).fill('timeout'));
    await vi.waitFor(() => expect(observed.slowSignals.filter((signal) => signal.aborted)).toHaveLength(300));
    await settle();
    expect(warnings).toEqual([]);
    expect(seen.most).toBeLessThanOrEqual(EXCHANGES_PER_SIGNAL);
    // The connection serves on after the storm.
    expect((await client.callTool('echo', { text: 'after' })).content).toEqual([
      { type: 'text', text: 'after' },
    ]);
    await client.close();
  });
});
