// Who is at the page. The inbox knows a list of people by name; each gets a sign-in link holding a sealed token
// (@boomerang/seal: encrypted, expiring, bound to its purpose), which trades for a session cookie sealed the same
// way, naming the person and a random session id. Forms carry a third sealed token (CSRF), bound to the person. The
// three purposes are three seal contexts, so no token stands in for another. With the same keys (`INBOX_SECRET`),
// links and sessions survive a restart. Signing out revokes the session's id (sessions.ts): a copy of the cookie
// taken before opens nothing after.
import { randomUUID } from 'node:crypto';
import { createSealer, generateKey, SealError, type Sealer } from '@boomerang/seal';
import { memoryRevokedSessions, type RevokedSessions } from '../sessions.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'inbox_session';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SIGN_IN_TTL = 7 * 24 * 3600;
const SESSION_TTL = 12 * 3600;

/** The people of an inbox and their tokens. */
export interface People {
  readonly names: readonly string[];
  /** The path (with its token) that signs `name` in. Throws `RangeError` for a name that is not one of them. */
  signInPath(name: string): string;
  /** The person a sign-in token names, or `undefined` for a token that is not one (forged, expired, sealed under other keys). */
  personFromSignIn(token: string): string | undefined;
  /** The `Set-Cookie` value of a new session for `name` (12 h). Throws `RangeError` for a name that is not one of them. */
  sessionCookie(name: string, secure: boolean): string;
  /** The `Set-Cookie` value that deletes the session cookie from the browser. */
  endSessionCookie(): string;
  /** The person whose session cookie `request` carries, if any: a cookie sealed by these keys, not expired, not revoked. */
  personOf(request: Request): Promise<string | undefined>;
  /**
   * Revokes the session whose cookie `request` carries (if it carries one): from now on that cookie opens nothing,
   * wherever it is presented, until it would have expired anyway.
   */
  endSession(request: Request): Promise<void>;
  /** A form's CSRF token for `person`. */
  csrfToken(person: string): string;
  /** True when `token` is a CSRF token minted for `person`. */
  checkCsrf(person: string, token: string | null): boolean;
}

/** Options of {@link createPeople}. */
export interface PeopleOptions {
  /** The people, by name (letters, digits, `.`, `_`, `-`; 64 at most). */
  readonly names: readonly string[];
  /** Secrets of ≥ 32 bytes, newest first (default: one made for this process, so links die with it). */
  readonly keys?: readonly Uint8Array[];
  /** Epoch ms. */
  readonly clock?: () => number;
  /**
   * Where signed-out sessions are recorded (default: this process's memory). Every process serving the page from
   * one database must share it: `revokedSessions(db)`.
   */
  readonly revoked?: RevokedSessions;
}

/** What a session cookie seals: who, which session, and until when (epoch ms) it is valid. */
interface Session {
  readonly person: string;
  readonly id: string;
  readonly until: number;
}

/** Reads one cookie of a `Cookie` header. */
function cookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The people of an inbox. Throws `TypeError` for an empty list, a duplicate or a name that is not a plain one
 * (names go into links, cookies and the page).
 */
export function createPeople(options: PeopleOptions): People {
  const names = [...options.names];
  if (names.length === 0) throw new TypeError('people expected at least one name');
  for (const name of names) {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new TypeError(
        `person name expected letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`,
      );
    }
  }
  if (new Set(names).size !== names.length) throw new TypeError('people names must be unique');
  const known = new Set(names);
  const clock = options.clock ?? Date.now;
  const revoked = options.revoked ?? memoryRevokedSessions({ clock });
  const sealer: Sealer = createSealer({
    keys: options.keys ?? [generateKey()],
    audience: 'boomerang-inbox',
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const seal = (person: string, context: string, ttlSeconds: number) =>
    sealer.sealJson({ person }, { context, ttlSeconds });
  /** The sealed value of `token` under `context`, when it names one of the people. */
  const unseal = (token: string | null | undefined, context: string): Record<string, unknown> | undefined => {
    if (typeof token !== 'string') return undefined;
    try {
      const value = sealer.unsealJson(token, { context }) as Record<string, unknown>;
      return typeof value.person === 'string' && known.has(value.person) ? value : undefined;
    } catch (error) {
      if (error instanceof SealError) return undefined;
      throw error;
    }
  };
  const open = (token: string | null | undefined, context: string): string | undefined => {
    const person = unseal(token, context)?.person;
    return typeof person === 'string' ? person : undefined;
  };
  /** The session a request's cookie seals (revoked or not). */
  const sessionOf = (request: Request): Session | undefined => {
    const { person, id, until } =
      unseal(cookie(request.headers.get('cookie'), SESSION_COOKIE), 'session') ?? {};
    if (typeof person !== 'string' || typeof id !== 'string' || typeof until !== 'number') return undefined;
    return { person, id, until };
  };
  return {
    names,
    signInPath(name) {
      if (!known.has(name)) throw new RangeError(`"${name}" is not one of the inbox's people`);
      return `/sign-in?token=${seal(name, 'sign-in', SIGN_IN_TTL)}`;
    },
    personFromSignIn: (token) => open(token, 'sign-in'),
    sessionCookie(name, secure) {
      if (!known.has(name)) throw new RangeError(`"${name}" is not one of the inbox's people`);
      // `until` is at or after the seal's own expiry, so the revocation outlives the cookie.
      const session: Session = { person: name, id: randomUUID(), until: clock() + SESSION_TTL * 1000 };
      const value = sealer.sealJson(session, { context: 'session', ttlSeconds: SESSION_TTL });
      return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL}${secure ? '; Secure' : ''}`;
    },
    endSessionCookie: () => `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    async personOf(request) {
      const session = sessionOf(request);
      if (session === undefined || (await revoked.isRevoked(session.id))) return undefined;
      return session.person;
    },
    async endSession(request) {
      const session = sessionOf(request);
      if (session !== undefined) await revoked.revoke(session.id, session.until);
    },
    csrfToken: (person) => seal(person, `csrf`, SESSION_TTL),
    checkCsrf: (person, token) => open(token, 'csrf') === person,
  };
}
