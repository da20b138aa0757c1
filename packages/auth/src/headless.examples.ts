// The README's headless example (agents, CI, the conformance everything-client): quoted from the first import on.
import { type ClientCredentials, headlessRedirect, type OAuthOptions, withOAuth } from '@boomerang/auth';

/** What a conformance run puts in MCP_CONFORMANCE_CONTEXT for `auth/pre-registration`. */
interface Context {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly issuer?: string;
}

/** A fetch for StreamableHttpClientTransport that signs in without a browser (the AS redirects at once). */
export function headlessFetch(context: Context = {}, onEvent?: (message: string) => void) {
  const options: OAuthOptions = {
    redirectUri: 'http://localhost:3000/callback',
    authorize: headlessRedirect(), // GET the authorization URL, read Location: no browser, no listener
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    ...(onEvent !== undefined && { onEvent }),
  };
  if (context.client_id === undefined || context.issuer === undefined) return withOAuth(undefined, options);
  const client: ClientCredentials = {
    clientId: context.client_id,
    ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
  };
  return withOAuth(undefined, { ...options, preRegistered: { [context.issuer]: client } });
}
