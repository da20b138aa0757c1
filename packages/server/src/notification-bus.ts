// A shared NotificationSource over any message bus that carries text on one channel to every process (Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY, …). The bus adapters (@boomerang/redis, @boomerang/postgres) only move
// text; this file and bus-envelopes.ts own the rest once for all of them: the sealed wire envelope, delivery once
// each and in order per publishing instance, and loss detection (bus-envelopes.ts); the local subscribers, the link
// to the bus, and telling subscribers when it dropped (here).
import { argumentError, isPlainObject } from '@boomerang/protocol';
import { consoleLogger } from '@boomerang/protocol/internal';
import {
  type Envelope,
  type EnvelopeSealer,
  envelopeSealer,
  HeardOrigins,
  type Refusal,
} from './bus-envelopes.js';
import {
  type NotificationSource,
  notificationMatches,
  type SubscribeOptions,
  type SubscriptionListener,
  type SubscriptionNotification,
  type Unsubscribe,
} from './notifications.js';
import type { LogFn } from './types.js';

export { JUMP_EVIDENCE, MAX_ORIGINS, MAX_SEQ_JUMP, MESSAGE_TTL_SECONDS } from './bus-envelopes.js';

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
   * Operator secrets of at least 32 bytes, newest first, the same on every instance of the deployment (`parseKeys`
   * and `generateKey` of `@boomerang/seal`): every message is sealed under the first and opened with any of them,
   * so rotation is `[old, new]` → `[new, old]` → `[new]`. Whoever can write to the bus but lacks the keys cannot
   * make an instance deliver anything, nor read what the instances send. The keys of `requestStateSecurity` may be
   * reused: bus messages are sealed for another context, so neither kind of token opens as the other.
   */
  readonly keys: readonly Uint8Array[];
  /**
   * What the messages are bound to besides the keys (the adapters pass their channel): a message sealed for
   * another audience is refused, so two deployments that share keys but not a channel stay apart.
   */
  readonly audience?: string | undefined;
  /**
   * How long `subscribe` waits for the bus to receive (its first connection, or a reconnection after it was
   * lost) before it rejects, in milliseconds (default 10,000).
   */
  readonly connectTimeoutMs?: number | undefined;
  /** Where problems are reported: a lost bus, lost messages, a message that is not ours (default `console.warn`). */
  readonly warn?: LogFn | undefined;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** At most one warning about refused messages per this many ms (their count is in it). */
const REFUSAL_WARN_MS = 10_000;

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
  options: BusNotificationOptions,
): SharedNotificationSource {
  checkBus(bus);
  const { connectTimeoutMs, warn } = checkOptions(options);
  const source = new BusSource(bus, envelopeSealer(options.keys, options.audience), connectTimeoutMs, warn);
  return {
    publish: (notification) => source.publish(notification),
    subscribe: (filter, listener, subscribeOptions = {}) =>
      source.subscribe(filter, listener, subscribeOptions),
    close: () => source.close(),
  };
}

/** Throws `TypeError` unless `bus` has the three members of a {@link NotificationBus}. */
function checkBus(bus: NotificationBus): void {
  if (typeof bus !== 'object' || bus === null) throw argumentError('bus', '{ send, open, close }', bus);
  for (const member of ['send', 'open', 'close'] as const) {
    if (typeof bus[member] !== 'function') {
      throw argumentError(`bus.${member}`, 'a function', bus[member]);
    }
  }
}

