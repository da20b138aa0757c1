// One message on a notification bus: the sealed envelope every instance writes (its wire format below), and what
// a receiver remembers of each publishing instance so that it delivers that instance's notifications once each and
// in order, and sees when some went missing. notification-bus.ts moves the envelopes; this file knows no subscriber.
import { isPlainObject } from '@boomerang/protocol';
import { createSealer, SealError } from '@boomerang/seal';
import type { SubscriptionNotification } from './notifications.js';

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
export interface Envelope {
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

/**
 * Origins not heard from for this long are forgotten (a restarted instance has a new one). Longer than
 * {@link MESSAGE_TTL_SECONDS}, so a forgotten origin's old messages no longer open.
 */
const ORIGIN_MEMORY_MS = 10 * 60_000;

/** Why a message was not delivered (for the throttled warning). */
export type Refusal = string;

/** Seals the envelopes one instance publishes and opens the messages it receives. */
export interface EnvelopeSealer {
  /** The bus message that carries `envelope`. */
  seal(envelope: Envelope): string;
  /** The envelope `text` carries, or why it was refused. */
  open(text: string): Envelope | Refusal;
}

/**
 * The {@link EnvelopeSealer} of the deployment's `keys` (sealing under the first, opening with any), bound to
 * `audience` when there is one. Throws what `createSealer` throws for unusable keys.
 */
export function envelopeSealer(keys: readonly Uint8Array[], audience: string | undefined): EnvelopeSealer {
  const sealer = createSealer({
    keys,
    ttlSeconds: MESSAGE_TTL_SECONDS,
    maxTokenBytes: MAX_MESSAGE_CHARS,
    ...(audience !== undefined && { audience }),
  });
  const context = sealer.prepareContext(BUS_CONTEXT);
  return {
    seal: (envelope) => sealer.sealJson(envelope, { context }),
    open(text) {
      let value: unknown;
      try {
        value = sealer.unsealJson(text, { context });
      } catch (error) {
        return error instanceof SealError ? `sealed wrongly (${error.reason})` : 'not a notification';
      }
      return readEnvelope(value) ?? 'not a notification';
    },
  };
}

/** The envelope an opened message holds, or `undefined` when it holds something else. */
function readEnvelope(value: unknown): Envelope | undefined {
  if (!isPlainObject(value) || value.boomerang !== 1) return undefined;
  const { origin, seq, notification } = value;
  if (typeof origin !== 'string' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    return undefined;
  }
  if (!isPlainObject(notification) || typeof notification.method !== 'string') return undefined;
  return value as unknown as Envelope;
}

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

/**
 * The origins one receiver heard from, in order of last hearing, at most {@link MAX_ORIGINS} and none older than
 * `ORIGIN_MEMORY_MS`: which of their envelopes are delivered, and which show that others never arrived.
 */
export class HeardOrigins {
  readonly #heard = new Map<string, Heard>();
  readonly #refuse: (reason: Refusal) => void;

  /** `refuse` counts an envelope refused for an unbelievable `seq` (a replay is dropped silently). */
  constructor(refuse: (reason: Refusal) => void) {
    this.#refuse = refuse;
  }

  /**
   * Takes `envelope`, received at `now` (epoch ms): `undefined` when it is not to be delivered, else how many
   * publications of its origin before it never arrived (0 for none, and for the first envelope after the bus
   * dropped: the subscribers were told already). A delivered envelope becomes its origin's latest.
   */
  admit(envelope: Envelope, now: number): number | undefined {
    const last = this.#heard.get(envelope.origin);
    if (last !== undefined && !this.#accepts(envelope, last)) return undefined;
    const missing = last === undefined || last.resync ? 0 : envelope.seq - last.seq - 1;
    this.#remember(envelope, now);
    return missing;
  }

  /**
   * The bus dropped: what comes after the reconnection is not checked for gaps (every subscriber is told now), but
   * what was delivered before stays remembered, so a message replayed meanwhile is still dropped.
   */
  resync(): void {
    for (const entry of this.#heard.values()) entry.resync = true;
  }

  /**
   * Whether an envelope from an origin heard before is delivered: only a `seq` above the last one (once each, so a
   * replay is dropped), by at most {@link MAX_SEQ_JUMP} unless the bus dropped since. A bigger jump is believed
   * only after {@link JUMP_EVIDENCE} such messages in a row: one message can never put an origin out of reach.
   */
  #accepts(envelope: Envelope, last: Heard): boolean {
    if (envelope.seq <= last.seq) return false;
    if (envelope.seq - last.seq > MAX_SEQ_JUMP && !last.resync) {
      last.ahead += 1;
      if (last.ahead < JUMP_EVIDENCE) {
        this.#refuse(`seq jumped by more than ${MAX_SEQ_JUMP}`);
        return false;
      }
    }
    return true;
  }

  /** Records `envelope` as its origin's latest; the map stays in order of last hearing, bounded and aged. */
  #remember(envelope: Envelope, now: number): void {
    const heard = this.#heard;
    heard.delete(envelope.origin);
    heard.set(envelope.origin, { seq: envelope.seq, at: now, resync: false, ahead: 0 });
    for (const [key, entry] of heard) {
      if (heard.size <= MAX_ORIGINS && now - entry.at <= ORIGIN_MEMORY_MS) break;
      heard.delete(key);
    }
  }
}
