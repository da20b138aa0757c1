// How the conformance client signs in: `@boomerang/auth`'s `withOAuth` around the transport's fetch, headless
// (the referee's authorization servers redirect at once), with the identity the referee expects.
import {
  type ClientCredentials,
  type FetchLike,
  headlessRedirect,
  type OAuthOptions,
  type PreRegisteredClients,
  withOAuth,
} from '@boomerang/auth';

/** The redirect URI registered and sent: never listened on, `headlessRedirect` reads the `Location` instead. */
export const REDIRECT_URI = 'http://localhost:3000/callback';

/** This client's Client ID Metadata Document URL, used where the AS supports CIMD (the referee never fetches it). */
export const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * Pre-registered credentials from `MCP_CONFORMANCE_CONTEXT` (`auth/pre-registration`:
 * `{client_id, client_secret?, issuer}`), keyed by the issuer they belong to; `undefined` when it has none.
 */
export function preRegisteredFrom(
  context: Readonly<Record<string, unknown>>,
): PreRegisteredClients | undefined {
  const { client_id: clientId, client_secret: clientSecret, issuer } = context;
  if (typeof clientId !== 'string' || clientId === '' || typeof issuer !== 'string' || issuer === '')
    return undefined;
  const client: ClientCredentials = {
    clientId,
    ...(typeof clientSecret === 'string' && clientSecret !== '' && { clientSecret }),
  };
  return { [issuer]: client };
}

/** What {@link oauthFetch} needs besides the context. */
export interface OAuthFetchOptions {
  /** The fetch to wrap (default `globalThis.fetch`); the authorization servers are reached through it too. */
  readonly fetch?: FetchLike | undefined;
  /** Progress notes from `withOAuth` (URLs, statuses, reasons; never a secret). */
  readonly onEvent?: ((message: string) => void) | undefined;
}

/**
 * A fetch for `StreamableHttpClientTransport` that authorizes on a 401 (or a 403 `insufficient_scope`) without a
 * browser: discovery, client identity (pre-registered from the context, else CIMD, else DCR), PKCE, `resource`,
 * `iss` checks, step-up; other responses pass through untouched, so it serves every scenario.
 */
export function oauthFetch(
  context: Readonly<Record<string, unknown>> = {},
  options: OAuthFetchOptions = {},
): FetchLike {
  const preRegistered = preRegisteredFrom(context);
  const settings: OAuthOptions = {
    redirectUri: REDIRECT_URI,
    authorize: headlessRedirect(options.fetch),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'boomerang-everything-client',
    ...(preRegistered !== undefined && { preRegistered }),
    ...(options.onEvent !== undefined && { onEvent: options.onEvent }),
  };
  return withOAuth(options.fetch, settings);
}
