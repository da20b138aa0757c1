// A shared NotificationSource over any message bus that carries text on one channel to every process (Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY, …). The bus adapters (@boomerang/redis, @boomerang/postgres) only move
// text; this file owns the rest once for all of them: the sealed wire envelope, delivery once each and in order
// per publishing instance, loss detection, and telling subscribers when the bus dropped.
import { argumentError, isPlainObject } from '@boomerang/protocol';
import { createSealer, SealError } from '@boomerang/seal';
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

/**
 * One message on the bus: a `@boomerang/seal` token (canonical base64url, XChaCha20-Poly1305 under the shared
 * `keys`, audience bound, sealed for the context `boomerang/notification-bus/v1`, valid {@link MESSAGE_TTL_SECONDS})
 * whose payload is the JSON envelope
 *
 * ```json
 * {"boomerang":1,"origin":"5f0c…","seq":42,"notification":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}
 * ```
 *
 * `origin` names the source object that published it (random per process start), `seq` counts its
 * publications from 1. A receiver drops a `seq` it has seen (once each, so a replayed message is never delivered
 * twice while its seal is valid), and a jump means a publication was lost on the way (or failed to send): its
 * subscribers are interrupted rather than left waiting. A jump of more than {@link MAX_SEQ_JUMP} is believed only
 * when {@link JUMP_EVIDENCE} messages in a row show it.
 */
interface Envelope {
  readonly boomerang: 1;
  readonly origin: string;
  readonly seq: number;
  readonly notification: SubscriptionNotification;
}

/** The seal context of every bus message: no other token sealed under the same keys opens as one. */
const BUS_CONTEXT = 'boomerang/notification-bus/v1';
/** How long a sealed message opens, in seconds: far longer than any bus takes, bounding what a replay can reach. */
export const MESSAGE_TTL_SECONDS = 300;
/** The longest message sealed or opened, in characters. */
const MAX_MESSAGE_CHARS = 16 * 1024 * 1024;
/** The largest forward jump of one origin's `seq` that is believed: beyond it the message is refused. */
export const MAX_SEQ_JUMP = 1_000_000;
/** Messages in a row from one origin, each beyond {@link MAX_SEQ_JUMP}, that show it really is that far ahead. */
export const JUMP_EVIDENCE = 3;
/** Origins remembered at most; the one heard from longest ago is forgotten first. */
export const MAX_ORIGINS = 4_096;
/** At most one warning about refused messages per this many ms (their count is in it). */
const REFUSAL_WARN_MS = 10_000;

/**
 * Origins not heard from for this long are forgotten (a restarted instance has a new one). Longer than
 * {@link MESSAGE_TTL_SECONDS}, so a forgotten origin's old messages no longer open.
 */
const ORIGIN_MEMORY_MS = 10 * 60_000;

