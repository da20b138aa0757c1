// 2025-11-25 sessions on the Streamable HTTP endpoint: the session table, and the era step that hands it the
// exchanges of sessions. An `initialize` POST without `Mcp-Session-Id` opens a session; a POST, GET or DELETE
// naming one is served by it.
import { type AuthInfo, ErrorCode, type JSONRPCRequest, principalOf } from '@boomerang/protocol';
import type { Exchange } from '../exchange.js';
import { HeaderName } from '../headers.js';
import type { EndpointEra } from '../inbound.js';
import { accepts } from '../negotiation.js';
import { isResponse, type PlainReply, type Reply, refuse } from '../replies.js';
import { isInitialize } from './messages.js';
import { type Connectable, HttpSession } from './session.js';

/** Settings of the 2025-11-25 side of an endpoint (`HttpHandlerOptions.legacy`). */
export interface LegacySessionOptions {
  /**
   * `true` (default): `initialize` opens a session (`Mcp-Session-Id`), whose server→client requests travel on
   * its POSTs' event streams. `false`: stateless, for fleets without sticky routing: no session ids, every
   * request served on its own, and a server→client request (a resolver that asks) fails at once with a clear
   * error, since there is nobody to ask.
   */
  readonly sessions?: boolean | undefined;
  /**
   * Most sessions open at once (default 1,000). When the table is full, `initialize` makes room by ending a
   * session that the newcomer may end, or is refused with 503.
   *
   * Who may end whose session, so that strangers cannot drive eviction: a session is *quiet* when no request of
   * it is in flight (an open GET stream does not protect it). An anonymous newcomer ends the least recently
   * active quiet anonymous session; an authenticated one ends, in this order, the least recently active quiet
   * anonymous session, its own least recently active quiet session, or the least recently active anonymous
   * session even with a request in flight. Nobody ever ends an authenticated principal's session but that
   * principal.
   */
  readonly maxSessions?: number | undefined;
  /**
   * Most sessions one authenticated principal may hold (default 16): at the quota, its `initialize` ends its own
   * least recently active session without a request in flight, or is refused with 503. Anonymous sessions (no
   * `AuthInfo`) share the whole table: without an identity there is nobody to tell apart.
   */
  readonly maxSessionsPerPrincipal?: number | undefined;
  /**
   * Most streams one session holds open (default 32): its GET stream and its POSTs awaiting their responses
   * (each may be an event stream). A request POST or a GET beyond it is refused with 429.
   */
  readonly maxStreamsPerSession?: number | undefined;
  /** A session with no request in flight and no GET stream open for this long is ended (default 30 minutes). */
  readonly idleTimeoutMs?: number | undefined;
  /**
   * Put before every session id this endpoint mints (default none): name the instance (`'i2.'`) so a load
   * balancer without sticky cookies can route a session's requests back to it by the `Mcp-Session-Id` header
   * (nginx: a `map` from the prefix to the instance). The random part stays 192 bits. At most 32 visible ASCII
   * characters (`!` to `~`), as session ids must be.
   */
  readonly sessionIdPrefix?: string | undefined;
}

const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_MAX_PER_PRINCIPAL = 16;
const DEFAULT_MAX_STREAMS = 32;
const DEFAULT_IDLE_MS = 30 * 60_000;

/** The sessions of one endpoint. */
export interface SessionTable {
  /** The open session `id` names for this principal; `undefined` for an unknown, ended or someone else's id. */
  find(id: string, auth: AuthInfo | undefined): HttpSession | undefined;
  /** Serves an `initialize` POST: a new session when it succeeds (its id in `Mcp-Session-Id`). */
  open(message: JSONRPCRequest, exchange: Exchange, auth: AuthInfo | undefined): Promise<Reply>;
  /** Ends every session (requests in flight get an error, streams close). */
  close(): Promise<void>;
}

/**
 * The era step serving 2025-11-25 sessions (the endpoint hands it no 2026-07-28 POST): a POST naming a session
 * goes to it (404 when it names none of this principal's), an `initialize` without one opens a session; a GET
 * naming a session opens its stream (406 unless `Accept` allows `text/event-stream`), a DELETE ends it.
 * Everything else, and a GET or DELETE naming no open session (the modern 405), goes on to `next`.
 */
export function sessionStep(sessions: SessionTable): EndpointEra {
  return {
    async serve(inbound, next) {
      const { exchange } = inbound;
      const id = exchange.headers.get(HeaderName.session);
      if (exchange.method === 'POST') {
        const received = await inbound.receive();
        if (!received.ok) return next(inbound);
        const { message, auth } = received;
        if (id !== null) {
          const session = sessions.find(id, auth);
          return session === undefined ? sessionNotFound() : session.post(message, exchange, auth);
        }
        return isInitialize(message) ? sessions.open(message, exchange, auth) : next(inbound);
      }
      if (id === null || (exchange.method !== 'GET' && exchange.method !== 'DELETE')) return next(inbound);
      const who = await inbound.authenticate();
      if (!who.ok) return who.reply;
      const session = sessions.find(id, who.auth);
      // No such session: the modern answer (a 2025-11-25 client learns of the end from its next POST's 404).
      if (session === undefined) return next(inbound);
      if (exchange.method === 'DELETE') {
        await session.end();
        return { status: 200, headers: {}, body: null };
      }
      if (!accepts(exchange.headers.get('accept'), 'text/event-stream')) {
        return refuse(406, 'Not Acceptable: Accept must allow text/event-stream');
      }
      return session.listen(exchange);
    },
    close: () => sessions.close(),
  };
}

/** 404 for a session id that names no open session of this principal: the client must `initialize` again. */
function sessionNotFound(): PlainReply {
  return refuse(404, 'Not Found: no such session (it ended, or never existed); send initialize again');
}

