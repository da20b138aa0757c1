// How long a request waits for its response (`responseTimeoutMs`), at a cost the hot path can carry. An
// `AbortSignal` costs microseconds to make on Node 20 (and a transport that links it costs as much again), so
// requests do not get one each: requests that start within a short window share one deadline (a timer wheel with
// one slot per window), whose signal aborts once the window has used up the limit plus the window itself. Every
// request of a window thus gets between `limit` and `limit + window` milliseconds. A timer closes the window, so
// that a request joining one reads no clock. Time the connection spends
// answering the server's own requests (a 2025-11-25 server asking mid-call: a person filling in a form) is not
// counted.

/** The time a connection spends answering the server's requests, which response deadlines do not count. */
export class AnsweringClock {
  #busy = 0;
  #since = 0;
  #total = 0;

  /** A server request is being answered (they overlap: the clock runs while at least one is). */
  enter(): void {
    if (this.#busy++ === 0) this.#since = performance.now();
  }

  /** A server request was answered. */
  leave(): void {
    if (--this.#busy === 0) this.#total += performance.now() - this.#since;
  }

  /** Milliseconds spent answering since the connection started, the current stretch included. */
  answered(): number {
    return this.#total + (this.#busy > 0 ? performance.now() - this.#since : 0);
  }
}

/**
 * One window's deadline, shared by the requests that started in it: its signal aborts with {@link reason} once
 * the window's time is up, unless no request waits on it any more.
 */
export class Deadline {
  readonly limitMs: number;
  /**
   * The time the window waits: the limit, plus the time during which requests joined (the window, or longer when
   * its timer fired late: the latest request to join still gets the whole limit).
   */
  #budgetMs: number;
  readonly start: number;
  readonly #controller = new AbortController();
  readonly #clock: AnsweringClock;
  readonly #answeredAtStart: number;
  #users = 0;
  /** The pending check while armed (requests wait on the deadline). */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired = false;
  #joinable = true;
  #reason: Error | undefined;

  constructor(limitMs: number, windowMs: number, clock: AnsweringClock) {
    this.limitMs = limitMs;
    this.#budgetMs = limitMs + windowMs;
    this.start = performance.now();
    this.#clock = clock;
    this.#answeredAtStart = clock.answered();
    allowManyListeners(this.#controller.signal);
    unref(
      setTimeout(() => {
        this.#joinable = false;
        this.#budgetMs = Math.max(this.#budgetMs, performance.now() - this.start + limitMs);
        if (this.#users === 0) this.#disarm();
      }, windowMs),
    );
  }

  /**
   * What `signal` aborts with: tells a timeout apart from any other abort. An Error, so that what a transport
   * tells the server (`notifications/cancelled`'s reason) says why; made when first read (its stack is not free,
   * and would keep the frames of the request that made the window alive as long as the window).
   */
  get reason(): Error {
    this.#reason ??= new Error(`no response within ${this.limitMs} ms (responseTimeoutMs)`);
    return this.#reason;
  }

  /** The time the window waits, in milliseconds not spent answering the server. */
  get budgetMs(): number {
    return this.#budgetMs;
  }

  /** True while requests starting now may share this deadline. */
  get joinable(): boolean {
    return this.#joinable && !this.#expired;
  }

  /** Aborts once the window's time is up; every request of the window listens to it. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the time is up. */
  get expired(): boolean {
    return this.#expired;
  }

  /** A request starts waiting on this deadline. */
  join(): void {
    this.#users++;
    if (this.#timer === undefined) this.#schedule();
  }

  /**
   * A request got its answer (or failed): it no longer waits. The last one to leave a closed window stops the
   * timer, so that a finished window is garbage at once rather than when its limit would have run out.
   */
  leave(): void {
    if (--this.#users === 0 && !this.#joinable) this.#disarm();
  }

  /** True while a timer is pending (requests wait on the deadline); for tests. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * The timer checks when it fires: nobody waiting, it stops (a request joining the still open window arms it
   * again); time spent answering the server pushes it back; else the deadline expires. It never keeps a Node
   * process alive.
   */
  #schedule(): void {
    const used = performance.now() - this.start - (this.#clock.answered() - this.#answeredAtStart);
    this.#timer = setTimeout(this.#check, Math.max(1, this.#budgetMs - used));
    unref(this.#timer);
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#users === 0) return;
    const used = performance.now() - this.start - (this.#clock.answered() - this.#answeredAtStart);
    if (used < this.#budgetMs) {
      this.#schedule();
      return;
    }
    this.#expired = true;
    this.#controller.abort(this.reason);
  };

  #disarm(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The response deadlines of one connection: the open window of each limit. */
export class ResponseDeadlines {
  readonly #clock: AnsweringClock;
  readonly #open = new Map<number, Deadline>();

  constructor(clock: AnsweringClock) {
    this.#clock = clock;
  }

  /** The deadline of a request of `limitMs` starting now (joined: call `leave()` once it settles). */
  join(limitMs: number): Deadline {
    let deadline = this.#open.get(limitMs);
    if (deadline === undefined || !deadline.joinable) {
      deadline = new Deadline(limitMs, windowOf(limitMs), this.#clock);
      this.#open.set(limitMs, deadline);
    }
    deadline.join();
    return deadline;
  }
}

/** How long a window stays open to newcomers: a tenth of the limit, at most a second. */
function windowOf(limitMs: number): number {
  return Math.max(1, Math.min(1000, Math.floor(limitMs / 10)));
}

/** A timer that does not keep a Node process alive (a no-op where timers are plain numbers, as in browsers). */
function unref(timer: ReturnType<typeof setTimeout>): void {
  if (typeof timer === 'object' && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
}

/** The shape of `node:events` this module uses. */
interface NodeEvents {
  setMaxListeners(n: number, ...targets: EventTarget[]): void;
}

/**
 * A shared deadline's signal has a listener per request waiting on it: lifts Node's limit of 10 listeners per
 * signal (which only warns) where `process.getBuiltinModule` exists; other runtimes do not warn.
 */
function allowManyListeners(signal: AbortSignal): void {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  const events =
    typeof builtin === 'function' ? (builtin('node:events') as NodeEvents | undefined) : undefined;
  events?.setMaxListeners(0, signal);
}