/** What a receiver remembers of one origin. */
interface Heard {
  /** The highest `seq` delivered. */
  seq: number;
  /** When it was last heard from (epoch ms). */
  at: number;
  /** The bus dropped since: the next message is not checked for a gap (the subscribers were told already). */
  resync: boolean;
  /** Messages in a row refused for jumping beyond {@link MAX_SEQ_JUMP}. */
  ahead: number;
}
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
  options: BusNotificationOptions,
): SharedNotificationSource {
  if (typeof bus !== 'object' || bus === null) throw new TypeError('"bus" expected { send, open, close }');
  for (const member of ['send', 'open', 'close'] as const) {
    if (typeof bus[member] !== 'function') {
      throw new TypeError(`"bus.${member}" expected a function, got ${typeof bus[member]}`);
    }
  }
  if (!Array.isArray(options?.keys) || options.keys.length === 0) {
    throw new TypeError(
      '"keys" expected the deployment\'s shared operator secrets (Uint8Array[], e.g. parseKeys(process.env.SEAL_KEYS)): bus messages are sealed so that only the instances can send them',
    );
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (!Number.isSafeInteger(connectTimeoutMs) || connectTimeoutMs < 1) {
    throw new RangeError(`"connectTimeoutMs" expected a positive integer, got ${String(connectTimeoutMs)}`);
  }
  const warn: LogFn =
    options.warn ?? ((message, data) => console.warn(`[@boomerang/server] ${message}`, data));
  if (options.audience !== undefined && typeof options.audience !== 'string') {
    throw argumentError('audience', 'a string', options.audience);
  }
  const sealer = createSealer({
    keys: options.keys,
    ttlSeconds: MESSAGE_TTL_SECONDS,
    maxTokenBytes: MAX_MESSAGE_CHARS,
    ...(options.audience !== undefined && { audience: options.audience }),
  });
  const context = sealer.prepareContext(BUS_CONTEXT);
  const refusals = refusalCounter(warn);
  const origin = randomHex(12);
  const subscribers = new Set<Subscriber>();
  const heard = new Map<string, Heard>();
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

  /** The envelope `text` carries, or why it was refused. */
  const openEnvelope = (text: string): Envelope | Refusal => {
    let value: unknown;
    try {
      value = sealer.unsealJson(text, { context });
    } catch (error) {
      return error instanceof SealError ? `sealed wrongly (${error.reason})` : 'not a notification';
    }
    return readEnvelope(value) ?? 'not a notification';
  };

  /**
   * Whether an envelope from an origin heard before is delivered: only a `seq` above the last one (once each, so a
   * replay is dropped), by at most {@link MAX_SEQ_JUMP} unless the bus dropped since. A bigger jump is believed
   * only after {@link JUMP_EVIDENCE} such messages in a row: one message can never put an origin out of reach.
   */
  const accept = (envelope: Envelope, last: Heard): boolean => {
    if (envelope.seq <= last.seq) return false;
    if (envelope.seq - last.seq > MAX_SEQ_JUMP && !last.resync) {
      last.ahead += 1;
      if (last.ahead < JUMP_EVIDENCE) {
        refusals.count(`seq jumped by more than ${MAX_SEQ_JUMP}`);
        return false;
      }
    }
    return true;
  };

  /** Records `envelope` as its origin's latest; the map stays in order of last hearing, bounded and aged. */
  const remember = (envelope: Envelope, now: number) => {
    heard.delete(envelope.origin);
    heard.set(envelope.origin, { seq: envelope.seq, at: now, resync: false, ahead: 0 });
    for (const [key, entry] of heard) {
      if (heard.size <= MAX_ORIGINS && now - entry.at <= ORIGIN_MEMORY_MS) break;
      heard.delete(key);
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
      const envelope = openEnvelope(text);
      if (typeof envelope === 'string') {
        refusals.count(envelope);
        return;
      }
      const now = Date.now();
      const last = heard.get(envelope.origin);
      if (last !== undefined && !accept(envelope, last)) return;
      if (last !== undefined && !last.resync && envelope.seq > last.seq + 1) {
        const missing = envelope.seq - last.seq - 1;
        const reason = new Error(
          `${missing} notification(s) from instance ${envelope.origin} never arrived (seq ${last.seq + 1}…${envelope.seq - 1})`,
        );
        warn('notifications were lost on the bus; interrupting the subscriptions', { reason });
        interrupt(reason);
      }
      remember(envelope, now);
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
      // What comes after the reconnection is not checked for gaps (every subscriber is told now), but what was
      // delivered before stays remembered, so a message replayed meanwhile is still dropped.
      for (const entry of heard.values()) entry.resync = true;
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
      const text = sealer.sealJson(envelope, { context });
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

/** Why a message was not delivered (for the throttled warning). */
type Refusal = string;

/** The envelope an opened message holds, or `undefined` when it holds something else. */
function readEnvelope(value: unknown): Envelope | undefined {
  if (!isPlainObject(value) || value.boomerang !== 1) return undefined;
  const { origin, seq, notification } = value;
  if (typeof origin !== 'string' || !Number.isSafeInteger(seq) || (seq as number) < 1) return undefined;
  if (!isPlainObject(notification) || typeof notification.method !== 'string') return undefined;
  return value as unknown as Envelope;
}

/**
 * Counts refused messages and warns at most once per {@link REFUSAL_WARN_MS} with how many and why, so a flood of
 * forged messages costs a counter, not a log line each.
 */
function refusalCounter(warn: LogFn) {
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
