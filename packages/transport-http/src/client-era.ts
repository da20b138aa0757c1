// What an older era plugs into the client transport, at its one seam: the transport asks it only about messages
// that name no 2026-07-28 protocol version in `_meta`, and makes it on the first such message (`eras.ts` plugs in
// the 2025-11-25 era: legacy/client-era.ts). A 2026-07-28 message never reaches it.
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCResponse, RequestId } from '@boomerang/protocol';
import type { FetchLike } from '@boomerang/protocol/transport';
import type { Answer } from './client-answer.js';

/** What the transport lends an era when it makes it. */
export interface ClientWire {
  /** The endpoint. */
  readonly url: URL;
  /** The transport's `fetch`, redirects under its policy: for the era's own GET and DELETE. */
  readonly fetch: FetchLike;
  /** The `headers` option's headers, made afresh for each call (a token may have been refreshed). */
  headers(): Promise<Headers>;
  /** Hands a message that no exchange claims to the transport's `messages`. */
  deliver(message: JSONRPCMessage): void;
  /** POSTs a notification, as the transport's `send` does. */
  send(notification: JSONRPCNotification): Promise<void>;
  /** The transport's `maxEventBytes`. */
  readonly maxEventBytes: number;
  /** The transport's `onWarning`. */
  warn(message: string): void;
}

/** One request the era claimed, as the transport hands it over: its POST is ready to go. */
export interface EraRequest {
  readonly id: RequestId;
  readonly method: string;
  /** The headers the POST goes out with (those the era claimed it with among them). */
  readonly headers: Headers;
  /** The caller's signal, if it gave one. */
  readonly caller: AbortSignal | undefined;
  /** The exchange's signal: aborts with the caller's, or when the transport closes. */
  readonly signal: AbortSignal;
  /** Calls `listener` once when {@link signal} aborts, until the returned function is called. */
  whenAborted(listener: () => void): () => void;
  /**
   * POSTs the request: the response to read, or the answer that stands for it when there is none (a marked
   * failure, or `undefined` once the exchange aborted).
   */
  post(): Promise<Response | JSONRPCResponse | undefined>;
  /**
   * Reads a response as the answer to the request (see `readAnswer`): with `legacy`, the server's requests on
   * its event stream are handed on too, and a stream that ends early after naming an event id is `{ resume }`.
   */
  read(response: Response, legacy: boolean): Promise<Answer>;
  /** The marked transport failure that stands for the response (`undefined` once the exchange aborted). */
  failure(why: string, status?: number): JSONRPCResponse | undefined;
}

/** An older era of the protocol, as the client transport sees it. */
export interface ClientEra {
  /**
   * Claims a message that names no 2026-07-28 protocol version (`method` is `undefined` for a response): the
   * headers it goes out with in place of the 2026-07-28 request-metadata headers, or `undefined` when the era
   * does not take it (then it goes as a 2026-07-28 message, and a response is refused).
   */
  claim(method: string | undefined): Readonly<Record<string, string>> | undefined;
  /** Runs a request it claimed, to its answer (`undefined` once the exchange aborted). */
  request(request: EraRequest): Promise<JSONRPCResponse | undefined>;
  /** The server answered `status` to a notification or response it claimed, POSTed with `headers`. */
  sent(status: number, headers: Headers): void;
  /** Ends what the era keeps (a session), as the transport closes. Idempotent. */
  close(): Promise<void>;
}
