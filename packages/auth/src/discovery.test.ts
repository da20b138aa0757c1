import { describe, expect, it } from 'vitest';
import {
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  resourceMatches,
  resourceOf,
} from './discovery.js';
import { network } from './test-support/mock.js';

describe('resourceMatches', () => {
  it.each([
    ['https://mcp.example/mcp', 'https://mcp.example/mcp', true],
    ['https://mcp.example/mcp', 'https://mcp.example', true],
    ['https://mcp.example/mcp', 'https://mcp.example/', true],
    ['https://mcp.example/mcp', 'HTTPS://MCP.EXAMPLE/mcp', true],
    ['https://mcp.example/a/mcp', 'https://mcp.example/a', true],
    ['https://mcp.example/mcp', 'https://evil.example/mcp', false],
    ['https://mcp.example/mcp', 'http://mcp.example/mcp', false],
    ['https://mcp.example/mcp', 'https://mcp.example:8443/mcp', false],
    ['https://mcp.example/mcp2', 'https://mcp.example/mcp', false],
    ['https://mcp.example/mcp', 'https://mcp.example/mcp/deeper', false],
    ['https://mcp.example/mcp', 'https://mcp.example/mcp?x=1', false],
    ['https://mcp.example/mcp', 'not a url', false],
  ])('%s under %s → %s', (server, resource, expected) => {
    expect(resourceMatches(server, resource)).toBe(expected);
  });

  it('resourceOf drops query and fragment', () => {
    expect(resourceOf('https://mcp.example/mcp?a=1#f')).toBe('https://mcp.example/mcp');
  });
});

describe('authorizationServerMetadataUrls', () => {
  it('inserts, then appends, for a path issuer; never the root documents', () => {
    expect(authorizationServerMetadataUrls('https://auth.example/tenant1')).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example/.well-known/openid-configuration/tenant1',
      'https://auth.example/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('uses the two root documents for a path-less issuer', () => {
    expect(authorizationServerMetadataUrls('https://auth.example')).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server',
      'https://auth.example/.well-known/openid-configuration',
    ]);
  });
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** `fetch` as a runtime does it: redirects followed unless `redirect` says otherwise. */
const following =
  (fetch: FetchLike): FetchLike =>
  async (input, init) => {
    let url = input;
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(url, init);
      const location = response.headers.get('location');
      if (
        init.redirect === 'manual' ||
        location === null ||
        response.status < 300 ||
        response.status >= 400
      ) {
        return response;
      }
      url = new URL(location, url);
    }
    throw new TypeError('too many redirects');
  };

describe('discoverProtectedResource', () => {
  it('prefers the announced URL, then path-aware, then root; stops at the first document', async () => {
    const net = network({
      'https://mcp.example': (request) =>
        new URL(request.url).pathname === '/.well-known/oauth-protected-resource/mcp'
          ? json({ resource: 'https://mcp.example/mcp', authorization_servers: ['https://as.example'] })
          : json({}, 404),
    });
    const found = await discoverProtectedResource('https://mcp.example/mcp', net.fetch, '/custom.json');
    expect(found.url).toBe('https://mcp.example/.well-known/oauth-protected-resource/mcp');
    expect(net.requests).toEqual([
      'GET https://mcp.example/custom.json',
      'GET https://mcp.example/.well-known/oauth-protected-resource/mcp',
    ]);
  });

  it('never fetches a resource_metadata URL off the server origin (link-local, http, another host)', async () => {
    const prm = { resource: 'https://mcp.example/mcp', authorization_servers: ['https://as.example'] };
    for (const announced of [
      'http://169.254.169.254/latest/meta-data/',
      'http://mcp.example/.well-known/oauth-protected-resource/mcp',
      'https://mcp.example:8443/prm',
      'https://evil.example/prm',
    ]) {
      const net = network({
        'https://mcp.example': () => json(prm),
        'http://169.254.169.254': () => json({ ...prm, authorization_servers: ['https://evil.example'] }),
        'http://mcp.example': () => json(prm),
        'https://mcp.example:8443': () => json(prm),
        'https://evil.example': () => json(prm),
      });
      const found = await discoverProtectedResource('https://mcp.example/mcp', net.fetch, announced);
      expect(found.url).toBe('https://mcp.example/.well-known/oauth-protected-resource/mcp');
      expect(net.requests).toEqual(['GET https://mcp.example/.well-known/oauth-protected-resource/mcp']);
    }
  });

  it('refuses a plain-http MCP server (loopback aside) before fetching anything', async () => {
    const prm = { resource: 'http://mcp.example/mcp', authorization_servers: ['https://as.example'] };
    const net = network({ 'http://mcp.example': () => json(prm), 'http://127.0.0.1:3000': () => json(prm) });
    await expect(discoverProtectedResource('http://mcp.example/mcp', net.fetch)).rejects.toMatchObject({
      reason: 'insecure',
    });
    expect(net.requests).toEqual([]);
    await expect(discoverProtectedResource('http://127.0.0.1:3000/mcp', net.fetch)).resolves.toMatchObject({
      metadata: prm,
    });
  });

  it('follows redirects within the origin only', async () => {
    const prm = { resource: 'https://mcp.example/mcp', authorization_servers: ['https://as.example'] };
    const redirect = (location: string) => new Response(null, { status: 307, headers: { location } });
    const net = network({
      'https://mcp.example': (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/.well-known/oauth-protected-resource/mcp') return redirect('/moved');
        if (pathname === '/moved') return json(prm);
        return redirect('https://evil.example/prm');
      },
      'https://evil.example': () => json(prm),
    });
    const found = await discoverProtectedResource('https://mcp.example/mcp', following(net.fetch));
    expect(found.metadata).toEqual(prm);
    const root = await discoverProtectedResource('https://mcp.example/', following(net.fetch)).catch(
      (e: unknown) => e,
    );
    expect(root).toMatchObject({
      reason: 'discovery',
      message: expect.stringMatching(/redirect not followed/),
    });
    expect(net.requests.some((r) => r.includes('evil.example'))).toBe(false);
  });

  it('rejects a document without authorization_servers, and reports every miss', async () => {
    const bad = network({ 'https://mcp.example': () => json({ resource: 'https://mcp.example/mcp' }) });
    await expect(discoverProtectedResource('https://mcp.example/mcp', bad.fetch)).rejects.toMatchObject({
      reason: 'discovery',
    });
    const none = network({ 'https://mcp.example': () => json({}, 404) });
    await expect(discoverProtectedResource('https://mcp.example/mcp', none.fetch)).rejects.toThrow(
      /oauth-protected-resource\/mcp: HTTP 404; .*oauth-protected-resource: HTTP 404/,
    );
  });
});

