import { describe, expect, it } from 'vitest';
import { authorizeWithCode, headlessRedirect, validateAuthorizationResponse } from './authorize.js';
import { createPkce } from './pkce.js';
import { network } from './test-support/mock.js';

const expected = { issuer: 'https://as.example', issParameterSupported: true, state: 's1' };
const params = (query: string) => new URLSearchParams(query);

describe('authorizeWithCode', () => {
  it('refuses an http:// authorization endpoint before the user is sent there', async () => {
    const net = network({});
    const redirects: URL[] = [];
    const request = {
      as: {
        issuer: 'https://as.example',
        authorization_endpoint: 'http://as.example/authorize',
        token_endpoint: 'https://as.example/token',
      },
      client: { clientId: 'c' },
      redirectUri: 'http://127.0.0.1:9/cb',
      resource: 'https://mcp.example/mcp',
    };
    const redirect = async (url: URL) => {
      redirects.push(url);
      return 'http://127.0.0.1:9/cb?code=c';
    };
    await expect(authorizeWithCode(request, redirect, net.fetch)).rejects.toMatchObject({
      reason: 'insecure',
    });
    expect(redirects).toEqual([]);
    expect(net.requests).toEqual([]);
  });
});

describe('validateAuthorizationResponse', () => {
  it('returns the code of a valid response', () => {
    expect(
      validateAuthorizationResponse(params('code=c&state=s1&iss=https%3A%2F%2Fas.example'), expected),
    ).toBe('c');
  });

  it('checks iss before anything else: a mismatched error response is not acted on', () => {
    const forged = params(
      'error=access_denied&error_description=click+here&state=s1&iss=https%3A%2F%2Fevil.example',
    );
    expect(() => validateAuthorizationResponse(forged, expected)).toThrow(
      expect.objectContaining({ reason: 'iss-mismatch', message: expect.not.stringContaining('click') }),
    );
  });

  it.each([
    ['code=c&state=other&iss=https%3A%2F%2Fas.example', 'state-mismatch'],
    ['code=c&iss=https%3A%2F%2Fas.example', 'state-mismatch'],
    ['error=access_denied&state=s1&iss=https%3A%2F%2Fas.example', 'access-denied'],
    ['state=s1&iss=https%3A%2F%2Fas.example', 'access-denied'],
    ['code=c&state=s1&iss=HTTPS%3A%2F%2FAS.EXAMPLE', 'iss-mismatch'],
    ['code=c&state=s1&iss=https%3A%2F%2Fas.example%3A443', 'iss-mismatch'],
    ['code=c&state=s1', 'iss-missing'],
  ])('%s → %s', (query, reason) => {
    expect(() => validateAuthorizationResponse(params(query), expected)).toThrow(
      expect.objectContaining({ reason }),
    );
  });
});

describe('headlessRedirect', () => {
  it('returns the Location of the 302 without following it', async () => {
    const net = network({
      'https://as.example': () =>
        new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:1/cb?code=c&state=s' } }),
    });
    const url = await headlessRedirect(net.fetch)(new URL('https://as.example/authorize?x=1'));
    expect(String(url)).toBe('http://127.0.0.1:1/cb?code=c&state=s');
  });

  it('fails with access-denied when the AS shows a page instead', async () => {
    const net = network({ 'https://as.example': () => new Response('<form>', { status: 200 }) });
    await expect(headlessRedirect(net.fetch)(new URL('https://as.example/authorize'))).rejects.toMatchObject({
      reason: 'access-denied',
    });
  });
});

describe('createPkce', () => {
  it('makes 43-character verifiers, fresh each time, with the S256 method', async () => {
    const [a, b] = await Promise.all([createPkce(), createPkce()]);
    expect(a.verifier).toMatch(/^[\w-]{43}$/);
    expect(a.challenge).toMatch(/^[\w-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.method).toBe('S256');
  });
});
