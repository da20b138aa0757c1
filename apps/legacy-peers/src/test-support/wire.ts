// Wire taps: every JSON-RPC message that crosses a transport, both ways, exactly as sent (before any SDK parses
// it). The v1 SDK's result schemas may drop members they do not know, and Boomerang's client normalises legacy
// results; only the raw messages show what the peer really put on the wire.
import type { JSONRPCMessage as BoomerangMessage } from '@boomerang/protocol';
import {
  type Transport as BoomerangTransport,
  isRequestTransport,
  type RequestTransport,
  type TransportSendOptions,
} from '@boomerang/protocol/transport';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage as V1Message } from '@modelcontextprotocol/sdk/types.js';

/** One message on the wire: `out` = sent by the side holding the tap, `in` = received by it. */
export interface WireEntry {
  readonly direction: 'in' | 'out';
  readonly message: Record<string, unknown>;
}

/** The messages a tap saw, in order, with helpers to find them. */
export class Wire {
  readonly entries: WireEntry[] = [];

  record(direction: 'in' | 'out', message: unknown): void {
    this.entries.push({ direction, message: structuredClone(message) as Record<string, unknown> });
  }

  /** `"out initialize"`, `"in response"`, …: the conversation at a glance. */
  summary(): string[] {
    return this.entries.map(({ direction, message }) => {
      const what =
        typeof message.method === 'string' ? message.method : 'error' in message ? 'error' : 'response';
      return `${direction} ${what}`;
    });
  }

  /** The request (either direction) with this method, and the response to it. */
  exchange(method: string): {
    request: Record<string, unknown>;
    response: Record<string, unknown> | undefined;
  } {
    const request = this.entries.find((e) => e.message.method === method && 'id' in e.message)?.message;
    if (request === undefined)
      throw new Error(`no ${method} request on the wire: ${this.summary().join(', ')}`);
    const response = this.entries.find(
      (e) => !('method' in e.message) && 'id' in e.message && e.message.id === request.id,
    )?.message;
    return { request, response };
  }

  /** Every response's `result` (of any request). */
  results(): Record<string, unknown>[] {
    return this.entries
      .filter((e) => !('method' in e.message) && 'result' in e.message)
      .map((e) => e.message.result as Record<string, unknown>);
  }
}

/** Wraps a v1 SDK transport (any kind: stdio, Streamable HTTP) so that `wire` records what crosses it. */
export function tapV1(inner: V1Transport, wire: Wire): V1Transport {
  const tapped: V1Transport = {
    start: () => inner.start(),
    send: (message, options) => {
      wire.record('out', message);
      return inner.send(message, options);
    },
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    get sessionId() {
      return inner.sessionId;
    },
  };
  inner.onmessage = (message: V1Message, extra) => {
    wire.record('in', message);
    tapped.onmessage?.(message, extra);
  };
  inner.onclose = () => tapped.onclose?.();
  inner.onerror = (error) => tapped.onerror?.(error);
  return tapped;
}

/**
 * Wraps a Boomerang transport (any kind: a stream transport such as stdio, or a request transport such as HTTP)
 * so that `wire` records what crosses it. A request transport stays one, so the client uses it as it would
 * untapped.
 */
export function tapBoomerang<T extends BoomerangTransport | RequestTransport>(inner: T, wire: Wire): T {
  const messages: AsyncIterable<BoomerangMessage> = {
    async *[Symbol.asyncIterator]() {
      for await (const message of inner.messages as AsyncIterable<BoomerangMessage>) {
        wire.record('in', message);
        yield message;
      }
    },
  };
  const close = () => inner.close();
  const send = (message: BoomerangMessage, options?: TransportSendOptions) => {
    wire.record('out', message);
    return (inner as BoomerangTransport).send(message, options);
  };
  if (!isRequestTransport(inner)) {
    const stream: BoomerangTransport = { send, messages, close, [Symbol.asyncDispose]: close };
    return stream as T;
  }
  const exchanges: RequestTransport = {
    async request(message, options = {}) {
      wire.record('out', message);
      const { onMessage } = options;
      const response = await inner.request(message, {
        ...options,
        onMessage: (received) => {
          wire.record('in', received);
          onMessage?.(received);
        },
      });
      wire.record('in', response);
      return response;
    },
    send,
    messages,
    close,
    [Symbol.asyncDispose]: close,
  };
  return exchanges as T;
}
