// The DPoP replay cache: its interface (one `remember` a shared store can implement atomically) and the in-process
// one, which never forgets a proof that could still be accepted.
import { argumentError } from '@boomerang/protocol';

/**
 * What {@link DpopReplayCache.remember} answers: `true`, a proof never seen (now recorded); `false`, one recorded
 * already (a replay); `'window'`, one this cache can no longer vouch for (see {@link DpopReplayCache}).
 */
export type DpopReplayVerdict = boolean | 'window';

/**
 * Remembers the proofs a server has accepted, so that none is accepted twice (RFC 9449 §11.1). Every instance of a
 * server that runs several must share one (`redisReplayCache` of `@boomerang/redis`, or a SQL unique key with an
 * expiry), and the check must be atomic: two instances racing on one proof accept it once.
 *
 * The contract that makes replays impossible: a key recorded with `true` is answered `false` until `expiresAt`,
 * never forgotten earlier. A cache that cannot keep that promise for a key (full, or not sure what it dropped) answers
 * `'window'` instead, and the verifier refuses the proof as too old for this server now: a proof signed now passes.
 */
export interface DpopReplayCache {
  /** Records `key` until `expiresAt` (epoch seconds); see {@link DpopReplayVerdict}. */
  remember(key: string, expiresAt: number): DpopReplayVerdict | Promise<DpopReplayVerdict>;
}

/** Options of {@link memoryReplayCache}. */
export interface MemoryReplayCacheOptions {
  /**
   * Proofs remembered at most (about 150 bytes each, key included: a thumbprint and a 36-character `jti`); past it
   * the acceptance window shrinks (see {@link memoryReplayCache}). Default 100 000 (about 15 MB when full): 1 400
   * accepted proofs a second before the default 70-second window (60 s of age, 5 s of skew either side) shrinks.
   */
  readonly max?: number | undefined;
  /**
   * Proofs remembered at most per owner: the part of the key before its first `:` (the verifier's keys are
   * `<jkt>:<jti>`, so the owner is the proof's key). Past it, that owner's new proofs are answered `'window'` until
   * some of its own expire; other owners are untouched, so one token holder flooding the cache cannot shrink the
   * window for everyone. Default 10,000 (or `max`, if smaller): about 140 proofs a second per key, sustained, in
   * the default window.
   */
  readonly maxPerOwner?: number | undefined;
  /** The time in epoch milliseconds. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link DpopReplayCache} for one process that never forgets a proof that could still be accepted, in bounded
 * memory, at O(1) amortized cost per check:
 * - an expired entry is dropped (its proof is refused on `iat` anyway); entries are filed by the second they
 *   expire in, so dropping them walks the seconds that passed, once;
 * - when `max` unexpired entries are held, the oldest second of them is dropped and the **acceptance window
 *   shrinks** past it: every key expiring in that second or earlier is answered `'window'` from then on, the dropped
 *   ones included. A flood of valid proofs thus shortens how old a proof may be (fresh proofs still pass), and never
 *   reopens a replay;
 * - the same floor guards against the clock: a clock set back cannot bring back a proof dropped as expired (it
 *   expires no later than the floor), and costs nothing else (fresh proofs still pass);
 * - one owner (a DPoP key) holds at most `maxPerOwner` entries; beyond them its own new proofs get `'window'`, so
 *   filling the cache takes `max / maxPerOwner` keys with valid tokens, not one.
 *
 * It lives and dies with the process: a proof accepted within one window before a restart could be accepted once
 * more after it. Several instances of a server, or that window, need a shared cache (`redisReplayCache` of
 * `@boomerang/redis`). Throws `TypeError` for a `max` that is not a number or a `now` that is not a function,
 * `RangeError` for a `max` that is not an integer ≥ 1.
 */
export function memoryReplayCache(options: MemoryReplayCacheOptions = {}): DpopReplayCache {
  const max = options.max ?? 100_000;
  if (typeof max !== 'number') throw argumentError('max', 'an integer ≥ 1', max);
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`"max" expected an integer ≥ 1, got ${String(max)}`);
  }
  const maxPerOwner = options.maxPerOwner ?? Math.min(10_000, max);
  if (typeof maxPerOwner !== 'number') throw argumentError('maxPerOwner', 'an integer ≥ 1', maxPerOwner);
  if (!Number.isSafeInteger(maxPerOwner) || maxPerOwner < 1) {
    throw new RangeError(`"maxPerOwner" expected an integer ≥ 1, got ${String(maxPerOwner)}`);
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw argumentError('now', 'a function', now);
  const window = new ExpiryWindow(max, maxPerOwner);
  return {
    remember: (key, expiresAt) => {
      if (typeof key !== 'string') throw argumentError('key', 'a string', key);
      if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) {
        throw argumentError('expiresAt', 'a finite number of epoch seconds', expiresAt);
      }
      return window.remember(key, Math.ceil(expiresAt), Math.floor(now() / 1000));
    },
  };
}

