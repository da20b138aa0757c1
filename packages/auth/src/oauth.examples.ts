// The README's server example: quoted verbatim from the first import on; run by oauth.examples.test.ts.
import { bearerAuth, protectedResourceMetadata } from '@boomerang/auth';
import { jwtVerifier } from '@boomerang/auth/jwt';
import { Server, sealed } from '@boomerang/server';
import { createHttpHandler } from '@boomerang/transport-http';

const RESOURCE = 'https://mcp.example.com/mcp'; // this server's canonical URL: the tokens' audience
const ISSUER = 'https://auth.example.com'; // the authorization server that signs in its users

const server = new Server(
  { name: 'notes', version: '1.0.0' },
  {
    // State minted for one user (clientId + issuer + subject) is refused for any other.
    requestState: sealed({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
    onListTools: () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }),
    onCallTool: (_params, ctx) => ({ content: [{ type: 'text', text: `You are ${ctx.auth?.subject}` }] }),
  },
);

/** Protected Resource Metadata, served at https://mcp.example.com/.well-known/oauth-protected-resource/mcp */
export const metadata = protectedResourceMetadata({
  resource: RESOURCE,
  authorization_servers: [ISSUER],
  scopes_supported: ['notes:read'],
});

const mcp = createHttpHandler(server, {
  allowedHosts: ['mcp.example.com'],
  authenticate: bearerAuth({
    verify: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${ISSUER}/.well-known/jwks.json` }),
    resourceMetadata: metadata.url, // announced in every 401, so clients find the authorization server
    requiredScopes: ['notes:read'],
  }),
});

/** The module shape Deno (`deno serve`), Bun and Workers expect: the MCP endpoint and its metadata beside it. */
export default {
  fetch: (request: Request): Promise<Response> =>
    new URL(request.url).pathname.startsWith('/.well-known/') ? metadata.handler(request) : mcp(request),
};
