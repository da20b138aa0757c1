import type { JSONRPCNotification } from '@boomerang/protocol';
import { createSealer, generateKey } from '@boomerang/seal';
import { describe, expect, it, vi } from 'vitest';
import {
  busNotificationSource,
  MAX_ORIGINS,
  type NotificationBus,
  type NotificationBusEvents,
} from './notification-bus.js';
import type { SubscriptionNotification } from './notifications.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request } from './test-support/wire.js';

/** An in-memory bus shared by several "processes": `drop()` and `restore()` cut and mend every receiver. */
function fakeNetwork() {
  const receivers = new Set<NotificationBusEvents>();
  const sent: string[] = [];
  const network = {
    sent,
    /** When set, `open` rejects with it. */
    unreachable: undefined as Error | undefined,
    /** When set, `send` rejects with it. */
    refuse: undefined as Error | undefined,
    /** Messages `send` takes but never delivers (1-based counts of sends). */
    swallow: new Set<number>(),
    closed: 0,
    deliver(text: string) {
      for (const receiver of receivers) receiver.message(text);
    },
    drop() {
      for (const receiver of receivers) receiver.lost(new Error('connection reset'));
    },
    restore() {
      for (const receiver of receivers) receiver.restored();
    },
    bus(): NotificationBus {
      let mine: NotificationBusEvents | undefined;
      return {
        async send(message) {
          await Promise.resolve();
          if (network.refuse !== undefined) throw network.refuse;
          sent.push(message);
          if (!network.swallow.has(sent.length)) network.deliver(message);
        },
        async open(events) {
          await Promise.resolve();
          if (network.unreachable !== undefined) throw network.unreachable;
          mine = events;
          receivers.add(events);
        },
        async close() {
          if (mine !== undefined) receivers.delete(mine);
          network.closed++;
        },
      };
    },
  };
  return network;
}

const toolsChanged: SubscriptionNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
const updated = (uri: string): SubscriptionNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri },
});
const quiet = () => {};
const keys = [generateKey()];
/** Opens a bus message as an instance with `keys` would (the envelope, or throws). */
const opened = (text: string, with_ = keys, audience?: string) =>
  createSealer({ keys: with_, ...(audience !== undefined && { audience }) }).unsealJson(text, {
    context: 'boomerang/notification-bus/v1',
  }) as { boomerang: 1; origin: string; seq: number; notification: unknown };
/** Seals an envelope as an instance with `with_` would. */
const sealedAs = (envelope: object, with_ = keys, audience?: string) =>
  createSealer({ keys: with_, ...(audience !== undefined && { audience }) }).sealJson(envelope, {
    context: 'boomerang/notification-bus/v1',
  });

