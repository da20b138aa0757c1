import { afterEach, describe, expect, it } from 'vitest';
import { type AuthServer, startAuthServer } from './auth-server.js';

const RESOURCE = 'http://127.0.0.1:1/mcp';

describe('the demo authorization server: client credentials', () => {
  const servers: AuthServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const start = async () => {
    const as = await startAuthServer({ scopes: ['books:stock', 'books:order'] });
    servers.push(as);
    const service = as.registerServiceClient({ name: 'report', scopes: ['books:stock'] });
    const token = (body: Record<string, string>, authorization?: string) =>
      fetch(`${as.issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization !== undefined && { authorization }),
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: RESOURCE, ...body }),
      });
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    return { as, service, token, basic };
  };

  it('advertises the grant and both secret methods', async () => {
    const { as } = await start();
    const metadata = await (await fetch(`${as.issuer}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      grant_types_supported: ['authorization_code', 'client_credentials'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    });
  });

  it('issues a token for the resource to the service client, authenticated with Basic or in the body', async () => {
    const { as, service, token, basic } = await start();
    for (const response of [
      await token({}, basic(service.clientId, service.clientSecret)),
      await token({ client_id: service.clientId, client_secret: service.clientSecret, scope: 'books:stock' }),
    ]) {
      expect(response.status).toBe(200);
      const body = (await response.json()) as { access_token: string; token_type: string; scope: string };
      expect(body).toMatchObject({ token_type: 'Bearer', scope: 'books:stock' });
      expect(as.verify(body.access_token, RESOURCE)).toMatchObject({
        clientId: service.clientId,
        subject: service.clientId,
        scopes: ['books:stock'],
      });
      expect(as.verify(body.access_token, 'http://127.0.0.1:2/mcp')).toBeUndefined();
    }
  });

  it('refuses a wrong secret, an unknown or public client, and two authentication methods at once', async () => {
    const { service, token, basic } = await start();
    const refusals = [
      await token({}, basic(service.clientId, 'wrong')),
      await token({ client_id: service.clientId, client_secret: `${service.clientSecret}x` }),
      await token({}, basic('bookshop-service-nobody', service.clientSecret)),
      await token({ client_id: 'bookshop-client-1' }), // a registered public client: no secret, no such grant
      await token({ client_secret: service.clientSecret }, basic(service.clientId, service.clientSecret)),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="bookshop"');
      expect(await response.json()).toEqual({ error: 'invalid_client' });
    }
  });

  it('wants a resource, and no scope beyond the client’s', async () => {
    const { service, token, basic } = await start();
    const auth = basic(service.clientId, service.clientSecret);
    const noResource = await token({ resource: '' }, auth);
    expect(noResource.status).toBe(400);
    expect(await noResource.json()).toMatchObject({ error: 'invalid_target' });
    const beyond = await token({ scope: 'books:stock books:order' }, auth);
    expect(beyond.status).toBe(400);
    expect(await beyond.json()).toEqual({ error: 'invalid_scope' });
  });

  it('registers service clients only for scopes it offers', async () => {
    const { as } = await start();
    expect(() => as.registerServiceClient({ name: 'x', scopes: ['admin'] })).toThrow(RangeError);
  });
});
