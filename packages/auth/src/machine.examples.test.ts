import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@boomerang/server';
import { createHttpHandler } from '@boomerang/transport-http';
import { exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerAuth, protectedResourceMetadata } from './bearer.js';
import { parseBearerChallenge, parseDpopChallenge } from './challenge.js';
import { nightlyReport } from './client-credentials.examples.js';
import dpopServer, { metadata } from './dpop-server.examples.js';
import { enterpriseFetch } from './enterprise.examples.js';
import { keyBoundFetch } from './private-key-jwt.examples.js';
import {
  identityProvider,
  machineAuthorizationServer,
  machineServers,
  signJwt,
} from './test-support/machine.js';
import { network } from './test-support/mock.js';
import { workloadFetch } from './workload.examples.js';

const AS = 'https://as.example';
const MCP = 'https://mcp.example/mcp';

describe('README: client credentials', () => {
  /** The reports server of the example, behind bearerAuth, with a machine authorization server. */
  function reports() {
    const as = machineAuthorizationServer({
      issuer: AS,
      clients: { 'reports-bot': { secret: 'bot-secret' } },
    });
    const server = new Server(
      { name: 'reports', version: '1.0.0' },
      {
        onListTools: () => ({ tools: [{ name: 'export', inputSchema: { type: 'object' } }] }),
        onCallTool: (params, ctx) => ({
          content: [{ type: 'text', text: `${String(params.arguments?.format)} for ${ctx.auth?.clientId}` }],
        }),
      },
    );
    const prm = protectedResourceMetadata({ resource: MCP, authorization_servers: [AS] });
    const mcp = createHttpHandler(server, {
      authenticate: bearerAuth({
        resourceMetadata: prm.url,
        verify: (token) => (as.tokens.get(token)?.resource === MCP ? as.tokens.get(token) : undefined),
      }),
    });
    const net = network({
      [AS]: as.handler,
      'https://mcp.example': (r) =>
        new URL(r.url).pathname.startsWith('/.well-known/') ? prm.handler(r) : mcp(r),
    });
    return { as, net };
  }

  it('exports the report as the service account', async () => {
    const { as, net } = reports();
    expect(await nightlyReport(MCP, 'bot-secret', net.fetch)).toBe('csv for reports-bot');
    expect(as.log.map((entry) => entry.body.get('grant_type'))).toEqual(['client_credentials']);
  });

  it('fails the call with the token endpoint refusal for a wrong secret, without the secret', async () => {
    const { net } = reports();
    const error = (await nightlyReport(MCP, 'not-the-secret', net.fetch).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('refused the client_credentials grant: HTTP 401 (invalid_client)');
    expect(error.message).not.toContain('not-the-secret');
  });
});

describe('README: private_key_jwt and DPoP', () => {
  it('authenticates with the key and presents a DPoP-bound token', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const w = machineServers({ clients: { 'reports-bot': { publicKey } }, dpop: {} }, { rs: { dpop: {} } });
    const signed = await keyBoundFetch(await exportPKCS8(privateKey), w.net.fetch);
    expect((await signed(new URL(MCP), { method: 'POST', body: '{}' })).status).toBe(200);
    expect(w.as.log[0]?.body.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    expect(w.rs.seen[0]).toMatchObject({
      clientId: 'reports-bot',
      extra: { cnf: { jkt: expect.any(String) } },
    });
    expect(w.rs.dpopSeen.map((entry) => entry.scheme)).toEqual(['DPoP']);
  });
});

describe('README: workload identity', () => {
  it('reads the projected token file and signs in with it', async () => {
    const platform = await generateKeyPair('ES256');
    const dir = await mkdtemp(join(tmpdir(), 'boomerang-readme-wif-'));
    try {
      const file = join(dir, 'mcp-token');
      const token = await signJwt(platform.privateKey, {
        iss: 'https://k8s.example',
        aud: AS,
        sub: 'system:serviceaccount:jobs:nightly',
      });
      await writeFile(file, token);
      const w = machineServers({ assertionIssuers: { 'https://k8s.example': platform.publicKey } });
      const response = await workloadFetch(file, w.net.fetch)(new URL(MCP), { method: 'POST', body: '{}' });
      expect(response.status).toBe(200);
      expect(w.rs.seen[0]).toMatchObject({ subject: 'system:serviceaccount:jobs:nightly' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('README: enterprise-managed authorization', () => {
  it('turns the SSO ID token into an access token through the IdP', async () => {
    const IDP = 'https://login.acme.example';
    const idTokenKey = await generateKeyPair('ES256');
    const jagKey = await generateKeyPair('ES256');
    const idp = identityProvider({
      issuer: IDP,
      idTokenKey: idTokenKey.publicKey,
      idTokenAudience: 'notes-app',
      jagKey: jagKey.privateKey,
      jagClientId: 'notes-app',
    });
    const w = machineServers(
      {
        clients: { 'notes-app': { secret: 'from-your-secret-store' } },
        assertionIssuers: { [IDP]: jagKey.publicKey },
      },
      { idp },
    );
    const idToken = () =>
      signJwt(idTokenKey.privateKey, { iss: IDP, aud: 'notes-app', sub: 'ada@acme.example' });
    const response = await enterpriseFetch(idToken, w.net.fetch)(new URL(MCP), {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(w.rs.seen[0]).toMatchObject({ subject: 'ada@acme.example', clientId: 'notes-app' });
  });
});

describe('README: a DPoP-only resource server', () => {
  it('answers 401 with only a DPoP challenge, and serves its metadata', async () => {
    const response = await dpopServer.fetch(
      new Request('https://reports.example.com/mcp', {
        method: 'POST',
        headers: { host: 'reports.example.com' },
      }),
    );
    expect(response.status).toBe(401);
    const header = response.headers.get('www-authenticate');
    expect(parseBearerChallenge(header)).toBeUndefined();
    expect(parseDpopChallenge(header)).toMatchObject({
      resourceMetadata: metadata.url,
      algs: expect.arrayContaining(['ES256']),
    });
    const bearer = await dpopServer.fetch(
      new Request('https://reports.example.com/mcp', {
        method: 'POST',
        headers: { host: 'reports.example.com', authorization: 'Bearer stolen' },
      }),
    );
    expect(bearer.status).toBe(401);
  });
});
