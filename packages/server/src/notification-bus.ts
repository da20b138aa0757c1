// A shared NotificationSource over any message bus that carries text on one channel to every process (Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY, …). The bus adapters (@boomerang/redis, @boomerang/postgres) only move
// text; this file owns the rest once for all of them: the wire envelope, delivery once each and in order per
// publishing instance, loss detection, and telling subscribers when the bus dropped.
import { isPlainObject } from '@boomerang/protocol';
import {
  type NotificationSource,
  notificationMatches,
  type SubscribeOptions,
  type SubscriptionListener,
  type SubscriptionNotification,
  type Unsubscribe,
} from './notifications.js';
import type { LogFn } from './types.js';

/**
 * What a bus adapter does: carry text messages on one channel to every process that opened it, the sender
 * included, each process's messages in the order it sent them. It may lose messages (a connection dropped); it
 * must say so through `lost`.
 */
export interface NotificationBus {
  /** Sends one message; resolves once the bus took it, rejects when it cannot (the bus is down). */
  send(message: string): Promise<void>;
  /**
   * Starts receiving and resolves once every message sent from then on will arrive (rejects when the bus cannot
   * be reached; it may be called again later). The bus then calls `events.message` for each message, one at a
   * time in arrival order; `events.lost` as soon as its receiving connection dropped (messages sent meanwhile
   * may never arrive), while it reconnects on its own; and `events.restored` once it receives again.
   */
  open(events: NotificationBusEvents): Promise<void>;
  /** Stops receiving and closes the connections the bus opened itself (never the user's own client or pool). */
  close(): Promise<void>;
}

/** What a {@link NotificationBus} tells the source it carries. */
export interface NotificationBusEvents {
  /** One message as it was sent. */
  message(text: string): void;
  /** The receiving connection dropped: what was sent meanwhile may be lost. */
  lost(reason: Error): void;
  /** The bus receives again (after {@link lost}). */
  restored(): void;
}