/**
 * The session table of an endpoint serving `handler` (which must implement `connect`). Throws `RangeError` for
 * settings that are not positive integers.
 *
 * Who may end whose session to make room, so that strangers cannot drive eviction: a session is *quiet* when no
 * request of it is in flight (an open GET stream does not protect it, so sessions that all hold a GET stream
 * never lock newcomers out). A principal at its quota (`maxSessionsPerPrincipal`) ends its own least recently
 * active quiet session. When the table is full, an anonymous newcomer ends the least recently active quiet
 * anonymous session; an authenticated one ends, in this order, the least recently active quiet anonymous
 * session, its own least recently active quiet session, or the least recently active anonymous session even
 * with a request in flight (so an anonymous flood cannot lock authenticated principals out). Nobody ever ends
 * an authenticated principal's session but that principal. Otherwise `initialize` is refused with 503.
 */
export function createSessionTable(
  handler: Connectable,
  options: LegacySessionOptions,
  onError: (error: unknown) => void,
): SessionTable {
  const max = positive(options.maxSessions ?? DEFAULT_MAX_SESSIONS, 'legacy.maxSessions');
  const quota = positive(
    options.maxSessionsPerPrincipal ?? DEFAULT_MAX_PER_PRINCIPAL,
    'legacy.maxSessionsPerPrincipal',
  );
  const maxStreams = positive(
    options.maxStreamsPerSession ?? DEFAULT_MAX_STREAMS,
    'legacy.maxStreamsPerSession',
  );
  const idleMs = positive(options.idleTimeoutMs ?? DEFAULT_IDLE_MS, 'legacy.idleTimeoutMs');
  const prefix = sessionIdPrefix(options.sessionIdPrefix);
  const sessions = new Map<string, HttpSession>();
  let warned = false;
  /** Tells the operator once that `authenticate` returns an `AuthInfo` without clientId, issuer or subject. */
  const warnOnce = (nobody: boolean) => {
    if (warned) return;
    warned = true;
    const effect = nobody
      ? 'nor a token: such callers get no 2025-11-25 session (403)'
      : 'so 2025-11-25 sessions are bound to the token itself (a refreshed token cannot reuse its session)';
    onError(new Error(`authenticate returned an AuthInfo without clientId, issuer or subject, ${effect}`));
  };

  /**
   * What must end before `newcomer` joins the table (see above): `null` when there is room, `undefined` when
   * nothing may end.
   */
  const roomFor = (newcomer: HttpSession): HttpSession | null | undefined => {
    const { principal } = newcomer;
    let own = 0;
    let ownQuiet: HttpSession | undefined;
    let anonymousQuiet: HttpSession | undefined;
    let anonymousAny: HttpSession | undefined;
    for (const session of sessions.values()) {
      if (session.principal === principal) {
        own++;
        if (session.quiet) ownQuiet = earlier(session, ownQuiet);
      }
      if (session.anonymous) {
        anonymousAny = earlier(session, anonymousAny);
        if (session.quiet) anonymousQuiet = earlier(session, anonymousQuiet);
      }
    }
    if (!newcomer.anonymous && own >= quota) return ownQuiet;
    if (sessions.size < max) return null;
    if (newcomer.anonymous) return anonymousQuiet;
    return anonymousQuiet ?? ownQuiet ?? anonymousAny;
  };

  return {
    find(id, auth) {
      const session = sessions.get(id);
      return session?.belongsTo(auth) === true ? session : undefined;
    },
    async open(message, exchange, auth) {
      const who = principalOf(auth);
      if (who === undefined || (who !== null && 'token' in who)) warnOnce(who === undefined);
      if (who === undefined) {
        return refuse(403, 'Forbidden: the credentials name no principal to bind a session to');
      }
      const id = prefix + newSessionId();
      const session = new HttpSession({
        id,
        auth,
        idleMs,
        maxStreams,
        forget: () => sessions.delete(id),
        onError,
      });
      const victim = roomFor(session);
      if (victim === undefined) {
        return refuse(503, 'Service Unavailable: too many open sessions', {}, ErrorCode.InternalError);
      }
      sessions.set(id, session); // before ending the victim: a concurrent initialize sees the table as full
      if (victim !== null) await victim.end();
      try {
        await session.start(handler, auth);
      } catch (error) {
        onError(error);
        await session.end();
        return refuse(500, 'Internal error', {}, ErrorCode.InternalError);
      }
      const { reply, ok } = await session.initialize(message, exchange, auth);
      return ok ? withHeader(reply, HeaderName.session.toLowerCase(), id) : reply;
    },
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.end()));
    },
  };
}

/** Whichever of two sessions was active less recently (`b` may be absent). */
function earlier(a: HttpSession, b: HttpSession | undefined): HttpSession {
  return b === undefined || a.lastActive < b.lastActive ? a : b;
}

/** 192 random bits in hex: visible ASCII, unguessable. */
function newSessionId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The checked `sessionIdPrefix` (`''` when absent); `TypeError` when it is not 0-32 visible ASCII characters. */
function sessionIdPrefix(prefix: unknown): string {
  if (prefix === undefined) return '';
  if (typeof prefix !== 'string' || !/^[\x21-\x7e]{0,32}$/.test(prefix)) {
    throw new TypeError(
      `"legacy.sessionIdPrefix" expected at most 32 visible ASCII characters, got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}

function withHeader(reply: Reply, name: string, value: string): Reply {
  if (isResponse(reply)) {
    reply.headers.set(name, value);
    return reply;
  }
  return { ...reply, headers: { ...reply.headers, [name]: value } };
}
