// The signals the client transport hands to `fetch`. undici (Node's fetch) adds an abort listener to the signal of
// every request it makes and removes it only once that request is garbage collected, so a signal shared by every
// request (the deadline a client shares among the requests of a moment, a signal an application passes to every
// call) gathers one listener per request: Node warns past 1,500 (`MaxListenersExceededWarning`), and each request
// reads the whole list. A signal per exchange would avoid that, but on Node 20 making one costs some 24,000
// instructions, and each signal has a hidden class of its own, so code that sees many of them slows down. So a
// signal is shared by at most EXCHANGES_PER_SIGNAL exchanges, then a new one takes over: each gathers a bounded
// number of listeners, and the cost of making it is spread over its exchanges. Whatever the load, a caller's signal
// carries one listener per transport (the link that aborts the exchanges that passed it), and none once the
// transport is closed or the link made way for another caller's.

/**
 * How many exchanges share one signal. Even a heavy exchange (a `tools/call` refused for its headers, 20 pages of
 * `tools/list`, the call again, each POST redirected once: 44 requests) keeps a signal under Node's warning at
 * 1,500 listeners, and making the signal costs each exchange a thirty-second of it.
 */
export const EXCHANGES_PER_SIGNAL = 32;

/**
 * The signal of a few exchanges (a POST and its answer, with its redirects, resumes and retries) that passed the
 * same caller signal, or none: it aborts with the caller signal's reason when that aborts, or with the close
 * reason when the transport closes. Each exchange unregisters what it registered with {@link whenAborted}, and
 * calls {@link done} once, when it ends.
 */
export class ExchangeSignal extends AbortController {
  readonly #source: Source;
  /** How many exchanges took it (it is handed to no more than EXCHANGES_PER_SIGNAL). */
  taken = 0;
  /** How many of them are in flight. */
  users = 0;
  /** What stops the body reads in flight (a response made in process ignores the signal): no listener each. */
  readonly #reads = new Set<() => void>();

  constructor(source: Source) {
    super();
    this.#source = source;
  }

  /**
   * Registers `stop` (what stops a body read, say) to run once the signal aborts, at once if it already did,
   * without adding a listener to the signal; returns the unregistration, for when the exchange is done with it.
   */
  whenAborted(stop: () => void): () => void {
    if (this.signal.aborted) {
      stop();
      return () => {};
    }
    this.#reads.add(stop);
    return () => this.#reads.delete(stop);
  }

  /** Aborts the signal with `reason` and stops the body reads in flight. */
  cancel(reason: unknown): void {
    this.abort(reason);
    for (const stop of this.#reads) stop();
    this.#reads.clear();
  }

  /** One exchange that took it ended. */
  done(): void {
    this.#source.release(this);
  }
}

/**
 * Where the aborts of some exchanges come from: one caller signal (with the close), or the close alone. Hands them
 * signals, EXCHANGES_PER_SIGNAL exchanges per signal, and aborts those in use when it aborts.
 */
class Source {
  /** The caller's signal, or `undefined` for the exchanges that passed none. */
  readonly caller: AbortSignal | undefined;
  readonly #owner: ExchangeSignals;
  /** The signal handed to the next exchange, until enough exchanges took it. */
  #current: ExchangeSignal | undefined;
  /** The signals exchanges are using, and the current one. */
  readonly #live = new Set<ExchangeSignal>();
  /** How many exchanges are in flight. */
  users = 0;
  /** Set once it aborted (with `reason`): an exchange that starts then gets an aborted signal. */
  spent = false;
  reason: unknown;

  constructor(caller: AbortSignal | undefined, owner: ExchangeSignals) {
    this.caller = caller;
    this.#owner = owner;
  }

  /** A signal for one more exchange; `done()` it when the exchange ends. */
  take(): ExchangeSignal {
    let signal = this.#current;
    if (signal === undefined || signal.taken === EXCHANGES_PER_SIGNAL) {
      if (signal !== undefined && signal.users === 0) this.#live.delete(signal);
      signal = new ExchangeSignal(this);
      if (this.spent) signal.abort(this.reason);
      else {
        this.#current = signal;
        this.#live.add(signal);
      }
    }
    signal.taken++;
    signal.users++;
    this.users++;
    return signal;
  }

  /** An exchange that took `signal` ended: a retired signal nobody uses is dropped; so is a spent source. */
  release(signal: ExchangeSignal): void {
    if (--signal.users === 0 && signal !== this.#current) this.#live.delete(signal);
    if (--this.users === 0) this.#owner.unused(this);
  }

  /** The abort listener on the caller's signal (an object with `handleEvent`: no closure per link). */
  handleEvent(): void {
    this.abort(this.caller?.reason);
  }

  /** Aborts the signals in use with `reason`; from now on every exchange gets an aborted one. */
  abort(reason: unknown): void {
    if (this.spent) return;
    this.spent = true;
    this.reason = reason;
    this.#current = undefined;
    this.#owner.unlink(this);
    for (const signal of this.#live) signal.cancel(reason);
    this.#live.clear();
  }
}

/**
 * The exchanges of one transport, and one link per caller signal in use: hands each exchange a signal (see the
 * file comment), and aborts them all when the transport closes.
 */
export class ExchangeSignals {
  /** The exchanges that passed no signal: only the close aborts them. */
  readonly #unlinked = new Source(undefined, this);
  readonly #links = new Map<AbortSignal, Source>();
  /** The latest link no exchange uses, kept for the next exchange (its caller's signal is often passed again). */
  #idle: Source | undefined;
  #closed = false;
  #reason: unknown;

  /**
   * The signal of an exchange starting now, which passed `caller` (if any): it aborts when `caller` does or when
   * the transport closes, whichever comes first (at once if either already happened). Call `done()` on it once,
   * when the exchange ends. Exchanges passing the same caller signal share one link, and so one listener on it.
   */
  open(caller: AbortSignal | undefined): ExchangeSignal {
    if (caller === undefined) return this.#unlinked.take();
    let link = this.#links.get(caller);
    if (link === undefined) {
      link = new Source(caller, this);
      if (caller.aborted) link.abort(caller.reason);
      else if (this.#closed) link.abort(this.#reason);
      else {
        caller.addEventListener('abort', link, { once: true });
        this.#links.set(caller, link);
      }
    } else if (this.#idle === link) {
      this.#idle = undefined;
    }
    return link.take();
  }

  /** Aborts every exchange in flight with `reason` and drops every link; later exchanges start aborted. */
  close(reason: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reason = reason;
    this.#unlinked.abort(reason);
    for (const link of [...this.#links.values()]) link.abort(reason);
  }

  /** How many caller signals the transport listens to (one listener each); for tests. */
  get links(): number {
    return this.#links.size;
  }

  /**
   * `source` has no exchange in flight: a spent link is dropped; a live one is kept idle for the next exchange, and
   * the link idle before it dropped, so links of signals nobody passes any more do not pile up.
   */
  unused(source: Source): void {
    if (source.caller === undefined) return;
    if (source.spent) {
      this.unlink(source);
      return;
    }
    if (this.#idle !== undefined && this.#idle !== source) this.unlink(this.#idle);
    this.#idle = source;
  }

  /** Drops `source`'s listener on its caller's signal, and its place in the transport. */
  unlink(source: Source): void {
    const { caller } = source;
    if (caller === undefined) return;
    caller.removeEventListener('abort', source);
    if (this.#links.get(caller) === source) this.#links.delete(caller);
    if (this.#idle === source) this.#idle = undefined;
  }
}