describe('busNotificationSource', () => {
  it('delivers what any instance publishes to the subscribers of every instance, once each, in order', async () => {
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys });
    const b = busNotificationSource(network.bus(), { keys });
    const got = { a: [] as string[], b: [] as string[] };
    await a.subscribe({ resourceSubscriptions: ['u:1', 'u:2', 'u:3'] }, (n) =>
      got.a.push((n.params as { uri: string }).uri),
    );
    await b.subscribe({ resourceSubscriptions: ['u:1', 'u:2', 'u:3'] }, (n) =>
      got.b.push((n.params as { uri: string }).uri),
    );
    await Promise.all([a.publish(updated('u:1')), a.publish(updated('u:2')), b.publish(updated('u:3'))]);
    // Every subscriber has each once; a's two in a's order (b's may come between: order is per instance).
    for (const list of [got.a, got.b]) {
      expect([...list].sort()).toEqual(['u:1', 'u:2', 'u:3']);
      expect(list.indexOf('u:1')).toBeLessThan(list.indexOf('u:2'));
    }
    // A bus that delivers a message twice: the second copy is dropped.
    network.deliver(network.sent[0] as string);
    expect(got.a).toHaveLength(3);
    await a.close();
    await b.close();
  });

  it('filters per subscriber, and stops delivering after unsubscribe', async () => {
    const network = fakeNetwork();
    const source = busNotificationSource(network.bus(), { keys });
    const tools: string[] = [];
    const uris: string[] = [];
    const stopTools = await source.subscribe({ toolsListChanged: true }, (n) => tools.push(n.method));
    await source.subscribe({ resourceSubscriptions: ['u:a'] }, (n) => uris.push(n.method));
    await source.publish(toolsChanged);
    await source.publish(updated('u:b'));
    await source.publish(updated('u:a'));
    stopTools();
    stopTools();
    await source.publish(toolsChanged);
    expect(tools).toEqual(['notifications/tools/list_changed']);
    expect(uris).toEqual(['notifications/resources/updated']);
    await source.close();
  });

  it('sends one sealed envelope per publication, numbered from 1 per instance (the wire format)', async () => {
    const network = fakeNetwork();
    const source = busNotificationSource(network.bus(), { keys });
    await source.publish(toolsChanged);
    await source.publish(updated('u:x'));
    // Nothing readable on the wire: a seal token (canonical base64url).
    for (const text of network.sent) {
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(text).not.toContain('list_changed');
    }
    const [first, second] = network.sent.map((text) => opened(text));
    expect(first).toEqual({
      boomerang: 1,
      origin: expect.stringMatching(/^[0-9a-f]{24}$/),
      seq: 1,
      notification: toolsChanged,
    });
    expect(second).toMatchObject({ boomerang: 1, origin: first?.origin, seq: 2 });
    await source.close();
  });

  it('keeps publications in order even when sends take different times', async () => {
    const delivered: string[] = [];
    const bus: NotificationBus = {
      async send(message) {
        const { seq } = opened(message);
        await new Promise((resolve) => setTimeout(resolve, seq % 2 === 0 ? 1 : 15));
        delivered.push(String(seq));
      },
      async open() {},
      async close() {},
    };
    const source = busNotificationSource(bus, { keys });
    await Promise.all(Array.from({ length: 6 }, () => source.publish(toolsChanged)));
    expect(delivered).toEqual(['1', '2', '3', '4', '5', '6']);
    await source.close();
  });

  it('tells the subscribers of every instance when a publication never arrived, and drops them', async () => {
    const network = fakeNetwork();
    const logger = recordingLogger();
    const a = busNotificationSource(network.bus(), { keys });
    const b = busNotificationSource(network.bus(), { keys, warn: logger.warn });
    const heard: string[] = [];
    const interrupted: Error[] = [];
    await b.subscribe({ toolsListChanged: true }, (n) => heard.push(n.method), {
      onInterrupted: (reason) => interrupted.push(reason),
    });
    const untold: string[] = [];
    await b.subscribe({ toolsListChanged: true }, (n) => untold.push(n.method));
    await a.publish(toolsChanged); // seq 1
    network.swallow.add(2);
    await a.publish(toolsChanged); // seq 2: lost on the way
    expect(interrupted).toEqual([]);
    await a.publish(toolsChanged); // seq 3 reveals the gap
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]?.message).toMatch(/1 notification\(s\) from instance [0-9a-f]+ never arrived/);
    expect(heard).toHaveLength(1);
    // A subscriber that cannot be told keeps receiving (it asked for no interruption).
    expect(untold).toHaveLength(2);
    expect(logger.lines.map((line) => line.message)).toContain(
      'notifications were lost on the bus; interrupting the subscriptions',
    );
    await a.close();
    await b.close();
  });

  it('rejects a publication the bus refuses; the next ones go out, and receivers see the gap', async () => {
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys });
    const b = busNotificationSource(network.bus(), { keys, warn: quiet });
    const interrupted = vi.fn();
    await b.subscribe({ toolsListChanged: true }, quiet, { onInterrupted: interrupted });
    await a.publish(toolsChanged);
    network.refuse = new Error('READONLY');
    await expect(a.publish(toolsChanged)).rejects.toThrow('READONLY');
    network.refuse = undefined;
    await a.publish(toolsChanged);
    expect(interrupted).toHaveBeenCalledTimes(1);
    await a.close();
    await b.close();
  });

  it('tells every subscriber when the bus drops, waits for it on subscribe, and delivers again once back', async () => {
    const network = fakeNetwork();
    const source = busNotificationSource(network.bus(), { keys, warn: quiet });
    const interrupted = vi.fn();
    await source.subscribe({ toolsListChanged: true }, quiet, { onInterrupted: interrupted });
    network.drop();
    expect(interrupted).toHaveBeenCalledTimes(1);
    expect(interrupted.mock.calls[0]?.[0]).toEqual(new Error('connection reset'));
    const heard: string[] = [];
    const pending = source.subscribe({ toolsListChanged: true }, (n) => heard.push(n.method));
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    network.restore();
    await pending;
    await source.publish(toolsChanged);
    expect(heard).toEqual(['notifications/tools/list_changed']);
    expect(interrupted).toHaveBeenCalledTimes(1);
    await source.close();
  });

  it('rejects subscribe when the bus stays down past connectTimeoutMs, or cannot be opened (and retries later)', async () => {
    const network = fakeNetwork();
    const source = busNotificationSource(network.bus(), { keys, connectTimeoutMs: 30, warn: quiet });
    await source.subscribe({}, quiet);
    network.drop();
    await expect(source.subscribe({}, quiet)).rejects.toThrow(
      'the notification bus did not answer within 30 ms',
    );
    await source.close();

    const down = fakeNetwork();
    down.unreachable = new Error('ECONNREFUSED');
    const other = busNotificationSource(down.bus(), { keys });
    const failure = await other.subscribe({}, quiet).catch((error: Error) => error);
    expect(failure).toEqual(new Error('the notification bus is unreachable'));
    expect((failure as Error).cause).toEqual(new Error('ECONNREFUSED'));
    down.unreachable = undefined;
    await expect(other.subscribe({}, quiet)).resolves.toBeTypeOf('function');
    await other.close();
  });

  it('ignores messages that are not its sealed envelopes, with one throttled warning for a flood', async () => {
    const network = fakeNetwork();
    const logger = recordingLogger();
    const source = busNotificationSource(network.bus(), { keys, warn: logger.warn });
    const heard = vi.fn();
    await source.subscribe({ toolsListChanged: true }, heard);
    const flood = [
      'hello',
      '[]',
      '{"boomerang":1,"origin":"x","seq":1,"notification":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}',
      sealedAs({ boomerang: 2, origin: 'x', seq: 1, notification: toolsChanged }),
      sealedAs({ boomerang: 1, origin: 'x', seq: 0, notification: toolsChanged }),
      sealedAs({ boomerang: 1, origin: 'x', seq: 1, notification: 'nope' }),
    ];
    for (let i = 0; i < 100; i++) for (const text of flood) network.deliver(text);
    expect(heard).not.toHaveBeenCalled();
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.message).toBe(
      'messages on the notification bus were refused (not sealed with these keys, or not believable)',
    );
    await source.close();
  });

  it('never delivers a forged envelope: plain JSON, another key, another audience, a tampered token', async () => {
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys, audience: 'orders' });
    const b = busNotificationSource(network.bus(), { keys, audience: 'orders', warn: quiet });
    const heard: unknown[] = [];
    await b.subscribe({ toolsListChanged: true, taskIds: ['t1'] }, (n) => heard.push(n));
    await a.publish(toolsChanged);
    expect(heard).toHaveLength(1);
    const origin = opened(network.sent[0] as string, keys, 'orders').origin;
    // What an attacker with write access to Redis or PostgreSQL can send: an instance's real origin and the next
    // seq, an invented task result, as plain JSON, or sealed under a key or an audience of their own.
    const invented = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        taskId: 't1',
        status: 'completed',
        result: { content: [{ type: 'text', text: 'invented' }] },
      },
    };
    const envelope = { boomerang: 1, origin, seq: 2, notification: invented };
    const genuine = network.sent[0] as string;
    const tampered = `${genuine.slice(0, -2)}${genuine.endsWith('A') ? 'B' : 'A'}${genuine.slice(-1)}`;
    for (const text of [
      JSON.stringify(envelope),
      sealedAs(envelope, [generateKey()], 'orders'),
      sealedAs(envelope, keys, 'billing'),
      sealedAs(envelope, keys),
      tampered,
    ]) {
      network.deliver(text);
    }
    expect(heard).toHaveLength(1);
    // The instance's real next message still arrives, with no gap reported.
    await a.publish(toolsChanged);
    expect(heard).toHaveLength(2);
    await a.close();
    await b.close();
  });

  it('rotates keys: [old] and [new, old] instances hear each other', async () => {
    const [older, newer] = [generateKey(), generateKey()];
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys: [older] });
    const b = busNotificationSource(network.bus(), { keys: [newer, older] });
    const heard = { a: vi.fn(), b: vi.fn() };
    await a.subscribe({ toolsListChanged: true }, heard.a);
    await b.subscribe({ toolsListChanged: true }, heard.b);
    await a.publish(toolsChanged);
    expect(heard.b).toHaveBeenCalledTimes(1);
    // b seals under newer, which a does not have yet: a refuses it (and says so), b hears its own.
    const c = busNotificationSource(network.bus(), { keys: [older, newer], warn: quiet });
    const heardC = vi.fn();
    await c.subscribe({ toolsListChanged: true }, heardC);
    await b.publish(toolsChanged);
    expect(heardC).toHaveBeenCalledTimes(1);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('a replayed message is dropped, also after the bus dropped and came back', async () => {
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys });
    const b = busNotificationSource(network.bus(), { keys, warn: quiet });
    const heard = vi.fn();
    await b.subscribe({ toolsListChanged: true }, heard);
    await a.publish(toolsChanged);
    await a.publish(toolsChanged);
    network.drop();
    network.restore();
    for (const text of [...network.sent]) network.deliver(text);
    expect(heard).toHaveBeenCalledTimes(2);
    await a.publish(toolsChanged);
    expect(heard).toHaveBeenCalledTimes(3);
    await a.close();
    await b.close();
  });

  it('one message with a huge seq cannot silence an instance; a jump shown three times in a row is believed', async () => {
    const network = fakeNetwork();
    const a = busNotificationSource(network.bus(), { keys });
    const b = busNotificationSource(network.bus(), { keys, warn: quiet });
    const heard: number[] = [];
    const interrupted = vi.fn();
    await b.subscribe({ toolsListChanged: true }, quiet, { onInterrupted: interrupted });
    await b.subscribe({ toolsListChanged: true }, () => heard.push(heard.length + 1));
    await a.publish(toolsChanged);
    const { origin } = opened(network.sent[0] as string);
    network.deliver(
      sealedAs({ boomerang: 1, origin, seq: Number.MAX_SAFE_INTEGER, notification: toolsChanged }),
    );
    await a.publish(toolsChanged);
    await a.publish(toolsChanged);
    expect(heard).toEqual([1, 2, 3]);
    expect(interrupted).not.toHaveBeenCalled();
    // Recovery rather than silence: an origin really that far ahead (three in a row) is followed from there.
    for (const seq of [5_000_000, 5_000_001, 5_000_002]) {
      network.deliver(sealedAs({ boomerang: 1, origin, seq, notification: toolsChanged }));
    }
    expect(heard).toHaveLength(4);
    expect(interrupted).toHaveBeenCalledTimes(1); // told of the gap before it
    await a.close();
    await b.close();
  });

  it('remembers a bounded number of origins, forgetting the one heard from longest ago', async () => {
    const network = fakeNetwork();
    const b = busNotificationSource(network.bus(), { keys, warn: quiet });
    const heard = vi.fn();
    await b.subscribe({ toolsListChanged: true }, heard);
    const first = sealedAs({ boomerang: 1, origin: 'origin-0', seq: 1, notification: toolsChanged });
    network.deliver(first);
    network.deliver(first);
    expect(heard).toHaveBeenCalledTimes(1);
    for (let i = 1; i <= MAX_ORIGINS; i++) {
      network.deliver(sealedAs({ boomerang: 1, origin: `origin-${i}`, seq: 1, notification: toolsChanged }));
    }
    expect(heard).toHaveBeenCalledTimes(MAX_ORIGINS + 1);
    // origin-0 fell out of the bounded memory: the cost of a message stays flat however many senders there are.
    network.deliver(first);
    expect(heard).toHaveBeenCalledTimes(MAX_ORIGINS + 2);
    await b.close();
  });

  it('survives a listener that throws', async () => {
    const network = fakeNetwork();
    const logger = recordingLogger();
    const source = busNotificationSource(network.bus(), { keys, warn: logger.warn });
    const after = vi.fn();
    await source.subscribe({ toolsListChanged: true }, () => {
      throw new Error('boom');
    });
    await source.subscribe({ toolsListChanged: true }, after);
    await source.publish(toolsChanged);
    expect(after).toHaveBeenCalledTimes(1);
    expect(logger.lines.map((line) => line.message)).toEqual(['a subscription listener threw']);
    await source.close();
  });

  it('close() interrupts the subscribers, closes the bus once, and refuses what comes after', async () => {
    const network = fakeNetwork();
    const source = busNotificationSource(network.bus(), { keys });
    const interrupted = vi.fn();
    await source.subscribe({}, quiet, { onInterrupted: interrupted });
    await source.close();
    await source.close();
    expect(interrupted).toHaveBeenCalledWith(new Error('the notification source was closed'));
    expect(network.closed).toBe(1);
    await expect(source.publish(toolsChanged)).rejects.toThrow('the notification source is closed');
    await expect(source.subscribe({}, quiet)).rejects.toThrow('the notification source is closed');
    // Never opened: nothing to close.
    const unused = busNotificationSource(network.bus(), { keys });
    await unused.close();
    expect(network.closed).toBe(1);
  });

  it('throws TypeError / RangeError for bad arguments', async () => {
    const network = fakeNetwork();
    expect(() => busNotificationSource(null as never, { keys })).toThrow(
      new TypeError('"bus" expected { send, open, close }, got null'),
    );
    expect(() => busNotificationSource({ send() {}, open() {} } as never, { keys })).toThrow(
      new TypeError('"bus.close" expected a function, got undefined'),
    );
    expect(() => busNotificationSource(network.bus(), {} as never)).toThrow(
      /"keys" expected the deployment's/,
    );
    expect(() => busNotificationSource(network.bus(), undefined as never)).toThrow(TypeError);
    expect(() => busNotificationSource(network.bus(), { keys: [new Uint8Array(8)] })).toThrow(RangeError);
    expect(() => busNotificationSource(network.bus(), { keys, connectTimeoutMs: 0 })).toThrow(
      new RangeError('"connectTimeoutMs" expected a positive integer, got 0'),
    );
    const source = busNotificationSource(network.bus(), { keys });
    await expect(source.subscribe({}, 'nope' as never)).rejects.toThrow(
      new TypeError('"listener" expected a function, got string'),
    );
    expect(() => source.publish({ method: 3 } as never)).toThrow(
      new TypeError('"notification" expected a JSON-RPC notification object, got object'),
    );
  });
});

