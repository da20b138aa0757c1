// The README's DPoP resource-server example: quoted from the first import on; run by machine.examples.test.ts.
import { bearerAuth, protectedResourceMetadata } from '@boomerang/auth';
import { dpopVerifier, jwtVerifier, rotatingDpopNonce } from '@boomerang/auth/jwt';
import { Server } from '@boomerang/server';
import { createHttpHandler } from '@boomerang/transport-http';

const RESOURCE = 'https://reports.example.com/mcp';
const ISSUER = 'https://auth.example.com';

const server = new Server(
  { name: 'reports', version: '1.0.0' },
  {
    onListTools: () => ({ tools: [{ name: 'export', inputSchema: { type: 'object' } }] }),
    onCallTool: (_params, ctx) => ({ content: [{ type: 'text', text: `report for ${ctx.auth?.clientId}` }] }),
  },
);

/** Served at https://reports.example.com/.well-known/oauth-protected-resource/mcp */
export const metadata = protectedResourceMetadata({ resource: RESOURCE, authorization_servers: [ISSUER] });

const mcp = createHttpHandler(server, {
  allowedHosts: ['reports.example.com'],
  authenticate: bearerAuth({
    verify: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${ISSUER}/.well-known/jwks.json` }),
    resourceMetadata: metadata.url,
    dpop: dpopVerifier({ nonce: rotatingDpopNonce() }), // proofs checked, replays refused, nonces handed out
    dpopRequired: true, // a stolen token alone is useless: only the holder of its key can present it
  }),
});

export default {
  fetch: (request: Request): Promise<Response> =>
    new URL(request.url).pathname.startsWith('/.well-known/') ? metadata.handler(request) : mcp(request),
};