/** A {@link NotificationSource} shared through a bus; `close()` stops it (subscribers are interrupted). */
export interface SharedNotificationSource extends NotificationSource {
  /** Resolves once the bus receives (so nothing published after it is missed); rejects when it cannot. */
  subscribe(
    filter: Parameters<NotificationSource['subscribe']>[0],
    listener: SubscriptionListener,
    options?: SubscribeOptions,
  ): Promise<Unsubscribe>;
  /** Sends `notification` to every instance; rejects when the bus refuses it. */
  publish(notification: SubscriptionNotification): Promise<void>;
  /** Interrupts every subscriber, waits for the notifications being sent, and closes the bus. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link busNotificationSource}. */
export interface BusNotificationOptions {
  /**
   * How long `subscribe` waits for the bus to receive (its first connection, or a reconnection after it was
   * lost) before it rejects, in milliseconds (default 10,000).
   */
  readonly connectTimeoutMs?: number | undefined;
  /** Where problems are reported: a lost bus, lost messages, a message that is not ours (default `console.warn`). */
  readonly warn?: LogFn | undefined;
}

/**
 * One message on the bus (JSON text):
 *
 * ```json
 * {"boomerang":1,"origin":"5f0c…","seq":42,"notification":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}
 * ```
 *
 * `origin` names the source object that published it (random per process start), `seq` counts its
 * publications from 1. A receiver drops a `seq` it has seen (once each), and a jump means a publication was
 * lost on the way (or failed to send): its subscribers are interrupted rather than left waiting.
 */
interface Envelope {
  readonly boomerang: 1;
  readonly origin: string;
  readonly seq: number;
  readonly notification: SubscriptionNotification;
}

/** Origins not heard from for this long are forgotten (a restarted instance has a new one). */
const ORIGIN_MEMORY_MS = 10 * 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

interface Subscriber {
  readonly filter: Parameters<NotificationSource['subscribe']>[0];
  readonly listener: SubscriptionListener;
  readonly onInterrupted: SubscribeOptions['onInterrupted'];
}

/**
 * The {@link NotificationSource} of one process over a shared `bus`: `publish` sends every notification on the
 * bus (in publication order: one send at a time), and every message received (this process's own included) is
 * delivered to the matching local subscribers. So a change published on any instance reaches the streams of every
 * instance, once each, in the order its instance published it.
 *
 * The bus is opened on the first `subscribe` (which resolves once it receives). When the bus drops, or a message
 * from some instance is found missing, every subscriber that gave `onInterrupted` is told and dropped (the server
 * ends its `subscriptions/listen` stream with an error, the client listens again); one without it stays and
 * receives again once the bus is back. A `subscribe` while the bus is down waits up to `connectTimeoutMs` for it,
 * then rejects. `publish` rejects when the bus refuses the message (the server logs it; listeners elsewhere see the
 * gap and are told).
 */
export function busNotificationSource(
  bus: NotificationBus,
  options: BusNotificationOptions = {},
): SharedNotificationSource {
  if (typeof bus !== 'object' || bus === null) throw new TypeError('"bus" expected { send, open, close }');
  for (const member of ['send', 'open', 'close'] as const) {
    if (typeof bus[member] !== 'function') {
      throw new TypeError(`"bus.${member}" expected a function, got ${typeof bus[member]}`);
    }
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (!Number.isSafeInteger(connectTimeoutMs) || connectTimeoutMs < 1) {
    throw new RangeError(`"connectTimeoutMs" expected a positive integer, got ${String(connectTimeoutMs)}`);
  }
  const warn: LogFn =
    options.warn ?? ((message, data) => console.warn(`[@boomerang/server] ${message}`, data));
  const origin = randomHex(12);
  const subscribers = new Set<Subscriber>();
  const heard = new Map<string, { seq: number; at: number }>();
  let seq = 0;
  let sending: Promise<unknown> = Promise.resolve();
  let state: 'idle' | 'opening' | 'live' | 'lost' | 'closed' = 'idle';
  let opening: Promise<void> | undefined;
  let waiters: { resolve(): void; reject(error: Error): void }[] = [];

  const interrupt = (reason: Error) => {
    for (const subscriber of [...subscribers]) {
      if (subscriber.onInterrupted === undefined) continue;
      subscribers.delete(subscriber);
      try {
        subscriber.onInterrupted(reason);
      } catch (error) {
        warn('an onInterrupted callback threw', { error });
      }
    }
  };

  const settleWaiters = (error?: Error) => {
    const woken = waiters;
    waiters = [];
    for (const waiter of woken) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  };

  const events: NotificationBusEvents = {
    message(text) {
      if (state === 'closed') return;
      const envelope = readEnvelope(text);
      if (envelope === undefined) {
        warn('a message on the notification bus is not a Boomerang notification; ignored', {
          message: text.slice(0, 200),
        });
        return;
      }
      const now = Date.now();
      const last = heard.get(envelope.origin);
      if (last !== undefined && envelope.seq <= last.seq) return; // seen already: once each
      if (last !== undefined && envelope.seq > last.seq + 1) {
        const missing = envelope.seq - last.seq - 1;
        const reason = new Error(
          `${missing} notification(s) from instance ${envelope.origin} never arrived (seq ${last.seq + 1}…${envelope.seq - 1})`,
        );
        warn('notifications were lost on the bus; interrupting the subscriptions', { reason });
        interrupt(reason);
      }
      heard.set(envelope.origin, { seq: envelope.seq, at: now });
      if (heard.size > 64) forgetQuiet(heard, now);
      for (const subscriber of [...subscribers]) {
        if (!subscribers.has(subscriber) || !notificationMatches(subscriber.filter, envelope.notification)) {
          continue;
        }
        try {
          subscriber.listener(envelope.notification);
        } catch (error) {
          warn('a subscription listener threw', { error });
        }
      }
    },
    lost(reason) {
      if (state !== 'live') return;
      state = 'lost';
      heard.clear(); // what comes after a reconnection starts a new count
      warn('the notification bus dropped; interrupting the subscriptions until it is back', { reason });
      interrupt(reason);
    },
    restored() {
      if (state !== 'lost') return;
      state = 'live';
      settleWaiters();
    },
  };

  const ready = (): Promise<void> => {
    if (state === 'live') return Promise.resolve();
    if (state === 'closed') return Promise.reject(new Error('the notification source is closed'));
    if (state === 'idle') {
      state = 'opening';
      opening = bus.open(events).then(
        () => {
          if (state !== 'opening') return;
          state = 'live';
          settleWaiters();
        },
        (error: unknown) => {
          if (state !== 'opening') return;
          state = 'idle';
          const failure = new Error('the notification bus is unreachable', { cause: error });
          settleWaiters(failure);
        },
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== waiter);
        reject(new Error(`the notification bus did not answer within ${connectTimeoutMs} ms`));
      }, connectTimeoutMs);
      waiters.push(waiter);
    });
  };

  return {
    publish(notification) {
      if (!isPlainObject(notification) || typeof notification.method !== 'string') {
        throw new TypeError('"notification" expected a JSON-RPC notification object');
      }
      if (state === 'closed') return Promise.reject(new Error('the notification source is closed'));
      seq += 1;
      const envelope: Envelope = { boomerang: 1, origin, seq, notification };
      const text = JSON.stringify(envelope);
      const sent = sending.then(() => bus.send(text));
      sending = sent.catch(() => {});
      return sent;
    },
    async subscribe(filter, listener, subscribeOptions = {}): Promise<Unsubscribe> {
      if (typeof listener !== 'function') {
        throw new TypeError(`"listener" expected a function, got ${typeof listener}`);
      }
      await ready();
      const subscriber: Subscriber = { filter, listener, onInterrupted: subscribeOptions.onInterrupted };
      subscribers.add(subscriber);
      return (): void => {
        subscribers.delete(subscriber);
      };
    },
    async close() {
      if (state === 'closed') return;
      const wasOpen = state !== 'idle';
      state = 'closed';
      settleWaiters(new Error('the notification source is closed'));
      interrupt(new Error('the notification source was closed'));
      subscribers.clear();
      await sending;
      await opening;
      if (wasOpen) await bus.close();
    },
  };
}

/** The envelope `text` carries, or `undefined` when it is not one (another program on the channel). */
function readEnvelope(text: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || value.boomerang !== 1) return undefined;
  const { origin, seq, notification } = value;
  if (typeof origin !== 'string' || !Number.isSafeInteger(seq) || (seq as number) < 1) return undefined;
  if (!isPlainObject(notification) || typeof notification.method !== 'string') return undefined;
  return value as unknown as Envelope;
}

/** Drops the origins not heard from for {@link ORIGIN_MEMORY_MS}. */
function forgetQuiet(heard: Map<string, { at: number }>, now: number): void {
  for (const [origin, last] of heard) if (now - last.at > ORIGIN_MEMORY_MS) heard.delete(origin);
}

function randomHex(bytes: number): string {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
