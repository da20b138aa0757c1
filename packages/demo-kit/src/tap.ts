import type { JSONRPCMessage } from '@boomerang/protocol';
import {
  isRequestTransport,
  type RequestTransport,
  type Transport,
  type TransportSendOptions,
} from '@boomerang/protocol/transport';

/** Which way a message went, seen from the client: `out` = client → server, `in` = server → client. */
export type Direction = 'out' | 'in';

/** Sees one message, before the client does. */
export type Observer = (direction: Direction, message: JSONRPCMessage) => void;

/**
 * Wraps a client transport (a stream `Transport`, or a `RequestTransport` such as HTTP's) so that `observe` sees
 * every message it sends and receives, in order, before the client does. Only observes: messages pass through
 * unchanged. This is how the demo prints each round.
 */
export function tapTransport<T extends Transport | RequestTransport>(transport: T, observe: Observer): T {
  const messages: AsyncIterable<JSONRPCMessage> = {
    async *[Symbol.asyncIterator]() {
      for await (const message of transport.messages) {
        observe('in', message);
        yield message;
      }
    },
  };
  const common = {
    send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
      observe('out', message);
      return (transport.send as (m: JSONRPCMessage, o?: TransportSendOptions) => Promise<void>)(
        message,
        options,
      );
    },
    messages,
    close: () => transport.close(),
    [Symbol.asyncDispose]: () => transport.close(),
  };
  if (!isRequestTransport(transport)) return common as unknown as T;
  const exchange: RequestTransport['request'] = async (message, options = {}) => {
    observe('out', message);
    const { onMessage } = options;
    // Without its own `onMessage`, what the peer sends for the request arrives on `messages` (observed there).
    const tapped =
      onMessage === undefined
        ? options
        : {
            ...options,
            onMessage: (received: Parameters<typeof onMessage>[0]) => {
              observe('in', received);
              onMessage(received);
            },
          };
    const response = await transport.request(message, tapped);
    observe('in', response);
    return response;
  };
  return { ...common, request: exchange } as unknown as T;
}
