import { createHash } from 'node:crypto';
import { CompactSign, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { DpopRejection } from './bearer.js';
import { dpopVerifier, memoryReplayCache, rotatingDpopNonce } from './dpop-verifier.js';

// RFC 9449 §5 Figure 2 (a token request) and §7.1 Figure 13 (a resource request), with the RFC's key, whose
// RFC 7638 thumbprint is given in §6.1.
const RFC_JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
const RFC_TOKEN_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg';
const RFC_RESOURCE_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA';
const RFC_ACCESS_TOKEN = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU';
const RFC_NOW = 1562262620_000;

const request = (url: string, method: string, proof?: string) =>
  new Request(url, { method, headers: proof === undefined ? {} : { dpop: proof } });

describe('dpopVerifier: the RFC 9449 examples', () => {
  it('accepts Figure 2 at the token endpoint, once', async () => {
    const verifier = dpopVerifier({ now: () => RFC_NOW });
    const token = request('https://server.example.com/token', 'POST', RFC_TOKEN_PROOF);
    expect(await verifier.verify(token)).toEqual({ valid: true, jkt: RFC_JKT });
    expect(await verifier.verify(token.clone())).toEqual({ valid: false, reason: 'replay' });
  });

  it('accepts Figure 13 with its access token and key, and nothing else', async () => {
    const at = (url = 'https://resource.example.org/protectedresource', method = 'GET') =>
      request(url, method, RFC_RESOURCE_PROOF);
    const expected = { accessToken: RFC_ACCESS_TOKEN, jkt: RFC_JKT };
    const cases: [Request, object, DpopRejection | undefined][] = [
      [at(), { ...expected, accessToken: 'another token' }, 'ath'],
      [at(), { ...expected, jkt: 'another-key' }, 'key-mismatch'],
      [at(undefined, 'POST'), expected, 'htm'],
      [at('https://resource.example.org/other'), expected, 'htu'],
      [at('https://resource.example.org/protectedresource?q=1'), expected, undefined], // query ignored
    ];
    for (const [req, want, reason] of cases) {
      const outcome = await dpopVerifier({ now: () => RFC_NOW }).verify(req, want);
      expect(outcome).toEqual(
        reason === undefined ? { valid: true, jkt: RFC_JKT } : { valid: false, reason },
      );
    }
    const late = dpopVerifier({ now: () => RFC_NOW + 120_000 });
    expect(await late.verify(at(), expected)).toEqual({ valid: false, reason: 'iat' });
  });
});

const URL_ = 'https://mcp.example/mcp';
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = await exportJWK(publicKey);
const other = await generateKeyPair('ES256');
const privateJwk = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);

