// The headless client: a stock report that runs with nobody at the keyboard (a cron job, a CI step). It signs in
// with the OAuth client credentials grant as a service client the operator registered at the authorization
// server, then calls `check_stock` for each title; no browser, no redirect, no question to answer.
import {
  bearerAuth,
  clientCredentials,
  type ProtectedResourceEndpoint,
  protectedResourceMetadata,
  withOAuth,
} from '@boomerang/auth';
import { Client } from '@boomerang/client';
import type { AuthInfo } from '@boomerang/protocol';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { startAuthServer } from './auth-server.js';
import { createBookshopServer } from './bookshop.js';

/** The scope a stock report needs; the service client may ask for nothing else. */
export const STOCK_SCOPE = 'books:stock';

/** Options of {@link runHeadlessClient}. */
export interface HeadlessClientOptions {
  /** The titles to report on (default three of the catalogue). */
  readonly titles?: readonly string[] | undefined;
  /** Sign in with this secret instead of the one the registration returned (to show a refusal). */
  readonly secret?: string | undefined;
}

/** What the report came to. */
export interface HeadlessOutcome {
  /** The principal the bookshop verified: the service client itself. */
  readonly principal: AuthInfo | undefined;
  /** One line per title, as `check_stock` answered. */
  readonly report: readonly string[];
}

/**
 * Starts the authorization server (registering the service client `stock-report` for {@link STOCK_SCOPE}) and the
 * bookshop behind `bearerAuth` on 127.0.0.1, then signs in with `withOAuth(fetch, { grant: clientCredentials(...) })`
 * and reports the stock of each title. Prints what happens (URLs and statuses, never the secret or a token) and
 * stops everything it started, also on failure.
 */
export async function runHeadlessClient(
  options: HeadlessClientOptions,
  out: (line: string) => void,
): Promise<HeadlessOutcome> {
  const titles = options.titles ?? ['Dune', 'Neuromancer', 'Solaris'];
  await using as = await startAuthServer({ scopes: [STOCK_SCOPE] });
  const service = as.registerServiceClient({ name: 'stock-report', scopes: [STOCK_SCOPE] });

  // bearerAuth and the metadata need the resource URL, known once the server listens.
  const protection: {
    authenticate?: (r: Request) => Promise<AuthInfo | Response>;
    prm?: ProtectedResourceEndpoint;
  } = {};
  let principal: AuthInfo | undefined;
  await using endpoint = await listen(createBookshopServer({ logger: {} }), {
    host: '127.0.0.1',
    authenticate: async (request) => {
      const outcome = await (protection.authenticate as (r: Request) => Promise<AuthInfo | Response>)(
        request,
      );
      if (!(outcome instanceof Response)) principal ??= outcome;
      return outcome;
    },
    routes: {
      '/.well-known/oauth-protected-resource/mcp': (request) =>
        (protection.prm as ProtectedResourceEndpoint).handler(request),
    },
  });
  const resource = endpoint.url.href;
  protection.prm = protectedResourceMetadata({ resource, authorization_servers: [as.issuer] });
  protection.authenticate = bearerAuth({
    verify: (token) => as.verify(token, resource),
    resourceMetadata: protection.prm.url,
    requiredScopes: [STOCK_SCOPE],
  });

  out(`Bookshop stock report, headless: ${resource} (authorization server ${as.issuer})`);
  out(`Service client: ${service.clientId} (registered by the operator; its secret stays in this process)`);
  const fetch = withOAuth(undefined, {
    grant: clientCredentials({
      issuer: as.issuer, // the operator registered the service client there: its secret goes nowhere else
      clientId: service.clientId,
      clientSecret: options.secret ?? service.clientSecret,
    }),
    onEvent: (message) => out(`  [oauth] ${message}`),
  });
  const client = new Client({ name: 'bookshop-stock-report', version: '1.0.0' });
  try {
    await client.connect(new StreamableHttpClientTransport(endpoint.url, { fetch }));
    out(`  [server] signed in as ${principal?.subject} (scopes ${principal?.scopes?.join(' ')})`);
    const report: string[] = [];
    for (const title of titles) {
      const result = await client.callTool('check_stock', { title });
      const line = result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
      report.push(line);
      out(`${title}: ${line}`);
    }
    return { principal, report };
  } finally {
    await client.close();
  }
}