/**
 * The entries of {@link memoryReplayCache}: the keys held, each filed in the bucket of the second it expires in.
 * Every bucket lies above `swept` (the clock when last swept) and above `floor` (the latest second any dropped entry
 * expired in), so no key that was ever accepted and then dropped can be accepted again: it expires at or before
 * `floor`, which is refused.
 */
class ExpiryWindow {
  readonly #max: number;
  readonly #maxPerOwner: number;
  /** Entries held per owner (the key up to its first `:`); owners with none are not kept. */
  readonly #owners = new Map<string, number>();
  readonly #entries = new Set<string>();
  readonly #buckets = new Map<number, string[]>();
  #swept = Number.NEGATIVE_INFINITY;
  #floor = Number.NEGATIVE_INFINITY;

  constructor(max: number, maxPerOwner: number) {
    this.#max = max;
    this.#maxPerOwner = maxPerOwner;
  }

  remember(key: string, second: number, current: number): DpopReplayVerdict {
    this.#sweep(current);
    if (this.#entries.has(key)) return false;
    // Expired already, or no later than an entry dropped: whether it was seen can no longer be told.
    if (second <= current || second <= this.#floor) return 'window';
    const owner = ownerOf(key);
    const held = this.#owners.get(owner) ?? 0;
    // This owner's share is full: its own proofs wait for its own to expire; nobody else's window moves.
    if (held >= this.#maxPerOwner) return 'window';
    while (this.#entries.size >= this.#max) {
      const oldest = this.#oldest();
      // Making room for a key no younger than the oldest one held would only forget that one instead.
      if (second <= oldest) return 'window';
      this.#drop(oldest);
    }
    this.#entries.add(key);
    this.#owners.set(owner, held + 1);
    const bucket = this.#buckets.get(second);
    if (bucket === undefined) this.#buckets.set(second, [key]);
    else bucket.push(key);
    return true;
  }

  /**
   * Drops the entries expiring at `current` or earlier. Walking the seconds since the last sweep costs what time
   * moved on (once per second); past as many seconds as there are buckets, a scan of the buckets is cheaper. A clock
   * set back only lowers `swept`: no bucket lies between the two times, every entry it held is still filed.
   */
  #sweep(current: number): void {
    const from = Math.max(this.#swept, this.#floor);
    const buckets = this.#buckets;
    if (current > from && buckets.size > 0) {
      if (from !== Number.NEGATIVE_INFINITY && current - from <= buckets.size) {
        for (let second = from + 1; second <= current; second++) this.#drop(second);
      } else {
        for (const second of buckets.keys()) if (second <= current) this.#drop(second);
      }
    }
    this.#swept = current;
  }

  /** The earliest second holding entries (there are some: the cache is full when this is asked). */
  #oldest(): number {
    const buckets = this.#buckets;
    const from = Math.max(this.#swept, this.#floor);
    for (let second = from + 1, steps = 0; steps <= buckets.size; second++, steps++) {
      if (buckets.has(second)) return second;
    }
    let oldest = Number.POSITIVE_INFINITY;
    for (const second of buckets.keys()) if (second < oldest) oldest = second;
    return oldest;
  }

  /** Drops the entries expiring in `second`, raising the floor to it when there were some. */
  #drop(second: number): void {
    const keys = this.#buckets.get(second);
    if (keys === undefined) return;
    this.#buckets.delete(second);
    for (const key of keys) {
      this.#entries.delete(key);
      const owner = ownerOf(key);
      const held = this.#owners.get(owner) ?? 1;
      if (held <= 1) this.#owners.delete(owner);
      else this.#owners.set(owner, held - 1);
    }
    if (second > this.#floor) this.#floor = second;
  }
}

/** The owner of a replay-cache key: what comes before its first `:` (the whole key when it has none). */
function ownerOf(key: string): string {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
}
