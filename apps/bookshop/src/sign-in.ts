// The bookshop's own sign-in, behind its URL elicitation. Accepting a URL elicitation only means the user agreed
// to open the URL (spec: client/elicitation, URL mode), so the tool never trusts the accept: it asks this desk,
// which only the sign-in page itself (out of band, in the user's browser) can tell that an account signed in.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AuthInfo, principalOf } from '@boomerang/protocol';

/** The demo's bookshop accounts: name → password (pretend credentials, typed on the sign-in page only). */
export const DEMO_ACCOUNTS: Readonly<Record<string, string>> = { alice: 'wonderland', bob: 'builder' };

/** Where the page is served (`listen`'s `routes`), and the path of every sign-in URL. */
export const SIGN_IN_PATH = '/sign-in';

/**
 * The sign-in desk of one bookshop process: the URL a caller is sent to, the page behind it, and what the page
 * recorded. A caller's URL carries a ticket (an HMAC of the caller's MCP principal under this process's key:
 * opaque, not a credential, the same for every round of a call so the question is asked once); the page records
 * which account signed in for a ticket only after checking that account's password, and, when the caller is
 * authenticated, that the account is the caller's own subject (so a URL sent to somebody else cannot sign them
 * in on the sender's behalf: the phishing case of the spec). Without MCP authorization every caller is the same
 * anonymous principal and shares one sign-in: fine for a local demo, not for a shop.
 */
export interface SignInDesk {
  /** Serves the page: `GET` the form, `POST` (`ticket`, `account`, `password`, form-encoded) the sign-in. */
  readonly page: (request: Request) => Promise<Response>;
  /** Publishes the page at `origin` (the server's, once it listens). Default: `https://bookshop.example`. */
  publishAt(origin: URL | string): void;
  /** The sign-in URL for the caller `auth`; `undefined` for an `AuthInfo` that names no principal. */
  urlFor(auth: AuthInfo | undefined): string | undefined;
  /** The account the caller `auth` signed in as on the page, if it did. */
  accountOf(auth: AuthInfo | undefined): string | undefined;
}

/** A sign-in desk over `accounts` (default {@link DEMO_ACCOUNTS}). */
export function createSignInDesk(accounts: Readonly<Record<string, string>> = DEMO_ACCOUNTS): SignInDesk {
  const key = randomBytes(32);
  let origin = 'https://bookshop.example';
  /** The subject each minted ticket belongs to (`null`: any account may sign in for it). */
  const minted = new Map<string, string | null>();
  const signedIn = new Map<string, string>();

  const ticketOf = (auth: AuthInfo | undefined): string | undefined => {
    const principal = principalOf(auth);
    if (principal === undefined) return undefined;
    return createHmac('sha256', key).update(JSON.stringify(principal)).digest('base64url');
  };

  const signIn = (form: URLSearchParams): { status: number; text: string } => {
    const ticket = form.get('ticket') ?? '';
    const account = form.get('account') ?? '';
    const subject = minted.get(ticket);
    if (subject === undefined)
      return { status: 400, text: 'This sign-in link is not one the bookshop made.' };
    if (!passwordMatches(accounts[account], form.get('password') ?? '')) {
      return { status: 403, text: 'Wrong account or password.' };
    }
    if (subject !== null && subject !== account) {
      return { status: 403, text: `This link belongs to another customer's session: sign in from your own.` };
    }
    signedIn.set(ticket, account);
    return { status: 200, text: `Signed in as ${account}. You can return to your assistant.` };
  };

  return {
    async page(request) {
      const url = new URL(request.url);
      if (request.method === 'GET') {
        return new Response(formPage(url.searchParams.get('ticket') ?? ''), {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        });
      }
      if (request.method !== 'POST') return new Response('Method not allowed', { status: 405 });
      const { status, text } = signIn(new URLSearchParams(await request.text()));
      return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    },
    publishAt(at) {
      origin = new URL(at).origin;
    },
    urlFor(auth) {
      const ticket = ticketOf(auth);
      if (ticket === undefined) return undefined;
      minted.set(ticket, auth?.subject ?? null);
      return `${origin}${SIGN_IN_PATH}?ticket=${ticket}`;
    },
    accountOf(auth) {
      const ticket = ticketOf(auth);
      return ticket === undefined ? undefined : signedIn.get(ticket);
    },
  };
}

function passwordMatches(expected: string | undefined, given: string): boolean {
  const a = Buffer.from(expected ?? '');
  const b = Buffer.from(given);
  return expected !== undefined && a.length === b.length && timingSafeEqual(a, b);
}

function formPage(ticket: string): string {
  const safe = ticket.replace(/[^\w-]/g, '');
  return `<!doctype html><meta charset="utf-8"><title>Bookshop sign-in</title>
<h1>Sign in to Bookshop</h1>
<form method="post"><input type="hidden" name="ticket" value="${safe}">
<label>Account <input name="account" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button>Sign in</button></form>
`;
}
