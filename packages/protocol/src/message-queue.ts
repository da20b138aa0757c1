import type { JSONRPCMessage } from './schema/index.js';
import type { Transport } from './transport.js';

type Next = IteratorResult<JSONRPCMessage, undefined>;

/** What a transport does when its `messages` iteration starts, and when its consumer leaves early. */
export interface MessageQueueHooks {
  /** Called once, when the one consumer asks for the iterator (a client spawns its server, a server reads stdin). */
  onStart?(): void;
  /** The consumer left a `for await` early (`break`, `throw`): the transport closes. */
  onReturn(): Promise<void>;
  /** The consumer asked for the next message (called after it was taken, so {@link MessageQueue.weight} fell). */
  onNext?(): void;
}

/**
 * The incoming side of a {@link Transport}: a FIFO of parsed messages, readers waiting on it, and the
 * one-consumer `messages` iterable over it. Every Boomerang transport (memory, stdio, HTTP) builds its `messages`
 * on it, so they all behave alike: a second iteration is a `TypeError`, leaving a `for await` early closes the
 * transport, queued messages are still read after `end()`. Unbounded, since the `Server` and `Client` read
 * eagerly; reads are O(1) amortised (a moving head, compacted once half the buffer is consumed).
 */
export class MessageQueue {
  #items: JSONRPCMessage[] = [];
  /** The weight of each queued message, parallel to `#items`. */
  #weights: number[] = [];
  #weight = 0;
  #head = 0;
  #readers: ((result: Next) => void)[] = [];
  #ended = false;

  /** True once {@link end} was called (queued messages may still be unread). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * The total weight of the messages queued and not yet read (what `push` was given: e.g. their size in bytes,
   * for a transport that stops reading while its consumer lags behind).
   */
  get weight(): number {
    return this.#weight;
  }

  /**
   * Appends a message, or hands it straight to a waiting reader. Ignored once ended. `weight` (default 0) counts
   * in {@link MessageQueue.weight} until the message is read.
   */
  push(message: JSONRPCMessage, weight = 0): void {
    if (this.#ended) return;
    const reader = this.#readers.shift();
    if (reader) {
      reader({ done: false, value: message });
      return;
    }
    this.#items.push(message);
    this.#weights.push(weight);
    this.#weight += weight;
  }

  /** No more messages: readers get the queued ones, then `done`. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const reader of this.#readers.splice(0)) reader({ done: true, value: undefined });
  }

  /** Drops unread messages and ends: the consumer is gone. */
  discard(): void {
    this.#items = [];
    this.#weights = [];
    this.#weight = 0;
    this.#head = 0;
    this.end();
  }

  /** The next message, or `done` once ended and drained. */
  next(): Promise<Next> {
    if (this.#head < this.#items.length) {
      this.#weight -= this.#weights[this.#head] as number;
      const value = this.#items[this.#head++] as JSONRPCMessage;
      if (this.#head === this.#items.length) {
        this.#items = [];
        this.#weights = [];
        this.#head = 0;
      } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#weights = this.#weights.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => this.#readers.push(resolve));
  }

  /**
   * The `messages` iterable of a transport: one consumer (a second `[Symbol.asyncIterator]()` throws
   * `TypeError`), `hooks.onStart` on the first, and leaving a `for await` early closes the transport.
   */
  iterable(hooks: MessageQueueHooks): AsyncIterable<JSONRPCMessage> {
    let iterated = false;
    const onNext = hooks.onNext;
    const iterator: AsyncIterableIterator<JSONRPCMessage, undefined> = {
      next:
        onNext === undefined
          ? () => this.next()
          : () => {
              const next = this.next();
              onNext();
              return next;
            },
      return: async () => {
        this.discard();
        await hooks.onReturn();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return Object.freeze({
      [Symbol.asyncIterator]: () => {
        if (iterated)
          throw new TypeError('"messages" can be iterated only once (one consumer per transport)');
        iterated = true;
        hooks.onStart?.();
        return iterator;
      },
    });
  }
}
