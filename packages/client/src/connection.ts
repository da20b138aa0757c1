// One connection of a Client: its requester, the revision it speaks, and how a request is sent on it, including
// the one renewal a 2025-11-25 session gets when the server forgot it (HTTP 404).
import { type Hello, isSessionGone, negotiate } from './legacy.js';
import type { ProgressHandler, Requester } from './requester.js';

/** What `connect()` settled. */
export class Connection {
  readonly requester: Requester;
  readonly protocolVersion: string;
  /** A 2025-11-25 session: requests carry no `_meta`; results are read as legacy results. */
  readonly legacy: boolean;
  /** What `initialize` sends (a 2025-11-25 session that the server forgot is initialized again). */
  readonly #hello: Hello;
  /** How many times the session was initialized again, and the renewal under way. */
  #renewals = 0;
  #renewing: Promise<void> | undefined;

  constructor(requester: Requester, protocolVersion: string, legacy: boolean, hello: Hello) {
    this.requester = requester;
    this.protocolVersion = protocolVersion;
    this.legacy = legacy;
    this.#hello = hello;
  }

  /**
   * Sends one request and resolves to its raw result. When the server forgot the 2025-11-25 session the request
   * belonged to (the request was not served), the session is initialized again, once for all the requests that
   * hit it at the same moment, and the request is sent once more: the spec's MUST. A second 404 is the error.
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    options: { signal?: AbortSignal; onprogress?: ProgressHandler },
  ): Promise<unknown> {
    const renewals = this.#renewals;
    try {
      return await this.requester.request(method, params, options);
    } catch (error) {
      if (!this.legacy || !isSessionGone(error)) throw error;
      await (this.#renewals === renewals ? this.#renew() : this.#renewing);
      return await this.requester.request(method, params, options);
    }
  }

  #renew(): Promise<void> {
    this.#renewing ??= (async () => {
      try {
        await negotiate(this.requester, '2025-11-25', this.#hello);
        this.#renewals++;
      } finally {
        this.#renewing = undefined;
      }
    })();
    return this.#renewing;
  }
}
