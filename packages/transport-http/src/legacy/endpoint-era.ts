// The 2025-11-25 era of the endpoint, plugged in at its seam (the endpoint hands it only what is not 2026-07-28):
// sessions (the default: sessions.ts), stateless serving (`legacy: { sessions: false }`: stateless.ts), and for
// 2025-11-25 clients of a 2026-07-28-only endpoint, the handler's answer to their `initialize`.
import type { MessageHandler } from '@boomerang/protocol/transport';
import { answer } from '../answer.js';
import type { EndpointEra } from '../inbound.js';
import { isInitialize } from './messages.js';
import { isConnectable, type SessionServer } from './session.js';
import { createSessionTable, type LegacySessionOptions, sessionStep } from './sessions.js';
import { statelessStep } from './stateless.js';

/** Settings of `HttpHandlerOptions.legacy`. */
export type LegacySetting = boolean | LegacySessionOptions | undefined;

/** The option of `createHttpHandler` that serves the 2025-11-25 era. */
export interface LegacyOptions {
  /**
   * 2025-11-25 clients, served beside 2026-07-28 ones on the same endpoint when the handler implements `connect`
   * (`Server` and `McpServer` do). On by default (`true`, or settings): an `initialize` POST opens a session
   * (`Mcp-Session-Id` in its answer) served as one stream connection of the handler, so the session's
   * server→client requests (a resolver's elicitation, sampling, roots) travel on the event stream of the POST
   * that caused them and the client's answers come back as POSTs; `GET` opens the session's stream for the rest,
   * `DELETE` ends it, an unknown or ended session is 404. Requests without a session id, and any request whose
   * `_meta` names a 2026-07-28 protocol version, keep the modern answers. Sessions live in this process: put
   * several processes behind sticky routing. `false`: 2026-07-28 only (GET/DELETE 405, `Mcp-Session-Id`
   * ignored, `initialize` gets the handler's error naming the supported versions).
   */
  readonly legacy?: LegacySetting;
}

/**
 * The 2025-11-25 era of an endpoint serving `handler` with `setting`: sessions; or stateless serving and then
 * {@link initializeStep}; or, for `false` and a handler without `connect`, {@link initializeStep} alone.
 * Throws `TypeError` for a setting of the wrong type, `RangeError` for bad numbers.
 */
export function legacyEndpointEra(
  handler: MessageHandler & SessionServer,
  setting: LegacySetting,
  onError: (error: unknown) => void,
): EndpointEra {
  if (setting === false || !isConnectable(handler)) return initializeStep(handler, onError);
  if (setting !== undefined && setting !== true && (typeof setting !== 'object' || setting === null)) {
    throw new TypeError(
      '"legacy" expected a boolean or { sessions?, maxSessions?, maxSessionsPerPrincipal?, maxStreamsPerSession?, idleTimeoutMs?, sessionIdPrefix? }',
    );
  }
  const options = setting === undefined || setting === true ? {} : setting;
  if (options.sessions !== undefined && typeof options.sessions !== 'boolean') {
    throw new TypeError(`"legacy.sessions" expected a boolean, got ${typeof options.sessions}`);
  }
  if (options.sessions === false) {
    return inTurn(statelessStep(handler, onError), initializeStep(handler, onError));
  }
  // Sessions take every 2025-11-25 `initialize` themselves.
  return sessionStep(createSessionTable(handler, options, onError));
}

/**
 * A 2025-11-25 `initialize` that no session or stateless step took sends none of the 2026-07-28 headers: it
 * goes to the handler as is (no header check), whose answer names the versions it supports.
 */
function initializeStep(handler: MessageHandler, onError: (error: unknown) => void): EndpointEra {
  return {
    async serve(inbound, next) {
      if (inbound.exchange.method !== 'POST') return next(inbound);
      const received = await inbound.receive();
      if (!received.ok || !isInitialize(received.message)) return next(inbound);
      return answer(handler, received.message, inbound.exchange, received.auth, onError);
    },
    close: async () => {},
  };
}

/** `first`, handing what it passes on to `second` (and what that passes on to the endpoint's `next`). */
function inTurn(first: EndpointEra, second: EndpointEra): EndpointEra {
  return {
    serve: (inbound, next) => first.serve(inbound, (passed) => second.serve(passed, next)),
    close: async () => {
      await Promise.all([first.close(), second.close()]);
    },
  };
}
