import { Client, isClientError } from '@boomerang/client';
import { elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { Server, sealed } from '@boomerang/server';
import { createHttpHandler, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { describe, expect, it } from 'vitest';
import { headlessRedirect } from './authorize.js';
import { bearerAuth, protectedResourceMetadata } from './bearer.js';
import { mockAuthorizationServer, network } from './test-support/mock.js';
import { withOAuth } from './with-oauth.js';

// Client ↔ Server over Streamable HTTP (in process, no sockets): withOAuth on the client transport's fetch,
// bearerAuth + the PRM endpoint on the server, and request state sealed to the authenticated principal.

const MCP = 'https://mcp.example/mcp';
const AS = 'https://as.example';
const tools = [
  { name: 'whoami', inputSchema: { type: 'object' as const } },
  { name: 'ask', inputSchema: { type: 'object' as const } },
];

function protectedServer() {
  const server = new Server(
    { name: 'protected', version: '1.0.0' },
    {
      logger: {},
      requestState: sealed({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
      onListTools: () => ({ tools }),
      onCallTool: ({ name }, ctx) => {
        const who = `${ctx.auth?.subject} via ${ctx.auth?.clientId}`;
        if (name === 'whoami') return { content: [{ type: 'text', text: who }] };
        const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.color);
        if (ctx.requestState === 'asked' && answer.success) {
          return { content: [{ type: 'text', text: `${String(answer.data.content?.color)} for ${who}` }] };
        }
        return inputRequired({
          inputRequests: {
            color: elicitRequest({
              message: 'Which color?',
              requestedSchema: { type: 'object', properties: { color: { type: 'string' } } },
            }),
          },
          requestState: 'asked',
        });
      },
    },
  );
  const alice = mockAuthorizationServer({ issuer: AS, subject: 'alice', registration: false });
  const bob = mockAuthorizationServer({ issuer: AS, subject: 'bob', registration: false });
  const prm = protectedResourceMetadata({
    resource: MCP,
    authorization_servers: [AS],
    scopes_supported: ['mcp'],
  });
  const mcp = createHttpHandler(server, {
    tools,
    authenticate: bearerAuth({
      resourceMetadata: prm.url,
      requiredScopes: ['mcp'],
      verify: (token) => {
        const issued = alice.tokens.get(token) ?? bob.tokens.get(token);
        return issued?.resource === MCP ? issued : undefined; // audience: tokens for this server only
      },
    }),
  });
  const route = (request: Request) =>
    new URL(request.url).pathname.startsWith('/.well-known/') ? prm.handler(request) : mcp(request);
  return { alice, bob, route };
}

async function signIn(
  as: ReturnType<typeof mockAuthorizationServer>,
  route: (r: Request) => Promise<Response>,
) {
  const net = network({ [AS]: as.handler, 'https://mcp.example': route });
  const fetch = withOAuth(net.fetch, {
    redirectUri: 'http://127.0.0.1:7777/callback',
    authorize: headlessRedirect(net.fetch),
    preRegistered: { [AS]: { clientId: 'shared-app' } }, // one OAuth client, two users
  });
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { color: 'teal' } }) },
  );
  await client.connect(new StreamableHttpClientTransport(MCP, { fetch, onWarning: () => {} }));
  return { client, net };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('Client ↔ Server with OAuth over Streamable HTTP', () => {
  it('authorizes on the first 401 and reaches the tools as the signed-in principal', async () => {
    const world = protectedServer();
    const { client, net } = await signIn(world.alice, world.route);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami', 'ask']);
    expect(text(await client.callTool('whoami'))).toBe('alice via shared-app');
    expect(text(await client.callTool('ask'))).toBe('teal for alice via shared-app');
    expect(world.alice.log.authorize).toHaveLength(1);
    expect(world.alice.log.authorize[0]?.get('scope')).toBe('mcp');
    expect(net.requests.filter((r) => r.startsWith(`POST ${MCP}`)).length).toBeGreaterThanOrEqual(5);
    await client.close();
  });

  it('binds request state to the principal: bob cannot continue alice’s round', async () => {
    const world = protectedServer();
    const alice = await signIn(world.alice, world.route);
    const bob = await signIn(world.bob, world.route);
    const first = await alice.client.start('tools/call', { name: 'ask', arguments: {} });
    if (first.continuation === undefined) throw new Error('expected input_required');
    const answers = { color: { action: 'accept', content: { color: 'red' } } } as const;

    const stolen = await bob.client.resume(first.continuation, answers).catch((error: unknown) => error);
    expect(isClientError(stolen, 'state-rejected')).toBe(true);
    expect((stolen as Error).cause).toBeInstanceOf(McpError);
    expect((stolen as Error).cause).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });

    const own = await alice.client.resume(first.continuation, answers);
    expect(own.result === undefined ? undefined : text(own.result as never)).toBe(
      'red for alice via shared-app',
    );
    await alice.client.close();
    await bob.client.close();
  });

  it('surfaces an OAuth failure as the call’s error (resource mismatch: never authorizes)', async () => {
    const world = protectedServer();
    const evil = protectedResourceMetadata({
      resource: 'https://evil.example/mcp',
      authorization_servers: [AS],
    });
    const route = (request: Request) =>
      new URL(request.url).pathname.startsWith('/.well-known/')
        ? evil.handler(new Request('https://evil.example/.well-known/oauth-protected-resource/mcp'))
        : world.route(request);
    // The first request is connect()'s server/discover probe: the failure surfaces there.
    await expect(signIn(world.alice, route)).rejects.toThrow(/resource-mismatch|not authorizing/);
    expect(world.alice.log.authorize).toEqual([]);
  });
});
