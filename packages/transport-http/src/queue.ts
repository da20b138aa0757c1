import type { JSONRPCMessage } from '@boomerang/protocol';

type Next = IteratorResult<JSONRPCMessage, undefined>;

/**
 * The incoming side of the client transport: a FIFO of messages and the one-consumer `messages` iterable over
 * it. Unbounded, because the client reads eagerly and every message answers a request it made.
 */
export class MessageQueue {
  #items: JSONRPCMessage[] = [];
  #readers: ((result: Next) => void)[] = [];
  #ended = false;
  #iterated = false;

  /** Appends a message, or hands it to a waiting reader. Ignored once ended. */
  push(message: JSONRPCMessage): void {
    if (this.#ended) return;
    const reader = this.#readers.shift();
    if (reader) reader({ done: false, value: message });
    else this.#items.push(message);
  }

  /** No more messages: queued ones are still read, then the iteration ends. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const reader of this.#readers.splice(0)) reader({ done: true, value: undefined });
  }

  /** The `messages` iterable: one consumer (a second iterator is a `TypeError`); leaving early calls `onReturn`. */
  iterable(onReturn: () => Promise<void>): AsyncIterable<JSONRPCMessage> {
    return {
      [Symbol.asyncIterator]: () => {
        if (this.#iterated)
          throw new TypeError('messages has a single consumer; it is already being iterated');
        this.#iterated = true;
        return {
          next: () => this.#next(),
          return: async () => {
            this.#items = [];
            this.end();
            await onReturn();
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  #next(): Promise<Next> {
    const value = this.#items.shift();
    if (value !== undefined) return Promise.resolve({ done: false, value });
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => this.#readers.push(resolve));
  }
}
