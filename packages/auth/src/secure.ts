import { OAuthError } from './errors.js';

/**
 * `value` as a URL when it is `https`, or `http` on a loopback host (`localhost`, `127.0.0.1`, `[::1]`: local
 * development and test servers); else `OAuthError('insecure')`. Authorization servers, their token endpoints and
 * redirect URIs pass through here before anything (a code, a secret, an assertion) is sent to them.
 */
export function requireSecure(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError('insecure', `the ${what} ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new OAuthError('insecure', `the ${what} ${url.origin} is neither https nor loopback http`);
  }
  return url;
}

/** Whether `url` names this machine: `localhost`, `127.0.0.1` or `[::1]`. */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
}
