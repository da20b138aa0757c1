import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { Server, sealed } from '@boomerang/server';
import { createHttpHandler, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { describe, expect, it } from 'vitest';
import { bearerAuth, protectedResourceMetadata } from './bearer.js';
import { generateDpopKey } from './dpop-key.js';
import { dpopVerifier, rotatingDpopNonce } from './dpop-verifier.js';
import { clientCredentials } from './grants.js';
import { machineAuthorizationServer } from './test-support/machine.js';
import { network } from './test-support/mock.js';
import { withOAuth } from './with-oauth.js';

// A service account reaches a DPoP-only MCP server: client credentials with DPoP at a token endpoint that wants
// a nonce, bearerAuth + dpopVerifier (with its own nonces) on the server, request state sealed to the principal.

const MCP = 'https://mcp.example/mcp';
const AS = 'https://as.example';

function dpopOnlyServer() {
  const server = new Server(
    { name: 'reports', version: '1.0.0' },
    {
      logger: {},
      requestState: sealed({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
      onListTools: () => ({ tools: [{ name: 'export', inputSchema: { type: 'object' } }] }),
      onCallTool: (_params, ctx) => {
        if (ctx.requestState === 'asked') {
          return { content: [{ type: 'text', text: `exported for ${ctx.auth?.clientId}` }] };
        }
        return inputRequired({
          inputRequests: {
            format: elicitRequest({
              message: 'Format?',
              requestedSchema: { type: 'object', properties: { format: { type: 'string' } } },
            }),
          },
          requestState: 'asked',
        });
      },
    },
  );
  const as = machineAuthorizationServer({
    issuer: AS,
    clients: { reporter: { secret: 's3' } },
    dpop: { nonce: 'as-n' },
  });
  const prm = protectedResourceMetadata({ resource: MCP, authorization_servers: [AS] });
  const rejected: string[] = [];
  const mcp = createHttpHandler(server, {
    authenticate: bearerAuth({
      resourceMetadata: prm.url,
      dpop: dpopVerifier({ nonce: rotatingDpopNonce(), onReject: (reason) => rejected.push(reason) }),
      dpopRequired: true,
      verify: (token) => {
        const issued = as.tokens.get(token);
        return issued?.resource === MCP ? issued : undefined;
      },
    }),
  });
  const route = (request: Request) =>
    new URL(request.url).pathname.startsWith('/.well-known/') ? prm.handler(request) : mcp(request);
  return { as, route, rejected };
}

describe('a service account over DPoP, end to end', () => {
  it('signs in with client credentials, learns both nonces, and completes a multi-round call', async () => {
    const world = dpopOnlyServer();
    const sent: Request[] = [];
    const net = network({
      [AS]: world.as.handler,
      'https://mcp.example': (request) => {
        sent.push(request.clone());
        return world.route(request);
      },
    });
    const fetch = withOAuth(net.fetch, {
      grant: clientCredentials({ issuer: AS, clientId: 'reporter', clientSecret: 's3' }),
      dpop: await generateDpopKey(),
    });
    const client = new Client(
      { name: 'reporter', version: '1.0.0' },
      { elicitation: async () => ({ action: 'accept', content: { format: 'csv' } }) },
    );
    await client.connect(new StreamableHttpClientTransport(MCP, { fetch, onWarning: () => {} }));
    const result = await client.callTool('export');
    expect(result.content).toEqual([{ type: 'text', text: 'exported for reporter' }]);
    expect(world.as.log.map((entry) => entry.body.get('grant_type'))).toEqual([
      'client_credentials', // refused: no nonce yet
      'client_credentials',
    ]);
    expect(world.rejected).toEqual(['nonce']); // the server's nonce, asked once and remembered
    expect(sent.filter((r) => r.headers.get('authorization')?.startsWith('Bearer'))).toEqual([]);

    // A captured request replayed as is: its proof has been used.
    const captured = sent.at(-1) as Request;
    const replay = await world.route(captured);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(world.rejected.at(-1)).toBe('replay');
    await client.close();
  });
});
