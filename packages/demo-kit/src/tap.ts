import type { JSONRPCMessage, Transport, TransportSendOptions } from '@boomerang/protocol';

/** Which way a message went, seen from the client: `out` = client → server, `in` = server → client. */
export type Direction = 'out' | 'in';

/**
 * Wraps a client transport so that `observe` sees every message it sends and receives, in order, before the
 * client does. Only observes: messages pass through unchanged. This is how the demo prints each round.
 */
export function tapTransport(
  transport: Transport,
  observe: (direction: Direction, message: JSONRPCMessage) => void,
): Transport {
  return {
    send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
      observe('out', message);
      return transport.send(message, options);
    },
    messages: {
      async *[Symbol.asyncIterator]() {
        for await (const message of transport.messages) {
          observe('in', message);
          yield message;
        }
      },
    },
    close: () => transport.close(),
    [Symbol.asyncDispose]: () => transport.close(),
  };
}
