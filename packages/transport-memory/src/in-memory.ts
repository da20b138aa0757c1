import type { JSONRPCMessage } from '@boomerang/protocol';
import { MessageQueue, type Transport, type TransportSendOptions } from '@boomerang/protocol/transport';
import { wireCopy } from './wire-copy.js';

/**
 * The two linked ends of {@link createInMemoryPair}: `[clientTransport, serverTransport]`. The tuple is itself
 * `AsyncDisposable`, so `await using pair = createInMemoryPair()` closes both ends when the scope exits.
 */
export type InMemoryPair = readonly [client: Transport, server: Transport] & AsyncDisposable;

/**
 * Creates two linked in-process transports, for tests and for embedding a server in the same process.
 *
 * - Delivery is asynchronous (a microtask after `send`) and in order. When `await send(m)` resolves, `m` has
 *   reached the peer's queue.
 * - Every message is copied when `send` is called, into exactly what `JSON.parse(JSON.stringify(m))` gives
 *   (plain JSON data is copied without the text; see wire-copy.ts), so the receiver sees what a stdio or HTTP
 *   peer would: it never shares an object with the sender, later mutation does not travel, `undefined` members
 *   and function or symbol members vanish, a `Date` arrives as its ISO string.
 *   A message JSON cannot carry (a `BigInt`, a cycle) makes `send` reject with a `TypeError` and sends nothing.
 * - `close()` on either end closes the link: both `messages` iterations end after the messages already sent have
 *   been read; `send` then rejects with `Error("in-memory transport is closed")`. `close()` is idempotent.
 * - `messages` can be iterated once (a second iterator is a `TypeError`). Leaving a `for await` early (`break`,
 *   `throw`) closes the link, like cancelling a web `ReadableStream`, so unread messages do not pile up.
 * - Queues are unbounded: there is no back-pressure, which suits tests and in-process embedding.
 */
export function createInMemoryPair(): InMemoryPair {
  const link = new Link();
  const pair = [new InMemoryTransport(link, 0), new InMemoryTransport(link, 1)] as const;
  Object.defineProperty(pair, Symbol.asyncDispose, { value: () => link.close() });
  return Object.freeze(pair) as unknown as InMemoryPair;
}

/** The shared state of both ends: one inbox per end, and whether the link is closed. */
class Link {
  closed = false;
  readonly inboxes = [new MessageQueue(), new MessageQueue()] as const;

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      // Queued behind every delivery already scheduled, so nothing sent before the close is lost.
      queueMicrotask(() => {
        for (const inbox of this.inboxes) inbox.end();
      });
    }
    return new Promise((resolve) => queueMicrotask(resolve));
  }
}

const CLOSED_MESSAGE = 'in-memory transport is closed';

/** One end of a {@link Link}. */
class InMemoryTransport implements Transport {
  readonly messages: AsyncIterable<JSONRPCMessage>;
  readonly #link: Link;
  readonly #side: 0 | 1;

  constructor(link: Link, side: 0 | 1) {
    this.#link = link;
    this.#side = side;
    this.messages = link.inboxes[side].iterable({ onReturn: () => link.close() });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    options?.signal?.throwIfAborted();
    if (this.#link.closed) throw new Error(CLOSED_MESSAGE);
    const copy = wireCopy(message);
    const peer = this.#link.inboxes[this.#side === 0 ? 1 : 0];
    queueMicrotask(() => peer.push(copy));
  }

  close(): Promise<void> {
    return this.#link.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.#link.close();
  }
}