/** Checks `options` (but the keys themselves: `createSealer` does); the timeout and the warning sink in force. */
function checkOptions(options: BusNotificationOptions): { connectTimeoutMs: number; warn: LogFn } {
  if (!Array.isArray(options?.keys) || options.keys.length === 0) {
    throw argumentError(
      'keys',
      "the deployment's shared operator secrets (Uint8Array[], e.g. parseKeys(process.env.SEAL_KEYS)): bus messages are sealed so that only the instances can send them",
      options?.keys,
    );
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (!Number.isSafeInteger(connectTimeoutMs) || connectTimeoutMs < 1) {
    throw new RangeError(`"connectTimeoutMs" expected a positive integer, got ${String(connectTimeoutMs)}`);
  }
  const warn: LogFn = options.warn ?? consoleLogger.warn;
  if (options.audience !== undefined && typeof options.audience !== 'string') {
    throw argumentError('audience', 'a string', options.audience);
  }
  return { connectTimeoutMs, warn };
}

/** One local subscription. */
interface Subscriber {
  readonly filter: Parameters<NotificationSource['subscribe']>[0];
  readonly listener: SubscriptionListener;
  readonly onInterrupted: SubscribeOptions['onInterrupted'];
}

/** One waiting `subscribe`: woken when the bus receives, or rejected when it cannot. */
interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Where the source's link to the bus stands: not opened yet (or the last opening failed), opening, receiving,
 * dropped (the bus reconnects on its own), or closed for good.
 */
type LinkState = 'idle' | 'opening' | 'live' | 'lost' | 'closed';

/** The state of one {@link busNotificationSource} and the steps over it. */
class BusSource {
  readonly #bus: NotificationBus;
  readonly #envelopes: EnvelopeSealer;
  readonly #connectTimeoutMs: number;
  readonly #warn: LogFn;
  readonly #refusals: RefusalCounter;
  readonly #origins: HeardOrigins;
  /** This source's name in the envelopes it publishes. */
  readonly #origin = randomHex(12);
  readonly #subscribers = new Set<Subscriber>();
  /** The `seq` of the last envelope published. */
  #seq = 0;
  /** The last send: each waits for the one before, so the bus gets them in publication order. */
  #sending: Promise<unknown> = Promise.resolve();
  #state: LinkState = 'idle';
  #opening: Promise<void> | undefined;
  #waiters: Waiter[] = [];
  /** What the bus calls (a plain object: an adapter may hold on to its functions). */
  readonly #events: NotificationBusEvents = {
    message: (text) => this.#receive(text),
    lost: (reason) => this.#lost(reason),
    restored: () => this.#restored(),
  };

  constructor(bus: NotificationBus, envelopes: EnvelopeSealer, connectTimeoutMs: number, warn: LogFn) {
    this.#bus = bus;
    this.#envelopes = envelopes;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#warn = warn;
    this.#refusals = refusalCounter(warn);
    this.#origins = new HeardOrigins(this.#refusals.count);
  }

  publish(notification: SubscriptionNotification): Promise<void> {
    if (!isPlainObject(notification) || typeof notification.method !== 'string') {
      throw argumentError('notification', 'a JSON-RPC notification object', notification);
    }
    if (this.#state === 'closed') return Promise.reject(new Error('the notification source is closed'));
    this.#seq += 1;
    const envelope: Envelope = { boomerang: 1, origin: this.#origin, seq: this.#seq, notification };
    const text = this.#envelopes.seal(envelope);
    const sent = this.#sending.then(() => this.#bus.send(text));
    this.#sending = sent.catch(() => {});
    return sent;
  }

  async subscribe(
    filter: Subscriber['filter'],
    listener: SubscriptionListener,
    options: SubscribeOptions,
  ): Promise<Unsubscribe> {
    if (typeof listener !== 'function') {
      throw argumentError('listener', 'a function', listener);
    }
    await this.#ready();
    const subscriber: Subscriber = { filter, listener, onInterrupted: options.onInterrupted };
    this.#subscribers.add(subscriber);
    return (): void => {
      this.#subscribers.delete(subscriber);
    };
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state !== 'idle';
    this.#state = 'closed';
    this.#settleWaiters(new Error('the notification source is closed'));
    interrupt(this.#subscribers, new Error('the notification source was closed'), this.#warn);
    this.#subscribers.clear();
    await this.#sending;
    await this.#opening;
    if (wasOpen) await this.#bus.close();
  }

  /** One message from the bus: delivered to the matching subscribers once its envelope opens and is admitted. */
  #receive(text: string): void {
    if (this.#state === 'closed') return;
    const envelope = this.#envelopes.open(text);
    if (typeof envelope === 'string') {
      this.#refusals.count(envelope);
      return;
    }
    const missing = this.#origins.admit(envelope, Date.now());
    if (missing === undefined) return;
    if (missing > 0) {
      const reason = new Error(
        `${missing} notification(s) from instance ${envelope.origin} never arrived (seq ${envelope.seq - missing}…${envelope.seq - 1})`,
      );
      this.#warn('notifications were lost on the bus; interrupting the subscriptions', { reason });
      interrupt(this.#subscribers, reason, this.#warn);
    }
    deliver(this.#subscribers, envelope.notification, this.#warn);
  }

  #lost(reason: Error): void {
    if (this.#state !== 'live') return;
    this.#state = 'lost';
    this.#origins.resync();
    this.#warn('the notification bus dropped; interrupting the subscriptions until it is back', { reason });
    interrupt(this.#subscribers, reason, this.#warn);
  }

  #restored(): void {
    if (this.#state !== 'lost') return;
    this.#state = 'live';
    this.#settleWaiters();
  }

  /** Resolves once the bus receives (opening it on first use), within the connect timeout. */
  #ready(): Promise<void> {
    if (this.#state === 'live') return Promise.resolve();
    if (this.#state === 'closed') return Promise.reject(new Error('the notification source is closed'));
    if (this.#state === 'idle') this.#open();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`the notification bus did not answer within ${this.#connectTimeoutMs} ms`));
      }, this.#connectTimeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Opens the bus; the waiters learn how it went (unless the source was closed meanwhile). */
  #open(): void {
    this.#state = 'opening';
    this.#opening = this.#bus.open(this.#events).then(
      () => {
        if (this.#state !== 'opening') return;
        this.#state = 'live';
        this.#settleWaiters();
      },
      (error: unknown) => {
        if (this.#state !== 'opening') return;
        this.#state = 'idle';
        this.#settleWaiters(new Error('the notification bus is unreachable', { cause: error }));
      },
    );
  }

  /** Wakes every waiting `subscribe`: resolved, or rejected with `error`. */
  #settleWaiters(error?: Error): void {
    const woken = this.#waiters;
    this.#waiters = [];
    for (const waiter of woken) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }
}

/** Hands `notification` to every subscriber whose filter it matches (one that threw is logged, not dropped). */
function deliver(subscribers: Set<Subscriber>, notification: SubscriptionNotification, warn: LogFn): void {
  for (const subscriber of [...subscribers]) {
    if (!subscribers.has(subscriber) || !notificationMatches(subscriber.filter, notification)) continue;
    try {
      subscriber.listener(notification);
    } catch (error) {
      warn('a subscription listener threw', { error });
    }
  }
}

/** Tells every subscriber that gave `onInterrupted` of `reason`, and drops it; the others stay. */
function interrupt(subscribers: Set<Subscriber>, reason: Error, warn: LogFn): void {
  for (const subscriber of [...subscribers]) {
    if (subscriber.onInterrupted === undefined) continue;
    subscribers.delete(subscriber);
    try {
      subscriber.onInterrupted(reason);
    } catch (error) {
      warn('an onInterrupted callback threw', { error });
    }
  }
}

/** Counts refused messages (see {@link refusalCounter}). */
interface RefusalCounter {
  count(reason: Refusal): void;
}

/**
 * Counts refused messages and warns at most once per {@link REFUSAL_WARN_MS} with how many and why, so a flood of
 * forged messages costs a counter, not a log line each.
 */
function refusalCounter(warn: LogFn): RefusalCounter {
  let refused = 0;
  let reasons = new Map<Refusal, number>();
  let lastWarning = Number.NEGATIVE_INFINITY;
  return {
    count(reason: Refusal) {
      refused += 1;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      const now = Date.now();
      if (now - lastWarning < REFUSAL_WARN_MS) return;
      lastWarning = now;
      warn('messages on the notification bus were refused (not sealed with these keys, or not believable)', {
        refused,
        reasons: Object.fromEntries(reasons),
      });
      refused = 0;
      reasons = new Map();
    },
  };
}

function randomHex(bytes: number): string {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
