// Redirects on the client transport's requests. A `fetch` that follows a 307/308 POSTs the same body to wherever
// the Location points: the tool's arguments, the answers of a round and its request state, and the credentials of
// the headers, to a host nobody chose, whose answer the client would then trust. So redirects are followed by hand,
// only where policy allows.

/**
 * Which redirects the client transport follows: `'same-origin'` (307 and 308 to the endpoint's own origin: a moved
 * path, a trailing slash), or `'error'` (none). A redirect to another origin is never followed.
 */
export type RedirectPolicy = 'same-origin' | 'error';

/** The redirect policies, for checking the option. */
export const REDIRECT_POLICIES: readonly RedirectPolicy[] = ['same-origin', 'error'];

/** Redirects followed for one request before it fails (fetch's own limit is 20; a loop gives up sooner). */
export const MAX_REDIRECTS = 5;

/** The statuses fetch treats as redirects (304 and the other 3xx are answers). */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A redirect the policy refused: the request went no further than the endpoint that answered it. */
export class RedirectRefusedError extends Error {
  override readonly name = 'RedirectRefusedError';
  /** The redirect's status (0 when a browser hid the redirect: an `opaqueredirect` response). */
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

type Fetch = (input: URL, init: RequestInit) => Promise<Response>;

/** True when `response` is a redirect fetch did not follow (`redirect: 'manual'`): its status, or a browser's opaque one. */
export function isRedirect(response: Response): boolean {
  return REDIRECTS.has(response.status) || response.type === 'opaqueredirect';
}

/**
 * Follows `first`, the redirect that `init` (sent to `url` with `redirect: 'manual'`) got, under `policy`: a
 * 307/308 to `url`'s own origin (any redirect, for a GET) is sent again (same method, body and headers) to its
 * Location when the policy is `'same-origin'`, up to {@link MAX_REDIRECTS} times; any other redirect rejects with
 * a {@link RedirectRefusedError} saying where it pointed and why it was not followed. (A browser hides where a
 * redirect points: there every redirect is refused.) Resolves to the first answer that is not a redirect.
 */
export async function followRedirects(
  fetch: Fetch,
  url: URL,
  init: RequestInit,
  first: Response,
  policy: RedirectPolicy,
): Promise<Response> {
  let target = url;
  let response = first;
  for (let hop = 0; isRedirect(response); hop++) {
    await response.body?.cancel().catch(() => {});
    const opaque = response.type === 'opaqueredirect';
    const location = response.headers.get('location');
    const next = location !== null && URL.canParse(location, target) ? new URL(location, target) : undefined;
    const method = init.method ?? 'GET';
    const why = refusal(policy, response.status, method, opaque, next, url, hop);
    if (why !== undefined) {
      const where = next === undefined ? '' : ` to ${next.origin}${next.pathname}`;
      throw new RedirectRefusedError(
        `${target.origin}${target.pathname} redirected the ${method}${where} (HTTP ${response.status}), not followed: ${why}`,
        response.status,
      );
    }
    target = next as URL;
    response = await fetch(target, init);
  }
  return response;
}

/** `fetch(url, init)` with `redirect: 'manual'` set on `init`, its redirects handled by {@link followRedirects}. */
export async function fetchGuarded(
  fetch: Fetch,
  url: URL,
  init: RequestInit,
  policy: RedirectPolicy,
): Promise<Response> {
  init.redirect = 'manual';
  const response = await fetch(url, init);
  return isRedirect(response) ? followRedirects(fetch, url, init, response, policy) : response;
}

/** Why a redirect is not followed, or `undefined` when it is. */
function refusal(
  policy: RedirectPolicy,
  status: number,
  method: string,
  opaque: boolean,
  next: URL | undefined,
  endpoint: URL,
  hop: number,
): string | undefined {
  if (opaque) return 'the runtime hides where it points (a browser); use the final URL of the endpoint';
  if (next === undefined) return 'it names no valid Location';
  if (next.origin !== endpoint.origin) {
    return (
      `another origin than ${endpoint.origin} would receive the request (arguments, answers, state, credentials); ` +
      'if you trust it, use its URL as the endpoint'
    );
  }
  if (policy === 'error') return 'the transport\'s redirect option is "error"';
  if (status !== 307 && status !== 308 && method !== 'GET') {
    return `a ${status} would turn the ${method} into a GET`;
  }
  if (hop >= MAX_REDIRECTS) return `more than ${MAX_REDIRECTS} redirects`;
  return undefined;
}
