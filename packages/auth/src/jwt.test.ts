import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtVerifier } from './jwt.js';

const ISSUER = 'https://as.example';
const AUDIENCE = 'https://mcp.example/mcp';
const { publicKey, privateKey } = await generateKeyPair('ES256');
const now = Math.floor(Date.now() / 1000);

/** An RFC 9068 access token for AUDIENCE (typ at+jwt, exp in 10 minutes), with `claims` on top. */
function sign(claims: Record<string, unknown>, key: CryptoKey = privateKey) {
  return new SignJWT({ client_id: 'c1', scope: 'mcp:basic mcp:write', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
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
          .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
          .setIssuer(ISSUER)
          .setAudience('https://other.example')
          .setExpirationTime(now + 60)
          .sign(privateKey),
    ],
    [
      'another issuer',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
          .setIssuer('https://evil.example')
          .setAudience(AUDIENCE)
          .setExpirationTime(now + 60)
          .sign(privateKey),
    ],
    [
      'an expired token',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
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

/** A token signed by the test key with exactly `header` (alg ES256 added) and `claims`, nothing set for it. */
const raw = (header: Record<string, unknown>, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'ES256', ...header }).sign(privateKey);
const valid = { iss: ISSUER, aud: AUDIENCE, sub: 'alice', iat: now, exp: now + 600 };

describe('jwtVerifier: RFC 9068 access tokens only (issue 35, defect 10)', () => {
  const verdict = async (verify: ReturnType<typeof jwtVerifier>, token: Promise<string>) =>
    (await verify(await token, request)) === undefined ? 'refused' : 'accepted';
  const rejects: string[] = [];
  const strict = jwtVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    key: publicKey,
    onReject: (r) => rejects.push(r),
  });
  const verify = (token: string) => verdict(strict, Promise.resolve(token));

  it.each<[string, Record<string, unknown>, Record<string, unknown>, 'accepted' | 'refused']>([
    ['typ at+jwt', { typ: 'at+jwt' }, valid, 'accepted'],
    ['typ application/at+jwt', { typ: 'application/at+jwt' }, valid, 'accepted'],
    ['typ AT+JWT (media types ignore case)', { typ: 'AT+JWT' }, valid, 'accepted'],
    ['no exp', { typ: 'at+jwt' }, { ...valid, exp: undefined }, 'refused'],
    ['exp null', { typ: 'at+jwt' }, { ...valid, exp: null }, 'refused'],
    ['exp as a string', { typ: 'at+jwt' }, { ...valid, exp: String(now + 600) }, 'refused'],
    ['no typ', {}, valid, 'refused'],
    ['typ JWT', { typ: 'JWT' }, valid, 'refused'],
    ['typ dpop+jwt', { typ: 'dpop+jwt' }, valid, 'refused'],
    ['typ oauth-id-jag+jwt', { typ: 'oauth-id-jag+jwt' }, valid, 'refused'],
    ['typ "at+jwt " (trailing space)', { typ: 'at+jwt ' }, valid, 'refused'],
    ['typ application/application/at+jwt', { typ: 'application/application/at+jwt' }, valid, 'refused'],
    ['typ text/at+jwt', { typ: 'text/at+jwt' }, valid, 'refused'],
    ['typ as an array', { typ: ['at+jwt'] }, valid, 'refused'],
    ['typ as a number', { typ: 1 }, valid, 'refused'],
  ])('%s: %s', async (_name, header, claims, expected) => {
    expect(await verdict(strict, raw(header, claims))).toBe(expected);
  });

  it('refuses alg confusion whatever the typ and exp say', async () => {
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(valid)}.`;
    expect(await verify(unsigned)).toBe('refused');
    // HS256 keyed with the public key's bytes (the classic confusion), typ and exp as they should be.
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
    const hs = await new SignJWT(valid).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(spki);
    expect(await verify(hs)).toBe('refused');
    // A token signed by another key that claims to be the issuer's.
    const other = await new SignJWT(valid)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .sign((await generateKeyPair('ES256')).privateKey);
    expect(await verify(other)).toBe('refused');
  });

  it('says which check refused a token', async () => {
    rejects.length = 0;
    await strict(await raw({ typ: 'at+jwt' }, { ...valid, exp: undefined }), request);
    await strict(await raw({ typ: 'JWT' }, valid), request);
    await strict(await raw({ typ: 'at+jwt' }, { ...valid, aud: 'https://other.example' }), request);
    expect(rejects).toEqual([
      'ERR_JWT_CLAIM_VALIDATION_FAILED:exp',
      'ERR_JWT_CLAIM_VALIDATION_FAILED:typ',
      'ERR_JWT_CLAIM_VALIDATION_FAILED:aud',
    ]);
  });

  it('accepts what an issuer that cannot comply sends, when told so, and nothing more', async () => {
    const lenient = jwtVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      key: publicKey,
      typ: ['at+jwt', 'jwt', null],
      allowMissingExp: true,
    });
    expect(await verdict(lenient, raw({ typ: 'JWT' }, valid))).toBe('accepted');
    expect(await verdict(lenient, raw({}, { ...valid, exp: undefined }))).toBe('accepted');
    expect(await verdict(lenient, raw({ typ: 'dpop+jwt' }, valid))).toBe('refused');
    expect(await verdict(lenient, raw({}, { ...valid, exp: now - 3600 }))).toBe('refused'); // a present exp counts
    expect(await verdict(lenient, raw({}, { ...valid, exp: 'never' }))).toBe('refused');
    const noTyp = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, key: publicKey, typ: [null] });
    expect(await verdict(noTyp, raw({}, valid))).toBe('accepted');
    expect(await verdict(noTyp, raw({ typ: 'at+jwt' }, valid))).toBe('refused');
  });

  it('refuses a typ option that is not a list of media types and null', () => {
    const base = { issuer: ISSUER, audience: AUDIENCE, key: publicKey };
    expect(() => jwtVerifier({ ...base, typ: 'jwt' as never })).toThrow(
      new TypeError('"typ" expected an array of media types and null, got string'),
    );
    expect(() => jwtVerifier({ ...base, typ: [] })).toThrow(RangeError);
    expect(() => jwtVerifier({ ...base, typ: [''] })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, typ: [undefined as never] })).toThrow(TypeError);
  });
});