describe('subscriptions/listen over a shared source', () => {
  it('ends the stream with -32603 (after what was already sent) when the bus drops, and serves a new one once back', async () => {
    const network = fakeNetwork();
    const logger = recordingLogger();
    const notifications = busNotificationSource(network.bus(), { keys, warn: logger.warn });
    const server = new Server(
      { name: 'shared', version: '1.0.0' },
      { notifications, onListTools: () => ({ tools: [] }), logger },
    );
    const sent: JSONRPCNotification[] = [];
    const response = server.handle(
      request('subscriptions/listen', { notifications: { toolsListChanged: true } }),
      {
        notify: (n) => {
          sent.push(n);
        },
      },
    );
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await server.notifyListChanged('tools');
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    network.drop();
    const error = errorOf(await response);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(
      'Notifications were interrupted (the server lost its notification bus), so some may be missing: re-read what you follow and listen again',
    );
    expect(sent.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
    ]);
    // While the bus is down, a new listen waits; once it is back the stream is acknowledged and fed.
    const again: JSONRPCNotification[] = [];
    const second = server.handle(
      request('subscriptions/listen', { notifications: { toolsListChanged: true } }),
      {
        notify: (n) => {
          again.push(n);
        },
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(again).toEqual([]);
    network.restore();
    await vi.waitFor(() => expect(again).toHaveLength(1));
    await server.notifyListChanged('tools');
    await vi.waitFor(() => expect(again).toHaveLength(2));
    await server.close();
    expect((await second)?.result).toBeDefined();
    await notifications.close();
  });
});
