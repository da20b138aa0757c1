// The README's enterprise-managed authorization example: quoted from the first import on; run by
// machine.examples.test.ts.
import { enterpriseManaged, type FetchLike, withOAuth } from '@boomerang/auth';

/**
 * An employee already signed in to the company's identity provider (single sign-on gave the host an ID token):
 * the IdP, not a consent screen, decides which MCP servers that user may reach.
 */
export function enterpriseFetch(idToken: () => Promise<string>, fetch?: FetchLike): FetchLike {
  return withOAuth(fetch, {
    grant: enterpriseManaged({
      issuer: 'https://as.example', // the MCP server's authorization server, where notes-app is registered
      idToken, // exchanged at the IdP for an ID-JAG naming the MCP server, then for an access token
      identityProvider: { issuer: 'https://login.acme.example', client: { clientId: 'notes-app' } },
      client: { clientId: 'notes-app', clientSecret: 'from-your-secret-store' },
    }),
  });
}
