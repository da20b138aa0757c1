import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { privateKeyJwt } from './client-assertion.js';

const claims = { clientId: 'svc', audience: 'https://as.example' };

describe('privateKeyJwt', () => {
  it('signs with a PEM, a private JWK or a CryptoKey; kid and lifetime as asked', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const forms = [await exportPKCS8(privateKey), await exportJWK(privateKey), privateKey];
    for (const form of forms) {
      const sign = privateKeyJwt({
        privateKey: form,
        algorithm: 'RS256',
        keyId: 'k1',
        lifetimeSeconds: 30,
        now: () => 5_000_000,
      });
      const jwt = await sign(claims);
      expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', kid: 'k1' });
      const { payload } = await jwtVerify(jwt, publicKey, { currentDate: new Date(5_000_000) });
      expect(payload).toMatchObject({
        iss: 'svc',
        sub: 'svc',
        aud: 'https://as.example',
        iat: 5000,
        exp: 5030,
      });
    }
  });

  it('an assertion signed by another key does not verify', async () => {
    const mine = await generateKeyPair('ES256');
    const other = await generateKeyPair('ES256');
    const jwt = await privateKeyJwt({ privateKey: other.privateKey, algorithm: 'ES256' })(claims);
    await expect(jwtVerify(jwt, mine.publicKey)).rejects.toThrow();
  });

  it('rejects bad arguments with TypeError / RangeError', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----';
    expect(() => privateKeyJwt({ privateKey: pem, algorithm: 'none' })).toThrow(TypeError);
    expect(() => privateKeyJwt({ privateKey: pem, algorithm: 'HS256' })).toThrow(TypeError);
    expect(() => privateKeyJwt({ privateKey: pem, algorithm: '' })).toThrow(TypeError);
    expect(() => privateKeyJwt({ privateKey: 42 as unknown as string, algorithm: 'ES256' })).toThrow(
      TypeError,
    );
    expect(() => privateKeyJwt({ privateKey: pem, algorithm: 'ES256', lifetimeSeconds: 0 })).toThrow(
      RangeError,
    );
    expect(() => privateKeyJwt({ privateKey: pem, algorithm: 'ES256', lifetimeSeconds: 1.5 })).toThrow(
      RangeError,
    );
  });

  it('a key that does not import fails with a TypeError that does not show the key', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----';
    const error = (await privateKeyJwt({ privateKey: pem, algorithm: 'ES256' })(claims).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('"privateKey" could not be imported for ES256');
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await privateKeyJwt({ privateKey: await exportJWK(publicKey), algorithm: 'ES256' })(
      claims,
    ).catch((e: unknown) => e);
    expect(publicJwk).toBeInstanceOf(TypeError);
  });
});