describe('dpopVerifier: hostile proofs', () => {
  const now = Math.floor(Date.now() / 1000);
  const claims = () => ({ jti: crypto.randomUUID(), htm: 'POST', htu: URL_, iat: now });
  const sign = (
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    key: CryptoKey = privateKey,
  ) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', ...header }).sign(key);
  const good = (payload: Record<string, unknown> = {}) =>
    sign({ typ: 'dpop+jwt', jwk }, { ...claims(), ...payload });
  const hmacKey = new TextEncoder().encode('a'.repeat(32));

  it.each<[string, () => Promise<string | undefined>, DpopRejection]>([
    ['no header', async () => undefined, 'missing'],
    ['two proofs', async () => `${await good()}, ${await good()}`, 'multiple'],
    ['not a JWS', async () => 'abc.def', 'malformed'],
    ['typ JWT', () => sign({ typ: 'JWT', jwk }, claims()), 'malformed'],
    ['no jwk', () => sign({ typ: 'dpop+jwt' }, claims()), 'malformed'],
    ['a private key in jwk', () => sign({ typ: 'dpop+jwt', jwk: privateJwk as JWK }, claims()), 'malformed'],
    ['jwk of another key', () => sign({ typ: 'dpop+jwt', jwk }, claims(), other.privateKey), 'signature'],
    [
      'HS256 with a symmetric jwk',
      () =>
        new CompactSign(new TextEncoder().encode(JSON.stringify(claims())))
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'YWFh' } as JWK })
          .sign(hmacKey),
      'algorithm',
    ],
    ['htm GET', () => good({ htm: 'GET' }), 'htm'],
    ['lower-case htm', () => good({ htm: 'post' }), 'htm'],
    ['another host', () => good({ htu: 'https://evil.example/mcp' }), 'htu'],
    ['http scheme', () => good({ htu: 'http://mcp.example/mcp' }), 'htu'],
    ['relative htu', () => good({ htu: '/mcp' }), 'htu'],
    ['iat too old', () => good({ iat: now - 61 }), 'iat'],
    ['iat in the future', () => good({ iat: now + 60 }), 'iat'],
    ['no iat', () => good({ iat: undefined }), 'iat'],
    ['no jti', () => good({ jti: undefined }), 'malformed'],
    ['short jti', () => good({ jti: 'abc' }), 'malformed'],
    ['no ath for a token', () => good(), 'ath'],
  ])('%s → %s', async (_name, make, reason) => {
    const expectToken = reason === 'ath';
    const proof = await make();
    const outcome = await dpopVerifier().verify(
      request(URL_, 'POST', proof),
      expectToken ? { accessToken: 'at-1' } : {},
    );
    expect(outcome).toEqual({ valid: false, reason });
  });

  it('accepts a good proof for the token it hashes, once per jti and key', async () => {
    const verifier = dpopVerifier();
    const ath = createHash('sha256').update('at-1').digest('base64url');
    const proof = await good({ ath });
    const first = await verifier.verify(request(URL_, 'POST', proof), { accessToken: 'at-1' });
    expect(first).toMatchObject({ valid: true });
    expect(await verifier.verify(request(URL_, 'POST', proof), { accessToken: 'at-1' })).toEqual({
      valid: false,
      reason: 'replay',
    });
  });

  it('refuses algorithms outside its list, and a list with symmetric ones', async () => {
    const ps = await generateKeyPair('PS256');
    const proof = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'PS256', typ: 'dpop+jwt', jwk: await exportJWK(ps.publicKey) })
      .sign(ps.privateKey);
    expect(await dpopVerifier({ algorithms: ['ES256'] }).verify(request(URL_, 'POST', proof))).toEqual({
      valid: false,
      reason: 'algorithm',
    });
    expect(() => dpopVerifier({ algorithms: ['HS256'] })).toThrow(TypeError);
    expect(() => dpopVerifier({ algorithms: [] })).toThrow(TypeError);
    expect(() => dpopVerifier({ maxAgeSeconds: -1 })).toThrow(RangeError);
  });

  it('demands the current nonce, handing it out with the refusal', async () => {
    const nonce = rotatingDpopNonce();
    const rejected: DpopRejection[] = [];
    const verifier = dpopVerifier({ nonce, onReject: (reason) => rejected.push(reason) });
    const missing = await verifier.verify(request(URL_, 'POST', await good()));
    expect(missing).toEqual({ valid: false, reason: 'nonce', nonce: nonce.current() });
    expect(await verifier.verify(request(URL_, 'POST', await good({ nonce: 'stale' })))).toMatchObject({
      reason: 'nonce',
    });
    expect(
      await verifier.verify(request(URL_, 'POST', await good({ nonce: nonce.current() }))),
    ).toMatchObject({
      valid: true,
    });
    expect(rejected).toEqual(['nonce', 'nonce']);
  });

  it('checks htu against the public URL when told, behind a proxy', async () => {
    const verifier = dpopVerifier({ url: () => URL_ });
    const inside = request('http://10.0.0.7:8080/internal', 'POST', await good());
    expect(await verifier.verify(inside)).toMatchObject({ valid: true });
  });
});

describe('memoryReplayCache', () => {
  it('refuses a key within its window, forgets it after, and stays bounded', () => {
    let now = 1_000_000;
    const cache = memoryReplayCache({ max: 3, now: () => now });
    const at = now / 1000;
    expect(cache.remember('a', at + 60)).toBe(true);
    expect(cache.remember('a', at + 60)).toBe(false);
    expect(cache.remember('b', at + 60)).toBe(true);
    expect(cache.remember('c', at + 60)).toBe(true);
    expect(cache.remember('d', at + 60)).toBe(true); // full: the oldest ("a") is forgotten
    expect(cache.remember('a', at + 60)).toBe(true);
    expect(cache.remember('d', at + 60)).toBe(false);
    now += 61_000;
    expect(cache.remember('d', now / 1000 + 60)).toBe(true); // expired, so new again
    expect(() => memoryReplayCache({ max: 0 })).toThrow(RangeError);
  });
});

describe('rotatingDpopNonce', () => {
  it('rotates every period and accepts the previous nonce for one more period', () => {
    let now = 0;
    const source = rotatingDpopNonce({ periodSeconds: 10, now: () => now });
    const first = source.current();
    expect(source.current()).toBe(first);
    expect(source.accepts(first)).toBe(true);
    expect(source.accepts(undefined)).toBe(false);
    now = 10_000;
    const second = source.current();
    expect(second).not.toBe(first);
    expect(source.accepts(first)).toBe(true);
    now = 20_000;
    expect(source.accepts(first)).toBe(false);
    expect(source.accepts(second)).toBe(true);
    now = 60_000;
    expect(source.accepts(second)).toBe(false); // skipped periods: nothing old survives
    expect(() => rotatingDpopNonce({ periodSeconds: 0 })).toThrow(RangeError);
  });
});
