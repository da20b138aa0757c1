import { OAuthError } from './errors.js';

/**
 * `value` as a URL when it is `https`, or `http` on a loopback host (`localhost`, `127.0.0.1`, `[::1]`); else
 * `OAuthError('insecure')`. For redirect URIs (MCP: "either `localhost` or HTTPS"), and for an authorization
 * server's issuer, whose loopback form is a development server on this machine; its endpoints then pass
 * {@link requireSecureEndpoint}.
 */
export function requireSecure(value: string, what: string): URL {
  const url = parseUrl(value, what);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new OAuthError('insecure', `the ${what} ${url.origin} is neither https nor loopback http`);
  }
  return url;
}

/**
 * An endpoint of the authorization server `issuer` (authorization, token, registration, JWKS) as a URL, checked
 * before anything (a code, a verifier, a secret, an assertion) is sent to it or trusted from it: `https`, or
 * `http` on a loopback host only when `issuer` is itself on a loopback host (a whole development server on this
 * machine). MCP requires HTTPS for every authorization server endpoint; the exemption never lets a remote
 * server's metadata point the client at plain http, not even at this machine's. Else `OAuthError('insecure')`.
 */
export function requireSecureEndpoint(value: unknown, what: string, issuer: string): URL {
  const url = parseUrl(value, what);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url) && isLoopbackUrl(issuer)) return url;
  throw new OAuthError(
    'insecure',
    `the ${what} ${url.origin} of ${issuer} is not https (loopback http only for an issuer on this machine)`,
  );
}

/** Whether `url` names this machine: `localhost`, `127.0.0.1` or `[::1]`. */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
}

/** Whether the URL string `value` names this machine (false for a string that is not a URL). */
export function isLoopbackUrl(value: string): boolean {
  try {
    return isLoopback(new URL(value));
  } catch {
    return false;
  }
}

function parseUrl(value: unknown, what: string): URL {
  if (typeof value === 'string') {
    try {
      return new URL(value);
    } catch {
      // reported below
    }
  }
  throw new OAuthError('insecure', `the ${what} ${JSON.stringify(value)} is not a URL`);
}
