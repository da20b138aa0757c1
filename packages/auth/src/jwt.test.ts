import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtVerifier } from './jwt.js';

const ISSUER = 'https://as.example';
const AUDIENCE = 'https://mcp.example/mcp';
const { publicKey, privateKey } = await generateKeyPair('ES256');
const now = Math.floor(Date.now() / 1000);

function sign(claims: Record<string, unknown>, key: CryptoKey = privateKey) {
  return new SignJWT({ client_id: 'c1', scope: 'mcp:basic mcp:write', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('alice')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(key);
}

const request = new Request(AUDIENCE);

describe('jwtVerifier', () => {
  const rejects: string[] = [];
  const verify = jwtVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    key: publicKey,
    onReject: (r) => rejects.push(r),
  });

  it('maps a valid token to the principal, without the raw token', async () => {
    const auth = await verify(await sign({}), request);
    expect(auth).toMatchObject({
      clientId: 'c1',
      issuer: ISSUER,
      subject: 'alice',
      scopes: ['mcp:basic', 'mcp:write'],
      expiresAt: now + 600,
    });
    expect(auth).not.toHaveProperty('token');
  });

  it('reads scp arrays and azp when scope/client_id are absent', async () => {
    const auth = await verify(
      await sign({ client_id: undefined, scope: undefined, scp: ['a', 'b'], azp: 'c2' }),
      request,
    );
    expect(auth).toMatchObject({ clientId: 'c2', scopes: ['a', 'b'] });
  });

  it.each([
    [
      'another audience',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256' })
          .setIssuer(ISSUER)
          .setAudience('https://other.example')
          .setExpirationTime(now + 60)
          .sign(privateKey),
    ],
    [
      'another issuer',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256' })
          .setIssuer('https://evil.example')
          .setAudience(AUDIENCE)
          .setExpirationTime(now + 60)
          .sign(privateKey),
    ],
    [
      'an expired token',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime(now - 3600)
          .sign(privateKey),
    ],
    ['another key', async () => sign({}, (await generateKeyPair('ES256')).privateKey)],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses %s with undefined', async (_, make) => {
    expect(await verify(await make(), request)).toBeUndefined();
    expect(rejects.at(-1)).toMatch(/^ERR_/);
  });

  it('fetches keys from a JWKS URI', async () => {
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const original = globalThis.fetch;
    globalThis.fetch = async () =>
      new Response(JSON.stringify({ keys: [jwk] }), { headers: { 'content-type': 'application/json' } });
    try {
      const remote = jwtVerifier({ issuer: ISSUER, audience: [AUDIENCE], jwksUri: `${ISSUER}/jwks.json` });
      expect(await remote(await sign({}), request)).toMatchObject({ subject: 'alice' });
    } finally {
      globalThis.fetch = original;
    }
  });

  it('reports a DPoP binding (cnf.jkt) as extra.cnf, and nothing for plain tokens', async () => {
    const bound = await verify(await sign({ cnf: { jkt: 'thumb' } }), request);
    expect(bound?.extra?.cnf).toEqual({ jkt: 'thumb' });
    expect((await verify(await sign({}), request))?.extra).not.toHaveProperty('cnf');
    expect((await verify(await sign({ cnf: 'x' }), request))?.extra).not.toHaveProperty('cnf');
  });

  it('refuses a plain-http JWKS URI unless the issuer is on this machine too', () => {
    const jwksUri = 'http://as.example/jwks.json';
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri })).toThrow(
      expect.objectContaining({ reason: 'insecure' }),
    );
    const local = { issuer: 'http://127.0.0.1:9000', audience: AUDIENCE };
    expect(() => jwtVerifier({ ...local, jwksUri: 'http://127.0.0.1:9000/jwks' })).not.toThrow();
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: 'http://localhost/k' })).toThrow(
      expect.objectContaining({ reason: 'insecure' }),
    );
  });

  it('needs a key source', () => {
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE })).toThrow(TypeError);
  });
});
