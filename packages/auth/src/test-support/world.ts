// One MCP server, one or two authorization servers, and a withOAuth-wrapped fetch between them.
import { headlessRedirect } from '../authorize.js';
import { memoryStore } from '../store.js';
import { type OAuthOptions, withOAuth } from '../with-oauth.js';
import {
  type MockAsOptions,
  type MockResourceOptions,
  mockAuthorizationServer,
  mockResource,
  network,
} from './mock.js';

export const MCP = 'https://mcp.example/mcp';
export const AS = 'https://as.example';
export const REDIRECT = 'http://127.0.0.1:9999/callback';

export function world(
  as: Partial<MockAsOptions> = {},
  rs: Partial<MockResourceOptions> = {},
  oauth: Partial<OAuthOptions> = {},
) {
  const authServer = mockAuthorizationServer({ issuer: AS, ...as });
  const resource = mockResource({
    url: MCP,
    authorizationServers: () => [authServer.issuer],
    tokens: () => [authServer.tokens],
    ...rs,
  });
  const net = network({
    [new URL(authServer.issuer).origin]: authServer.handler,
    [new URL(MCP).origin]: resource.handler,
  });
  const events: string[] = [];
  const store = oauth.store ?? memoryStore();
  const fetch = withOAuth(net.fetch, {
    redirectUri: REDIRECT,
    authorize: headlessRedirect(net.fetch),
    onEvent: (message) => events.push(message),
    store,
    ...oauth,
  });
  const call = (
    body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    headers: Record<string, string> = {},
  ) =>
    fetch(new URL(MCP), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  return { as: authServer, rs: resource, net, fetch, events, store, call };
}

/** The requests made so far whose URL contains `part`. */
export function requestsTo(requests: readonly string[], part: string): string[] {
  return requests.filter((line) => line.includes(part));
}
