// A 2025-11-25 connection: requests without `_meta`, results read in the 2026-07-28 shape, the calls in flight
// kept for the server's requests, and the one renewal a session gets when the server forgot it (HTTP 404).
import {
  type Connection,
  type ConnectionRequestOptions,
  type Hello,
  isEmpty,
  type ServerDescription,
} from '../connection.js';
import type { Requester } from '../requester.js';
import { initialize, isSessionGone, LEGACY_PROTOCOL_VERSION } from './negotiate.js';
import { CallsInFlight } from './server-requests.js';

/** An initialized 2025-11-25 session on `requester`. */
export class LegacyConnection implements Connection {
  readonly protocolVersion = LEGACY_PROTOCOL_VERSION;
  readonly server: ServerDescription;
  /** The calls in flight: a legacy server's request names none, so the latest gives the callbacks' context. */
  readonly calls = new CallsInFlight();
  readonly #requester: Requester;
  /** What `initialize` sends (a session that the server forgot is initialized again). */
  readonly #hello: Hello;
  /** How many times the session was initialized again, and the renewal under way. */
  #renewals = 0;
  #renewing: Promise<void> | undefined;

  constructor(requester: Requester, hello: Hello, server: ServerDescription) {
    this.#requester = requester;
    this.#hello = hello;
    this.server = server;
  }

  /**
   * Sends one request (no `_meta`: a session negotiated the rest) and resolves to its result as the 2026-07-28
   * schemas read it ({@link legacyResult}). When the server forgot the session the request belonged to (it was
   * not served), the session is initialized again, once for all the requests that hit it at the same moment, and
   * the request is sent once more: the spec's MUST. A second 404 is the error.
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    options: ConnectionRequestOptions = {},
  ): Promise<unknown> {
    using _call = options.call === undefined ? undefined : this.calls.track(options.call);
    // A session negotiated the rest: only what the caller added goes into `_meta`.
    if (options.meta !== undefined && !isEmpty(options.meta)) params._meta = { ...options.meta };
    const renewals = this.#renewals;
    let raw: unknown;
    try {
      raw = await this.#requester.request(method, params, options);
    } catch (error) {
      if (!isSessionGone(error)) throw error;
      await (this.#renewals === renewals ? this.#renew() : this.#renewing);
      raw = await this.#requester.request(method, params, options);
    }
    return legacyResult(method, raw);
  }

  close(): Promise<void> {
    return this.#requester.close();
  }

  #renew(): Promise<void> {
    this.#renewing ??= (async () => {
      try {
        await initialize(this.#requester, this.#hello);
        this.#renewals++;
      } finally {
        this.#renewing = undefined;
      }
    })();
    return this.#renewing;
  }
}

/** Methods whose modern results carry cache hints a 2025-11-25 server never sends. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A 2025-11-25 result as the 2026-07-28 schemas read it: `resultType: "complete"` (a legacy server cannot ask
 * by returning), and on cacheable methods `ttlMs: 0` / `cacheScope: "private"` (never cached).
 */
export function legacyResult(method: string, raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const result: Record<string, unknown> = { ...raw, resultType: 'complete' };
  if (CACHEABLE.has(method)) {
    result.ttlMs ??= 0;
    result.cacheScope ??= 'private';
  }
  return result;
}