describe('discoverAuthorizationServer', () => {
  const metadata = {
    issuer: 'https://as.example',
    authorization_endpoint: 'https://as.example/authorize',
    token_endpoint: 'https://as.example/token',
    code_challenge_methods_supported: ['S256'],
  };

  it('validates issuer, endpoints and S256', async () => {
    const serve = (doc: unknown) => network({ 'https://as.example': () => json(doc) }).fetch;
    await expect(discoverAuthorizationServer('https://as.example', serve(metadata))).resolves.toEqual(
      metadata,
    );
    await expect(
      discoverAuthorizationServer(
        'https://as.example',
        serve({ ...metadata, issuer: 'https://as.example/' }),
      ),
    ).rejects.toMatchObject({ reason: 'issuer-mismatch' });
    await expect(
      discoverAuthorizationServer('https://as.example', serve({ ...metadata, token_endpoint: undefined })),
    ).rejects.toMatchObject({ reason: 'discovery' });
    await expect(
      discoverAuthorizationServer(
        'https://as.example',
        serve({ ...metadata, code_challenge_methods_supported: ['plain'] }),
      ),
    ).rejects.toMatchObject({ reason: 'pkce-unsupported' });
  });

  it.each([
    ['authorization_endpoint', 'http://as.example/authorize'],
    ['token_endpoint', 'http://as.example/token'],
    ['registration_endpoint', 'http://as.example/register'],
    ['authorization_endpoint', 'http://127.0.0.1:8080/authorize'],
    ['token_endpoint', 'http://localhost/token'],
    ['authorization_endpoint', 'javascript:alert(1)'],
    ['registration_endpoint', 42],
  ])('refuses metadata whose %s is %s (not https) before it is used', async (field, value) => {
    const fetch = network({ 'https://as.example': () => json({ ...metadata, [field]: value }) }).fetch;
    await expect(discoverAuthorizationServer('https://as.example', fetch)).rejects.toMatchObject({
      reason: 'insecure',
    });
    const machine = { authorizationCode: false };
    await expect(discoverAuthorizationServer('https://as.example', fetch, machine)).rejects.toMatchObject({
      reason: 'insecure',
    });
  });

  it('accepts loopback http endpoints of a loopback issuer, and refuses a plain-http remote issuer unfetched', async () => {
    const local = 'http://127.0.0.1:8080';
    const doc = {
      issuer: local,
      authorization_endpoint: `${local}/authorize`,
      token_endpoint: 'http://localhost:8080/token',
      code_challenge_methods_supported: ['S256'],
    };
    const net = network({ [local]: () => json(doc), 'http://as.example': () => json(metadata) });
    await expect(discoverAuthorizationServer(local, net.fetch)).resolves.toEqual(doc);
    await expect(discoverAuthorizationServer('http://as.example', net.fetch)).rejects.toMatchObject({
      reason: 'insecure',
    });
    expect(net.requests.filter((r) => r.includes('as.example'))).toEqual([]);
  });

  it('for machine grants, needs only the token endpoint (no authorization endpoint, no PKCE)', async () => {
    const machine = { issuer: 'https://as.example', token_endpoint: 'https://as.example/token' };
    const fetch = network({ 'https://as.example': () => json(machine) }).fetch;
    const options = { authorizationCode: false };
    await expect(discoverAuthorizationServer('https://as.example', fetch, options)).resolves.toEqual(machine);
    await expect(discoverAuthorizationServer('https://as.example', fetch)).rejects.toMatchObject({
      reason: 'discovery',
    });
    const noToken = network({ 'https://as.example': () => json({ issuer: 'https://as.example' }) }).fetch;
    await expect(discoverAuthorizationServer('https://as.example', noToken, options)).rejects.toMatchObject({
      reason: 'discovery',
    });
  });

  it('does not follow authorization-server metadata redirected to another origin', async () => {
    const net = network({
      'https://as.example': () =>
        new Response(null, { status: 302, headers: { location: 'https://evil.example/metadata' } }),
      'https://evil.example': () => json({ ...metadata }),
    });
    await expect(
      discoverAuthorizationServer('https://as.example', following(net.fetch)),
    ).rejects.toMatchObject({
      reason: 'discovery',
    });
    expect(net.requests.some((r) => r.includes('evil.example'))).toBe(false);
  });

  it('fails with discovery when no document answers, or a network error', async () => {
    const net = network({});
    await expect(discoverAuthorizationServer('https://as.example', net.fetch)).rejects.toMatchObject({
      reason: 'discovery',
    });
  });
});
