// One POST of a 2025-11-25 session that waits for its response: JSON when the response comes first, an event
// stream from the first other message of its request on.
import type { JSONRPCMessage, JSONRPCResponse, RequestId } from '@boomerang/protocol';
import { type EventStream, openEventStream } from '../event-stream.js';
import type { Exchange } from '../exchange.js';
import { json, type Reply } from '../replies.js';

/** One POST of a session waiting for its response. */
export interface Pending {
  readonly id: RequestId;
  readonly reply: Promise<Reply>;
  /** Settles once the POST ended (its response sent, or dropped). */
  readonly done: Promise<void>;
  /** The response, once it came. */
  response: JSONRPCResponse | undefined;
  /** Delivers a message of this request; false when its POST can no longer carry it. */
  push(message: JSONRPCMessage): boolean;
  /** Ends the POST with `response`. */
  finish(response: JSONRPCResponse): void;
  /** Ends the POST without a response (the client cancelled the request). */
  drop(): void;
}

/**
 * The POST of request `id`: JSON when the response comes first (always status 200: a 2025-11-25 client reads
 * any other status as a transport failure), an event stream from the first other message on. The client going
 * away does not cancel the request (2025-11-25: only `notifications/cancelled` does); its later messages are
 * then refused here and take the GET stream.
 */
export function pendingPost(id: RequestId, exchange: Exchange, ended: () => void): Pending {
  let resolve!: (reply: Reply) => void;
  const reply = new Promise<Reply>((r) => {
    resolve = r;
  });
  let settle!: () => void;
  const done = new Promise<void>((r) => {
    settle = r;
  });
  let stream: EventStream | undefined;
  let finished = false;
  const gone = () => exchange.signal.aborted || (stream !== undefined && !stream.open);
  const end = () => {
    finished = true;
    exchange.signal.removeEventListener('abort', onAbort);
    ended();
    settle();
  };
  const onAbort = () => {
    stream?.close();
  };
  exchange.signal.addEventListener('abort', onAbort, { once: true });
  const pending = {
    id,
    reply,
    done,
    response: undefined as JSONRPCResponse | undefined,
    push(message: JSONRPCMessage) {
      if (finished || gone()) return false;
      if (stream === undefined) {
        stream = openEventStream(() => {});
        resolve(stream.response);
      }
      return stream.write(message);
    },
    finish(response: JSONRPCResponse) {
      if (finished) return;
      pending.response = response;
      end();
      if (stream === undefined) resolve(json(200, response));
      else {
        stream.write(response);
        stream.close();
      }
    },
    drop() {
      if (finished) return;
      end();
      if (stream === undefined) {
        stream = openEventStream(() => {});
        resolve(stream.response);
      }
      stream.close();
    },
  };
  return pending;
}
